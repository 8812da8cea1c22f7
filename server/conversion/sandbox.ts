/**
 * The CPU-bound part of conversions (file-type, image-size, pdf-lib, yauzl, mammoth) in a worker
 * thread with a heap limit (SECURITY.md 3.4: "in a separate thread with a timeout"). One warm worker
 * per process; a conversion past its time limit terminates the worker (the next one starts fresh), so
 * a pathological file cannot keep the CPU or the heap.
 */
import { Worker } from 'node:worker_threads';
import { documentMessages } from '../../contract';
import { entryFile, runsBundled } from '../entries';
import type { ContentResult, ContentRunner } from './convert';

interface Pending {
  resolve: (result: ContentResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  worker: Worker;
}

export class ConversionSandbox {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Workers started (tests check that a timeout replaces the worker). */
  started = 0;

  constructor(private readonly heapMb = 512) {}

  private spawn(): Worker {
    // A worker thread cannot be given `--import tsx`: from the sources, an entry registers it (D141).
    const entry = runsBundled
      ? entryFile('server/conversion/sandboxWorker.ts')
      : new URL('./sandboxEntry.mjs', import.meta.url);
    const worker = new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
    });
    this.started += 1;
    worker.unref();
    worker.on('message', (message: { id: number; result: ContentResult }) => {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      clearTimeout(pending.timer);
      pending.resolve(message.result);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, pending] of this.pending) {
        if (pending.worker !== worker) continue;
        clearTimeout(pending.timer);
        pending.reject(error);
        this.pending.delete(id);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`conversion worker stopped (${code})`)));
    return worker;
  }

  /** The last job handed out: jobs run one after another (see `run`). */
  private tail: Promise<unknown> = Promise.resolve();

  /**
   * Runs one conversion in the worker, after the previous one has finished or timed out. Without the
   * wait, a job posted while a timed-out one still ran would queue behind it in the same worker and
   * die with it when that worker is terminated. The time limit counts from the job's start.
   */
  readonly run: ContentRunner = (bytes, fileName, timeoutMs) => {
    const copy = new Uint8Array(bytes);
    const result = this.tail.then(() => this.dispatch(copy, fileName, timeoutMs));
    this.tail = result.catch(() => undefined);
    return result;
  };

  private dispatch(
    copy: Uint8Array<ArrayBuffer>,
    fileName: string,
    timeoutMs: number,
  ): Promise<ContentResult> {
    this.worker ??= this.spawn();
    const worker = this.worker;
    const id = this.nextId++;
    return new Promise<ContentResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ ok: false, message: documentMessages.timedOut });
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, worker });
      worker.postMessage({ id, bytes: copy, fileName }, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
