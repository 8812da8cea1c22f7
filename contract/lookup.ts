/**
 * GET /lookup/find (SPEC 3.7, 7.2): suggestions for typed text, or the detail record of a chosen
 * entry. Written with `zod/mini` because the browser parses the responses.
 */
import * as z from 'zod/mini';
import { lookupMessages } from './messages';

export const LOOKUP_CATEGORIES = ['hs_ceeb', 'college_ceeb', 'address'] as const;
export type LookupCategoryName = (typeof LOOKUP_CATEGORIES)[number];

/** SPEC 9: suggestions asked for per search. */
export const LOOKUP_MAX_RESULTS = 5;
/** The longest search text the server accepts. */
export const LOOKUP_MAX_TEXT = 100;

export const lookupCategory = z.enum(LOOKUP_CATEGORIES, { error: lookupMessages.badCategory });

/** The query string: `category` and either `text` or `id`; `max_results` defaults to 5. */
export const lookupQuery = z.pipe(
  z.object({
    category: lookupCategory,
    text: z.optional(z.string().check(z.maxLength(LOOKUP_MAX_TEXT, lookupMessages.tooLong))),
    id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    max_results: z.optional(
      z.pipe(
        z.string().check(z.regex(/^\d{1,2}$/, lookupMessages.badMaxResults)),
        z.pipe(
          z.transform((value: string) => Number(value)),
          z
            .number()
            .check(
              z.minimum(1, lookupMessages.badMaxResults),
              z.maximum(20, lookupMessages.badMaxResults),
            ),
        ),
      ),
    ),
  }),
  z.transform((query, ctx) => {
    if (query.id !== undefined)
      return { kind: 'detail' as const, category: query.category, id: query.id };
    if (query.text !== undefined)
      return {
        kind: 'search' as const,
        category: query.category,
        text: query.text,
        maxResults: query.max_results ?? LOOKUP_MAX_RESULTS,
      };
    ctx.issues.push({ code: 'custom', message: lookupMessages.missingQuery, input: query });
    return z.NEVER;
  }),
);
export type LookupQuery = z.output<typeof lookupQuery>;

/** One suggestion: label (`text`), value (`id`) and sub-text (SPEC 3.7). */
export const lookupSuggestion = z.object({
  text: z.string(),
  id: z.string(),
  sub_text: z.string(),
});
export type LookupSuggestion = z.output<typeof lookupSuggestion>;
export const lookupSuggestions = z.array(lookupSuggestion);

/** The detail record: unprefixed fields (`name`, `ceeb`, `city`, `state`, `state_desc`, …). */
export const lookupDetail = z.record(z.string(), z.string());
export type LookupDetail = z.output<typeof lookupDetail>;

/** SPEC 4.9, 9: searching waits 200 ms after the last keystroke, and at most 500 ms. */
export const LOOKUP_DEBOUNCE = { wait: 200, maxWait: 500 } as const;
