/** Payloads and responses of the /api/* calls (SPEC 7.2), shared by the API client and the server. */
import { z } from 'zod';
import { serverMessages } from './messages';

type AnswerValue = string | boolean | null;
const isAnswerValue = (value: unknown): value is AnswerValue =>
  value === null || typeof value === 'string' || typeof value === 'boolean';

/**
 * The student answers map (flat): text, true/false or null values. A bad value is reported with the
 * keys that hold one. The server checks keys and types against the data model too.
 */
export const answersBody = z.record(z.string(), z.unknown()).transform((answers, ctx) => {
  const bad = Object.keys(answers).filter((key) => !isAnswerValue(answers[key]));
  if (bad.length > 0) {
    ctx.addIssue({ code: 'custom', message: serverMessages.badValues(bad.slice(0, 20)) });
    return z.NEVER;
  }
  return answers as Record<string, AnswerValue>;
});
export type AnswersBody = z.infer<typeof answersBody>;

export const webStatusValue = z.enum(['started', 'validating', 'submitted']);
export const webStatusBody = z.object({ web_status: webStatusValue });
export const lastPageBody = z.object({
  last_page: z
    .string()
    .regex(/^\/[a-z0-9-]*$/)
    .max(64),
});
export const validationsBody = z.record(z.string(), z.array(z.string().max(500)).max(20));

/** SPEC 7.2 gives two spellings; both are accepted and read as one. */
export const addAnotherBody = z
  .union([
    z.object({
      button_id: z.string().min(1).max(64),
      num_components: z.number().int().min(1).max(10),
    }),
    z.object({
      buttonId: z.string().min(1).max(64),
      numComponents: z.number().int().min(1).max(10),
    }),
  ])
  .transform((body) =>
    'button_id' in body
      ? { buttonId: body.button_id, count: body.num_components }
      : { buttonId: body.buttonId, count: body.numComponents },
  );

export const tabsBody = z
  .union([
    z.object({ tab_id: z.string().min(1).max(64), chosen_tab: z.string().min(1).max(64) }),
    z.object({ tabId: z.string().min(1).max(64), chosenTab: z.string().min(1).max(64) }),
  ])
  .transform((body) =>
    'tab_id' in body
      ? { tabId: body.tab_id, chosenTab: body.chosen_tab }
      : { tabId: body.tabId, chosenTab: body.chosenTab },
  );

/** GET /api/profile (SPEC 3.2). */
export const profileResponse = z.object({
  answer: z.record(z.string(), z.unknown()),
  document_answer: z.record(z.string(), z.object({ file_name: z.string(), file_size: z.number() })),
  username: z.string(),
  last_page: z.string().nullable(),
  successful_login: z.array(z.object({ at: z.string() })),
  web_status: z.array(z.object({ web_status: z.string() })),
});
export type ProfileResponse = z.infer<typeof profileResponse>;

export const addAnotherResponse = z.record(z.string(), z.number().int());
export const tabsResponse = z.record(z.string(), z.string());

/** Every error body (ARCHITECTURE.md): a message in plain words, sometimes a code or the failing fields. */
export const errorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** POST /public/tmp → { token }; GET /public/tmp?token= → { answers }. */
export const tmpAnswersBody = z.object({ answers: answersBody });
export const tmpAnswersResponse = z.object({ answers: z.record(z.string(), z.unknown()) });
