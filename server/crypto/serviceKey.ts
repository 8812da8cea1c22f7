/**
 * The service-token key: the HMAC key of the service tokens and download links, and the secret the
 * secret box derives its keys from (D103). Here, below the slices that sign with it, so the secret
 * box needs no slice (D204).
 */
import type { ServerConfig } from '../config';
import { secretFile } from '../secrets';

/** The file in DATA_DIR holding the generated service-token key when none is configured. */
export const SERVICE_KEY_FILE = 'service-token.key';

const keys = new Map<string, string>();

/** The HMAC key: SERVICE_TOKEN_SECRET, else a random key kept in DATA_DIR (mode 600). */
export function serviceTokenKey(config: ServerConfig): string {
  if (config.serviceTokenSecret) return config.serviceTokenSecret;
  let key = keys.get(config.dataDir);
  if (!key) {
    key = secretFile(config.dataDir, SERVICE_KEY_FILE);
    keys.set(config.dataDir, key);
  }
  return key;
}
