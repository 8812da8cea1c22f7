/**
 * The master key that wraps each tenant's data key (D150): MASTER_KEY, else a random key kept in
 * DATA_DIR like the other secrets. `KeyWrapper` is the seam for a KMS, which would wrap and unwrap
 * remotely under the same contract. During a rotation (D155) the key being retired stays readable:
 * MASTER_KEY_PREVIOUS, else DATA_DIR/master.key.previous.
 */
import { createHash, hkdfSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config';
import { secretFile } from '../secrets';
import { openBytes, sealBytes } from './aead';

/** The file in DATA_DIR holding the generated master key when none is configured. */
export const MASTER_KEY_FILE = 'master.key';
/** The file in DATA_DIR holding the master key a rotation retires, while data keys remain under it. */
export const PREVIOUS_MASTER_KEY_FILE = 'master.key.previous';

/** Wraps data keys; `id` names the master key and is stored beside each key it wrapped. */
export interface KeyWrapper {
  readonly id: string;
  wrap(dataKey: Buffer, tenantId: string): Promise<string>;
  unwrap(wrapped: string, tenantId: string): Promise<Buffer>;
}

/** Wraps with AES-256-GCM under a key derived from a local secret, bound to the tenant. */
export class LocalKeyWrapper implements KeyWrapper {
  readonly id: string;
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', 'admission master key v1', 32));
    // A name for the key that reveals nothing of it: a hash of the derived key.
    this.id = `local:${createHash('sha256').update(this.key).digest('hex').slice(0, 16)}`;
  }

  wrap(dataKey: Buffer, tenantId: string): Promise<string> {
    return Promise.resolve(sealBytes(this.key, dataKey, `data-key:${tenantId}`).toString('base64'));
  }

  unwrap(wrapped: string, tenantId: string): Promise<Buffer> {
    return Promise.resolve(
      openBytes(this.key, Buffer.from(wrapped, 'base64'), `data-key:${tenantId}`),
    );
  }
}

/** The master keys a process holds: the one that wraps, and the one being retired, if any. */
export interface MasterKeys {
  readonly current: KeyWrapper;
  /** The wrapper named `id` (the current or the previous key), or undefined. */
  byId(id: string): KeyWrapper | undefined;
}

type MasterKeyConfig = Pick<ServerConfig, 'masterKey' | 'masterKeyPrevious' | 'dataDir'>;

/** The previous master key: MASTER_KEY_PREVIOUS, else DATA_DIR/master.key.previous when it exists. */
function previousSecret(config: MasterKeyConfig): string | undefined {
  if (config.masterKeyPrevious) return config.masterKeyPrevious;
  const file = path.join(config.dataDir, PREVIOUS_MASTER_KEY_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/**
 * The configured master keys. The key files are read again when a key is not found: a rotation
 * made by `npm run keys` since this process started is then followed without a restart.
 */
export class LocalMasterKeys implements MasterKeys {
  private wrappers!: { current: KeyWrapper; previous: KeyWrapper | undefined };

  constructor(private readonly config: MasterKeyConfig) {
    this.read();
  }

  private read(): void {
    const previous = previousSecret(this.config);
    this.wrappers = {
      current: new LocalKeyWrapper(
        this.config.masterKey ?? secretFile(this.config.dataDir, MASTER_KEY_FILE),
      ),
      previous: previous ? new LocalKeyWrapper(previous) : undefined,
    };
  }

  get current(): KeyWrapper {
    return this.wrappers.current;
  }

  get previous(): KeyWrapper | undefined {
    return this.wrappers.previous;
  }

  byId(id: string): KeyWrapper | undefined {
    const find = () =>
      [this.wrappers.current, this.wrappers.previous].find((wrapper) => wrapper?.id === id);
    if (find()) return find();
    this.read();
    return find();
  }
}

/** The configured master keys. */
export function masterKeys(config: MasterKeyConfig): LocalMasterKeys {
  return new LocalMasterKeys(config);
}
