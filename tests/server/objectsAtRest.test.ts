/**
 * Stored objects at rest (D154): local objects are written sealed in chunks under the tenant's
 * objects key and read back as they were; a byte changed, a chunk cut off or a file moved to another
 * key does not open; objects stored in plain before are read as they are and sealed in place.
 * Written as a stream (D176), an object is sealed chunk by chunk as it comes, read back the same
 * by `get` and `getStream`, and a stream that fails leaves no object and no partial file.
 */
import { randomBytes } from 'node:crypto';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OBJECT_CHUNK_BYTES,
  OBJECT_HEADER_BYTES,
  SEALED_OBJECT_MAGIC,
} from '../../server/crypto/objectSeal';
import { sealStoredObjects } from '../../server/atRest/sealAtRest';
import { LocalStorage, unretiredKeyring } from '../../server/storage/local';
import { databaseKinds, startServer, type TestServer } from './harness';

describe('local objects sealed at rest', () => {
  let dataDir: string;
  let storage: LocalStorage;
  const secrets = new Map([
    ['north', randomBytes(32)],
    ['south', randomBytes(32)],
  ]);
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'objects-'));
    storage = new LocalStorage(
      dataDir,
      randomBytes(32),
      () => new Date(),
      unretiredKeyring((tenant) =>
        Promise.resolve({ version: 1, objects: secrets.get(tenant) ?? Buffer.alloc(32) }),
      ),
    );
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  const fileOf = (key: string) => path.join(dataDir, 'objects', key);

  it.each([0, 1, OBJECT_CHUNK_BYTES - 1, OBJECT_CHUNK_BYTES, OBJECT_CHUNK_BYTES + 1, 10 << 20])(
    'reads back an object of %i bytes as it was, its size told as the plaintext size',
    async (size) => {
      const bytes = randomBytes(size);
      const key = `north/user/file/${size}`;
      await storage.put(key, bytes, 'application/pdf');
      const onDisk = await readFile(fileOf(key));
      expect(onDisk.subarray(0, SEALED_OBJECT_MAGIC.length).equals(SEALED_OBJECT_MAGIC)).toBe(true);
      if (size >= 64) expect(onDisk.includes(bytes.subarray(0, 64))).toBe(false);
      expect((await storage.get(key))?.equals(bytes)).toBe(true);
      expect(await storage.exists(key)).toEqual({ size });
    },
  );

  /** `bytes` cut into pieces of the given sizes, the last piece taking the rest. */
  async function* piecesOf(bytes: Buffer, sizes: readonly number[]) {
    let at = 0;
    for (const size of sizes) {
      yield bytes.subarray(at, Math.min(bytes.length, at + size));
      at += size;
      await Promise.resolve();
    }
    if (at < bytes.length) yield bytes.subarray(at);
  }
  const streamed = async (body: AsyncIterable<unknown>) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  it.each([
    ['empty', 0, []],
    ['one byte at a time across a chunk boundary', OBJECT_CHUNK_BYTES + 3, Array(70_000).fill(1)],
    ['in pieces ending on a chunk boundary', 2 * OBJECT_CHUNK_BYTES, [OBJECT_CHUNK_BYTES - 5, 5]],
    ['in pieces larger than a chunk', 5 * OBJECT_CHUNK_BYTES + 7, [3 * OBJECT_CHUNK_BYTES + 1]],
  ] as const)('streams in an object written %s, sealed as a whole one', async (_, size, sizes) => {
    const bytes = randomBytes(size);
    const key = `north/user/stream/${size}`;
    await storage.putStream(key, piecesOf(bytes, sizes), 'application/zip');
    const whole = `north/user/whole/${size}`;
    await storage.put(whole, bytes, 'application/zip');
    const onDisk = await readFile(fileOf(key));
    // The same layout as an object put whole: same size, header, chunks and last-chunk mark.
    expect(onDisk.length).toBe((await readFile(fileOf(whole))).length);
    expect(onDisk.subarray(0, SEALED_OBJECT_MAGIC.length).equals(SEALED_OBJECT_MAGIC)).toBe(true);
    if (size >= 64) expect(onDisk.includes(bytes.subarray(0, 64))).toBe(false);
    expect((await storage.get(key))?.equals(bytes)).toBe(true);
    const object = await storage.getStream(key);
    expect(object?.size).toBe(size);
    expect((await streamed(object!.body)).equals(bytes)).toBe(true);
  });

  it('a stream that fails leaves no object and no partial file; a missing one streams as null', async () => {
    async function* failing() {
      yield randomBytes(3 * OBJECT_CHUNK_BYTES);
      throw new Error('the source failed');
    }
    await expect(storage.putStream('north/user/failed/zip', failing(), '')).rejects.toThrow(
      'the source failed',
    );
    expect(await storage.exists('north/user/failed/zip')).toBeNull();
    expect(await readdir(path.join(dataDir, 'objects', 'north/user/failed'))).toEqual([]);
    expect(await storage.getStream('north/user/failed/zip')).toBeNull();
  });

  it('a streamed read stops at a changed byte before giving the chunk that holds it', async () => {
    const bytes = randomBytes(3 * OBJECT_CHUNK_BYTES);
    await storage.putStream('north/u/q/streamed', piecesOf(bytes, [1000]), '');
    const sealed = await readFile(fileOf('north/u/q/streamed'));
    const second = OBJECT_HEADER_BYTES + OBJECT_CHUNK_BYTES + 16 + 10;
    sealed.writeUInt8(sealed.readUInt8(second) ^ 1, second);
    await writeFile(fileOf('north/u/q/streamed'), sealed);
    const object = await storage.getStream('north/u/q/streamed');
    const given: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of object!.body) given.push(chunk as Buffer);
      })(),
    ).rejects.toThrow();
    expect(Buffer.concat(given).equals(bytes.subarray(0, OBJECT_CHUNK_BYTES))).toBe(true);
  });

  it('seals each tenant under its own key, the converted and PDF folders under their tenant', async () => {
    const bytes = Buffer.from('%PDF-1.7 converted');
    await storage.put('converted/south/user/file/x.pdf', bytes, 'application/pdf');
    await storage.put('application/south/user/y.pdf', bytes, 'application/pdf');
    const other = new LocalStorage(
      dataDir,
      randomBytes(32),
      () => new Date(),
      unretiredKeyring(() =>
        Promise.resolve({ version: 1, objects: secrets.get('north') as Buffer }),
      ),
    );
    await expect(other.get('converted/south/user/file/x.pdf')).rejects.toThrow();
    await expect(other.get('application/south/user/y.pdf')).rejects.toThrow();
    expect((await storage.get('application/south/user/y.pdf'))?.equals(bytes)).toBe(true);
  });

  it('refuses a changed byte, a cut-off chunk and a file moved to another key', async () => {
    const bytes = randomBytes(3 * OBJECT_CHUNK_BYTES);
    for (const name of ['changed', 'cut', 'moved'])
      await storage.put(`north/u/q/${name}`, bytes, '');
    const changed = await readFile(fileOf('north/u/q/changed'));
    changed.writeUInt8(changed.readUInt8(OBJECT_HEADER_BYTES + 100) ^ 1, OBJECT_HEADER_BYTES + 100);
    await writeFile(fileOf('north/u/q/changed'), changed);
    await expect(storage.get('north/u/q/changed')).rejects.toThrow();
    // Cut at a chunk's end: what is left would be a whole object but for the last-chunk mark.
    await truncate(fileOf('north/u/q/cut'), OBJECT_HEADER_BYTES + 2 * (OBJECT_CHUNK_BYTES + 16));
    await expect(storage.get('north/u/q/cut')).rejects.toThrow();
    await rename(fileOf('north/u/q/moved'), fileOf('north/u/q/elsewhere'));
    await expect(storage.get('north/u/q/elsewhere')).rejects.toThrow();
  });
});

