/**
 * Object storage for uploads and converted PDFs. Two adapters: local disk under DATA_DIR with the
 * server's own presigned POST (the embedded default) and S3 or a compatible store (STORAGE=s3).
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { MAX_FILE_BYTES } from '../../contract/documents';

export interface PresignedPost {
  readonly url: string;
  readonly fields: Record<string, string> & { key: string };
}

export interface ObjectStorage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * Stores the bytes of `source` as they come, holding a bounded part of them at a time (a ZIP of
   * thousands of PDFs, D176); the object appears whole or not at all.
   */
  putStream(key: string, source: AsyncIterable<Uint8Array>, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The object's bytes as a stream and its size, or null when there is none. */
  getStream(key: string): Promise<{ body: Readable; size: number } | null>;
  delete(key: string): Promise<void>;
  /** The object's size, or null when there is none. */
  exists(key: string): Promise<{ size: number } | null>;
  /** A form upload fixed to this key, the allowed types and 1 B .. 1 MB, valid for a few minutes. */
  presignPost(key: string): Promise<PresignedPost>;
}

/** The policy every presigned upload carries (SECURITY.md 3.1): exact key, size range, short expiry. */
export const UPLOAD_POLICY = {
  minBytes: 1,
  maxBytes: MAX_FILE_BYTES,
  expiresInSeconds: 600,
  contentTypes: [
    'image/png',
    'image/jpeg',
    'application/pdf',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ],
} as const;

const SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Object keys are built here, never from a file name: `<tenant>/<user id>/<question key>/<random>`.
 * Each part must be a plain segment, so no key can leave its tenant and applicant prefix.
 */
export function uploadKey(tenantId: string, userId: string, questionKey: string): string {
  for (const part of [tenantId, userId, questionKey])
    if (!SEGMENT.test(part)) throw new Error(`not a key segment: ${JSON.stringify(part)}`);
  return `${tenantId}/${userId}/${questionKey}/${randomBytes(16).toString('hex')}`;
}

/** The prefix of every object of one applicant's question (ownership check of a client's file_key). */
export function keyPrefix(tenantId: string, userId: string, questionKey: string): string {
  return `${tenantId}/${userId}/${questionKey}/`;
}

/** A key the server could have built: plain segments only, four of them. */
export function isWellFormedKey(key: string): boolean {
  const parts = key.split('/');
  return parts.length === 4 && parts.every((part) => SEGMENT.test(part));
}

const CONVERTED = 'converted';
const APPLICATION_PDF = 'application';

/** Where the converted PDF of an upload is kept. */
export function convertedKey(fileKey: string): string {
  return `${CONVERTED}/${fileKey}.pdf`;
}

/** The folder of an applicant's prepared application PDFs (each under a random name). */
export function applicationPdfPrefix(tenantId: string, userId: string): string {
  return `${APPLICATION_PDF}/${tenantId}/${userId}/`;
}

/** The tenant owning an object: the first segment of its key, after a converted or PDF folder. */
export function objectTenant(key: string): string {
  const [first = '', second = ''] = key.split('/');
  return first === CONVERTED || first === APPLICATION_PDF ? second : first;
}
