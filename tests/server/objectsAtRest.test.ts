/**
 * Stored objects at rest (D154): local objects are written sealed in chunks under the tenant's
 * objects key and read back as they were; a byte changed, a chunk cut off or a file moved to another
 * key does not open; objects stored in plain before are read as they are and sealed in place.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OBJECT_CHUNK_BYTES,
  OBJECT_HEADER_BYTES,
  SEALED_OBJECT_MAGIC,
} from '../../server/crypto/objectSeal';
import { sealStoredObjects } from '../../server/crypto/sealAtRest';
import { LocalStorage } from '../../server/storage/local';
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
      (tenant) => Promise.resolve({ version: 1, objects: secrets.get(tenant) ?? Buffer.alloc(32) }),
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

  it('seals each tenant under its own key, the converted and PDF folders under their tenant', async () => {
    const bytes = Buffer.from('%PDF-1.7 converted');
    await storage.put('converted/south/user/file/x.pdf', bytes, 'application/pdf');
    await storage.put('application/south/user/y.pdf', bytes, 'application/pdf');
    const other = new LocalStorage(
      dataDir,
      randomBytes(32),
      () => new Date(),
      () => Promise.resolve({ version: 1, objects: secrets.get('north') as Buffer }),
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