describe.each(databaseKinds)('objects stored in plain before D154 on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ database });
  });
  afterAll(async () => server?.close());

  it('are read as they are, then sealed in place once, by parallel runs too', async () => {
    const storage = server.built.documents.storage as LocalStorage;
    const tenant = server.built.context.config.defaultTenant;
    const keys = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0
        ? `converted/${tenant}/u${i}/transcript_file/f.pdf`
        : `${tenant}/u${i}/transcript_file/f${i}`,
    );
    const plain = new Map(keys.map((key) => [key, Buffer.from(`legacy object ${key} in clear`)]));
    for (const [key, bytes] of plain) {
      await mkdir(path.dirname(path.join(storage.root, key)), { recursive: true });
      await writeFile(path.join(storage.root, key), bytes);
    }
    for (const [key, bytes] of plain) {
      expect((await storage.get(key))?.equals(bytes)).toBe(true);
      expect(await storage.exists(key)).toEqual({ size: bytes.length });
    }
    expect((await storage.plainKeys()).sort()).toEqual([...keys].sort());

    const runs = await Promise.all(Array.from({ length: 4 }, () => sealStoredObjects(storage)));
    expect(runs.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(keys.length);
    expect(await storage.plainKeys()).toEqual([]);
    for (const [key, bytes] of plain) {
      const onDisk = await readFile(path.join(storage.root, key));
      expect(onDisk.includes(Buffer.from('in clear'))).toBe(false);
      expect((await storage.get(key))?.equals(bytes)).toBe(true);
    }
    expect(await sealStoredObjects(storage)).toBe(0);
  });
});
