import type { ServerConfig } from '../config';
import { secretFile } from '../secrets';
import { LocalStorage, type ObjectKeyring } from './local';
import { S3Storage } from './s3';
import type { ObjectStorage } from './storage';

/**
 * The storage adapter the configuration names (STORAGE, default local). Local uploads are signed with
 * UPLOAD_SECRET, else with a random key kept in DATA_DIR/upload-secret: processes that share the
 * objects must share the key (docs/operations.md). Local objects are sealed with `keyring` (D154, D189); S3
 * encrypts on its side (server-side encryption on every put).
 */
export function createStorage(config: ServerConfig, keyring: ObjectKeyring): ObjectStorage {
  if (config.storage.kind === 's3') return new S3Storage(config.storage);
  return new LocalStorage(
    config.dataDir,
    config.uploadSecret
      ? Buffer.from(config.uploadSecret, 'utf8')
      : Buffer.from(secretFile(config.dataDir, 'upload-secret'), 'base64url'),
    config.now,
    keyring,
  );
}
