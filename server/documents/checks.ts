/** What a document call accepts: a file question of the definition, an upload key of the applicant's own. */
import { documentMessages } from '#contract';
import { keySpec, type Definition } from '#runtime';
import { HttpError } from '../errors';
import { isWellFormedKey, keyPrefix } from '../storage/storage';
import type { Applicant } from '../http/context';

const QUESTION_KEY = /^[A-Za-z0-9_]{1,128}$/;

/** The key must name a file question of the tenant's definition. */
export function assertFileQuestion(definition: Definition, key: string): void {
  if (!QUESTION_KEY.test(key) || keySpec(definition, key)?.type !== 'document')
    throw new HttpError(400, documentMessages.notFileQuestion(key.slice(0, 128)));
}

/**
 * A file key is accepted only under the applicant's own `<tenant>/<user>/<question>/` prefix and in
 * the shape the server builds: another applicant's key, or one never built, is simply not found.
 */
export function assertOwnUploadKey(user: Applicant, questionKey: string, fileKey: string): void {
  const prefix = keyPrefix(user.tenantId, user.userId, questionKey);
  if (!fileKey.startsWith(prefix) || !isWellFormedKey(fileKey))
    throw new HttpError(404, documentMessages.uploadNotFound);
}
