/** Runs in the conversion worker thread (server/conversion/sandbox.ts). */
import { parentPort } from 'node:worker_threads';
import { documentMessages } from '../../contract';
import { convertContent } from './convert';

parentPort?.on('message', (message: { id: number; bytes: Uint8Array; fileName: string }) => {
  void convertContent(message.bytes, message.fileName).then(
    (result) => {
      const transfer = result.ok && 'pdf' in result ? [result.pdf.buffer as ArrayBuffer] : [];
      parentPort?.postMessage({ id: message.id, result }, transfer);
    },
    () => {
      // An unexpected throw inside a library: the file could not be converted.
      parentPort?.postMessage({
        id: message.id,
        result: { ok: false, message: documentMessages.conversionFailed },
      });
    },
  );
});
