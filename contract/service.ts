/**
 * Service users (SPEC 2.9, 6, 7.2): the read-only data of `GET /service/tmp-pdf` and the staff call
 * that mints a service link. Written with `zod/mini`: the service view parses the response.
 */
import * as z from 'zod/mini';
import { documentAnswer } from './documents';

/** `GET /service/tmp-pdf?service_token=`: one applicant's answers, add-another counts, documents and tabs. */
export const serviceDataResponse = z.object({
  answer: z.record(z.string(), z.union([z.string(), z.boolean(), z.null()])),
  add_another: z.record(z.string(), z.number()),
  document_answer: z.record(z.string(), documentAnswer),
  tabs: z.record(z.string(), z.string()),
  /** The definition version the application is read under (its submitted one, else the latest). */
  definition_version: z.optional(z.number()),
  /** That version's definition, sent only when it is not the latest the page already holds. */
  definition: z.optional(z.unknown()),
});
export type ServiceData = z.output<typeof serviceDataResponse>;

/** `POST /service/tokens` (staff, bearer key): a link for one applicant of the staff's tenant. */
export const mintServiceTokenBody = z.object({
  email: z.string().check(z.minLength(3), z.maxLength(254)),
});
export const mintServiceTokenResponse = z.object({
  /** The token's id, for `DELETE /service/tokens/{id}` (revocation). */
  id: z.string(),
  url: z.string(),
  token: z.string(),
  expires_at: z.string(),
});
export type MintServiceTokenResponse = z.output<typeof mintServiceTokenResponse>;

/** `DELETE /service/tokens/{id}` (staff): the link no longer opens. */
export const revokeServiceTokenParams = z.object({
  id: z.string().check(z.minLength(16), z.maxLength(64)),
});

/** The query parameter that carries a service token (SPEC 2.9). */
export const SERVICE_TOKEN_PARAM = 'service_token';
