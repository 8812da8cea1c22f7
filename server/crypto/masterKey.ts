/**
 * The master key that wraps each tenant's data key (D150): MASTER_KEY, else a random key kept in
 * DATA_DIR like the other secrets. `KeyWrapper` is the seam for a KMS, which would wrap and unwrap
 * remotely under the same contract.
 */
import { createHash, hkdfSync } from 'node:crypto';
import type { ServerConfig } from '../config';
import { secretFile } from '../secrets';
import { openBytes, sealBytes } from './aead';

/** The file in DATA_DIR holding the generated master key when none is configured. */
export const MASTER_KEY_FILE = 'master.key';

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

/** The configured master key's wrapper. */
export function masterKeyWrapper(config: Pick<ServerConfig, 'masterKey' | 'dataDir'>): KeyWrapper {
  return new LocalKeyWrapper(config.masterKey ?? secretFile(config.dataDir, MASTER_KEY_FILE));
}
