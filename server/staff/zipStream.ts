/**
 * A ZIP written as a stream (D176): entries are asked for one at a time, the next only once the
 * previous one has gone into the stream, so a ZIP of thousands of PDFs holds a few of them in
 * memory, never all. yazl writes ZIP64 only where the sizes need it (an archive over 4 GiB).
 */
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';

export interface ZipEntry {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * The ZIP of `entries`, stored as they are (PDFs are compressed already). A failing entry fails
 * the stream; a stream destroyed by its reader stops asking for entries.
 */
export function zipStream(entries: AsyncIterable<ZipEntry>, mtime: Date): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  zip.on('error', (error: Error) => output.destroy(error));
  const outputDone = finished(output);
  outputDone.catch(() => undefined);
  const produce = async () => {
    for await (const entry of entries) {
      // yazl keeps each entry's function to the end: no closure may keep the bytes, or `entry`.
      const name = entry.name;
      const options = { compress: false, mtime, size: entry.bytes.length };
      let held: Uint8Array | undefined = entry.bytes;
      const taken = new Promise<void>((resolve, reject) => {
        zip.addReadStreamLazy(name, options, (give) => {
          const body = Readable.from([held]);
          held = undefined;
          finished(body).then(resolve, reject);
          give(null, body);
        });
      });
      // Taken once yazl has piped it on; a reader gone meanwhile ends the loop (and `entries`).
      await Promise.race([taken, outputDone]);
      if (output.destroyed) return;
    }
    zip.end();
  };
  produce().catch((error: unknown) => output.destroy(error as Error));
  return output;
}
