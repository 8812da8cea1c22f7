/**
 * The institution file: everything institution-specific a tenant brings besides its form (SPEC 1,
 * SPEC 9): the configuration and the institution's own words (the offer, the welcome banner, the
 * completion steps, dated alerts). The platform's words (buttons, notices, SPEC's messages) are the
 * same for every institution and stay in code. Checked on the way in; each problem names its path.
 */
import * as z from 'zod/mini';
import type { Definition } from '../runtime';
import { institutionColourProblems } from './colours';
import { described, institutionConfigSchema } from './config';

const text = () => z.string().check(z.minLength(1));
const url = z.url({ protocol: /^https?$/ });
const instant = z.iso.datetime({ offset: true });

const titledText = (when: string) =>
  described(
    z.strictObject({
      title: described(text(), "The banner's heading; {name} is the applicant's first name."),
      text: described(text(), "The banner's sentence; {name} is the applicant's first name."),
    }),
    `The welcome banner ${when}.`,
  );

const link = z.strictObject({
  label: described(text(), "The link's words."),
  href: described(url, 'Where it leads: a web address starting with https://.'),
});

export const institutionFileSchema = described(
  z.strictObject({
    /** Where an editor finds the JSON Schema (tenants/schemas/institution.schema.json). */
    $schema: described(
      z.optional(z.string()),
      'Where an editor finds this JSON Schema, such as ../schemas/institution.schema.json.',
    ),
    config: institutionConfigSchema,
    /** SPEC 2.3: the offer beside the form. */
    offer: described(
      z.strictObject({
        heading: described(text(), 'The heading of the offer.'),
        items: described(z.array(text()).check(z.minLength(1)), 'Its points, one sentence each.'),
      }),
      'What the college offers, shown beside the sign-up form.',
    ),
    /** SPEC 2.3: the welcome banner's institution-specific variants; `{name}` is the first name. */
    welcome: described(
      z.strictObject({
        submitted: titledText('once the application is submitted'),
        firstLogin: titledText('at the first sign-in'),
        secondLogin: titledText('at a later sign-in'),
      }),
      'The welcome banners at the top of the form.',
    ),
    /** SPEC 2.4: the completion page. */
    completion: described(
      z.strictObject({
        header: described(text(), 'The heading of the next steps.'),
        steps: described(
          z.array(
            z.strictObject({
              title: described(text(), "The step's heading."),
              text: described(text(), 'What to do.'),
              links: described(z.array(link), 'Links for the step (none is fine).'),
            }),
          ),
          'The next steps, in order.',
        ),
      }),
      'The page shown once the application is submitted.',
    ),
    /** SPEC 2.7: notices shown from `start` (inclusive) until `end` (exclusive), e.g. a deadline. */
    alerts: described(
      z.array(
        z.strictObject({
          id: described(text(), 'A name of its own, such as spring-deadline.'),
          start: described(
            instant,
            'When it is first shown, with its offset, such as 2027-01-10T00:00:00-08:00.',
          ),
          end: described(instant, 'When it is no longer shown: after its start.'),
          text: described(text(), 'What it says, in plain words.'),
        }),
      ),
      'Notices shown between their start and end, such as a deadline.',
    ),
  }),
  "A college's institution file: its configuration and its own words (docs/tenants.md).",
);

export type InstitutionFile = z.output<typeof institutionFileSchema>;

/** A refused institution file: one line per problem, each with the path it is at. */
export class InstitutionFileError extends Error {
  override readonly name = 'InstitutionFileError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid institution file:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (at, part) =>
      typeof part === 'number' ? `${at}[${part}]` : at ? `${at}.${String(part)}` : String(part),
    '',
  );
}

/** A file without its `$schema` link, which only editors read (either file of a college). */
export function withoutSchemaLink<T>(data: T): T {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const { $schema: _schema, ...rest } = data as Record<string, unknown>;
  return rest as T;
}

/**
 * Parses an institution file; a bad one throws every problem with its path, and nothing else. Its
 * colours are checked too: each pair the pages draw below WCAG 2.1 AA's contrast is a problem
 * naming both colours and the ratio (definitions/colours.ts; D198).
 */
export function parseInstitutionFile(data: unknown): InstitutionFile {
  const result = institutionFileSchema.safeParse(data);
  if (!result.success)
    throw new InstitutionFileError(
      result.error.issues.map((issue) => `${pathOf(issue.path) || '(root)'}: ${issue.message}`),
    );
  const colours = institutionColourProblems(result.data);
  if (colours.length > 0)
    throw new InstitutionFileError(colours.map(({ path, message }) => `${path}: ${message}`));
  return result.data;
}

/**
 * What the server inlines into each page for its tenant (read by the app at start), in the element
 * of contract/firstLoad.ts's TENANT_DATA_ELEMENT_ID (docs/decisions/ D143).
 */
export interface TenantPageData {
  readonly institution: InstitutionFile;
  readonly definition: Definition;
  readonly definitionVersion: number;
}
