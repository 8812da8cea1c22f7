/**
 * The local presigned-POST endpoint (the url of POST /api/presigned-url with local storage): a
 * multipart form with the signed fields first and one `file` last, as S3 takes it. Refuses a tampered
 * or expired policy, a different key, a type outside the policy, an empty file, a file over 1 MB, a
 * second file and a form without a file, each with a `{ message }`.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { documentMessages } from '../../contract';
import { HttpError } from '../errors';
import { refusals } from '../security/events';
import { described } from '../routeDescription';
import type { LocalStorage } from './local';
import { UPLOAD_POLICY } from './storage';

const SIGNED_FIELDS = new Set(['key', 'policy', 'signature']);

export function uploadRoute(storage: LocalStorage): FastifyPluginAsync {
  return async (app) => {
    await app.register(multipart, {
      limits: {
        fileSize: UPLOAD_POLICY.maxBytes,
        files: 2,
        fields: 10,
        fieldSize: 4096,
        parts: 12,
      },
    });

    const upload = described({
      tag: 'documents',
      summary: 'The upload of a presigned form (local storage)',
      body: 'multipart',
      status: 204,
    });
    app.post('/', upload, async (request, reply) =>
      receive(request, reply).catch(
        refusals(request, (error) => (error.statusCode === 403 ? 'token.upload_refused' : null)),
      ),
    );

    async function receive(request: FastifyRequest, reply: FastifyReply) {
      if (!request.isMultipart()) throw new HttpError(400, documentMessages.uploadNoFile);
      const fields: Record<string, string> = {};
      let stored: { key: string; bytes: Buffer; type: string } | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            if (stored) throw new HttpError(400, documentMessages.uploadRefused);
            // Only the signed fields may come with the file (SECURITY.md test 24: no uncovered field).
            if (!SIGNED_FIELDS.has(part.fieldname) || part.fieldname in fields)
              throw new HttpError(403, documentMessages.uploadRefused);
            fields[part.fieldname] = typeof part.value === 'string' ? part.value : '';
            continue;
          }
          if (stored || part.fieldname !== 'file') {
            // Drain it, then refuse: only one file, named `file`, is accepted.
            await part.toBuffer().catch(() => undefined);
            throw new HttpError(400, documentMessages.oneFile);
          }
          const verdict = storage.verify(fields);
          if (!verdict.ok) {
            await part.toBuffer().catch(() => undefined);
            throw new HttpError(
              403,
              verdict.reason === 'expired'
                ? documentMessages.uploadExpired
                : documentMessages.uploadRefused,
            );
          }
          if (!verdict.policy.contentTypes.includes(part.mimetype)) {
            await part.toBuffer().catch(() => undefined);
            throw new HttpError(400, documentMessages.wrongType);
          }
          let bytes: Buffer;
          try {
            bytes = await part.toBuffer();
          } catch (error) {
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
              throw new HttpError(413, documentMessages.tooLarge);
            throw error;
          }
          if (bytes.length < verdict.policy.minBytes)
            throw new HttpError(400, documentMessages.empty);
          if (bytes.length > verdict.policy.maxBytes)
            throw new HttpError(413, documentMessages.tooLarge);
          stored = { key: verdict.policy.key, bytes, type: part.mimetype };
        }
      } catch (error) {
        // Malformed multipart (a bad or missing boundary, a truncated part) is the client's error.
        if (error instanceof HttpError) throw error;
        throw new HttpError(400, documentMessages.uploadRefused);
      }
      if (!stored) throw new HttpError(400, documentMessages.uploadNoFile);
      await storage.put(stored.key, stored.bytes, stored.type);
      return reply.status(204).send();
    }
  };
}
