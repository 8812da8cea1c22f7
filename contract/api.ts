/**
 * Payloads and responses of the /api/* calls (SPEC 7.2), shared by the API client and the server.
 * Written with `zod/mini` (same checks as classic zod, functional API) so the browser's first page
 * carries only the validators it uses (docs/decisions/ D29).
 */
import * as z from 'zod/mini';
import type { AnswerValue } from '../runtime';
import { WEB_STATUSES } from './webStatus';

const id64 = () => z.string().check(z.minLength(1), z.maxLength(64));

/**
 * The student answers map (flat), as a JSON object. Each value's type is checked once, on the
 * server, against the tenant's data model by the runtime the client uses too (`answerProblems`:
 * unknown keys, wrong types, too long), which names the keys at fault.
 */
export const answersBody = z.record(z.string(), z.unknown());
export type AnswersBody = Record<string, AnswerValue>;

export const webStatusValue = z.enum(WEB_STATUSES);
export const webStatusBody = z.object({ web_status: webStatusValue });
export const lastPageBody = z.object({
  last_page: z.string().check(z.regex(/^\/[a-z0-9-]*$/), z.maxLength(64)),
});
/** POST /api/validations: at most this many messages per key. */
export const VALIDATION_MESSAGES_PER_KEY = 20;
export const validationsBody = z.record(
  z.string(),
  z.array(z.string().check(z.maxLength(500))).check(z.maxLength(VALIDATION_MESSAGES_PER_KEY)),
);

const componentCount = () => z.number().check(z.int(), z.minimum(1), z.maximum(10));

/** SPEC 7.2 gives two spellings; both are accepted and read as one. */
export const addAnotherBody = z.pipe(
  z.union([
    z.object({ button_id: id64(), num_components: componentCount() }),
    z.object({ buttonId: id64(), numComponents: componentCount() }),
  ]),
  z.transform((body) =>
    'button_id' in body
      ? { buttonId: body.button_id, count: body.num_components }
      : { buttonId: body.buttonId, count: body.numComponents },
  ),
);

export const tabsBody = z.pipe(
  z.union([
    z.object({ tab_id: id64(), chosen_tab: id64() }),
    z.object({ tabId: id64(), chosenTab: id64() }),
  ]),
  z.transform((body) =>
    'tab_id' in body
      ? { tabId: body.tab_id, chosenTab: body.chosen_tab }
      : { tabId: body.tabId, chosenTab: body.chosenTab },
  ),
);

/** GET /api/profile (SPEC 3.2). */
export const profileResponse = z.object({
  answer: z.record(z.string(), z.unknown()),
  document_answer: z.record(z.string(), z.object({ file_name: z.string(), file_size: z.number() })),
  username: z.string(),
  last_page: z.nullable(z.string()),
  successful_login: z.array(z.object({ at: z.string() })),
  web_status: z.array(z.object({ web_status: z.string() })),
  /** SECURITY.md REQ-R-2: the answers' version (absent from servers that do not track it). */
  version: z.optional(z.number().check(z.int())),
  /** Once submitted: the application reference and the submission time (ISO 8601). */
  submission: z.optional(z.nullable(z.object({ reference: z.string(), submitted_at: z.string() }))),
});
export type ProfileResponse = z.output<typeof profileResponse>;

/** PUT /api/answer → { message, version } (version: REQ-R-2; absent from servers that do not track it). */
export const saveAnswersResponse = z.object({
  message: z.string(),
  version: z.optional(z.number().check(z.int())),
  /** With If-Match: the answers other tabs or devices changed since that version. */
  others: z.optional(z.record(z.string(), z.unknown())),
});

export const addAnotherResponse = z.record(z.string(), z.number().check(z.int()));
export const tabsResponse = z.record(z.string(), z.string());
/** Calls whose answer the client does not read (saves); any JSON body is accepted. */
export const ignoredResponse = z.unknown();

/** Every error body (ARCHITECTURE.md): a message in plain words, sometimes a code or the failing fields. */
export const errorBody = z.object({
  message: z.string(),
  code: z.optional(z.string()),
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
});
export type ErrorBody = z.output<typeof errorBody>;

/** POST /public/tmp → { token }; GET /public/tmp?token= → { answers }. */
export const tmpAnswersBody = z.object({ answers: answersBody });
export const tmpAnswersResponse = z.object({ answers: z.record(z.string(), z.unknown()) });
