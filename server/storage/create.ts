import type { ServerConfig } from '../config';
import { secretFile } from '../secrets';
import { LocalStorage } from './local';
import { S3Storage } from './s3';
import type { ObjectStorage } from './storage';

/** The storage adapter the configuration names (STORAGE, default local). */
export function createStorage(config: ServerConfig): ObjectStorage {
  if (config.storage.kind === 's3') return new S3Storage(config.storage);
  return new LocalStorage(
    config.dataDir,
    Buffer.from(secretFile(config.dataDir, 'upload-secret'), 'base64url'),
    config.now,
  );
}
