/**
 * The streamed ZIP (D176): what it holds reads back whole, its entries are asked for one at a time
 * as the reader takes them (so a slow reader holds the producer back), a failing entry fails the
 * stream, and a reader that gives up stops the entries.
 */
import { randomBytes } from 'node:crypto';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { zipStream, type ZipEntry } from '../../server/staff/zipStream';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the streamed ZIP', () => {
  it('holds every entry under its name, bytes as given, names in UTF-8', async () => {
    const files = new Map([
      ['González-María-D9EE-83E7.pdf', randomBytes(200_000)],
      ['Hopper-Grace-0A1B-2C3D.pdf', randomBytes(3)],
      ['empty.pdf', Buffer.alloc(0)],
    ]);
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (const [name, bytes] of files) yield { name, bytes };
    }
    const zip = unzipSync(new Uint8Array(await readAll(zipStream(entries(), new Date()))));
    expect(Object.keys(zip)).toEqual([...files.keys()]);
    for (const [name, bytes] of files) expect(Buffer.from(zip[name]!).equals(bytes)).toBe(true);
  });

  it('asks for the next entry only as the reader takes the ZIP: a reader that waits holds it back', async () => {
    let asked = 0;
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (let index = 0; index < 50; index++) {
        asked++;
        yield { name: `${index}.pdf`, bytes: randomBytes(256 * 1024) };
      }
    }
    const stream = zipStream(entries(), new Date());
    await pause(300);
    // Nothing read: a few entries fill the stream's buffers, the rest wait.
    expect(asked).toBeLessThanOrEqual(3);
    const zip = unzipSync(new Uint8Array(await readAll(stream)));
    expect(asked).toBe(50);
    expect(Object.keys(zip)).toHaveLength(50);
  });

  it('an entry that fails fails the stream; a reader that gives up stops the entries', async () => {
    async function* failing(): AsyncGenerator<ZipEntry> {
      yield { name: 'a.pdf', bytes: randomBytes(10) };
      throw new Error('the print failed');
    }
    await expect(readAll(zipStream(failing(), new Date()))).rejects.toThrow('the print failed');

    let asked = 0;
    let closed = false;
    async function* endless(): AsyncGenerator<ZipEntry> {
      try {
        for (;;) {
          asked++;
          yield { name: `${asked}.pdf`, bytes: randomBytes(256 * 1024) };
        }
      } finally {
        closed = true;
      }
    }
    const stream = zipStream(endless(), new Date());
    for await (const _ of stream) break;
    for (let i = 0; i < 40 && !closed; i++) await pause(25);
    expect(closed).toBe(true);
    const after = asked;
    await pause(200);
    expect(asked).toBe(after);
  });
});
