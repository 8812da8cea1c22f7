/**
 * The institution configuration of SPEC 9 for the fictional institution of the embedded default.
 * Every institution-specific text, link and code comes from here, never from components.
 */
import * as z from 'zod/mini';

const url = z.url({ protocol: /^https?$/ });
const text = () => z.string().check(z.minLength(1));
/** An institution colour: `#rrggbb`, the one form the theme and the page's inline style take. */
export const COLOUR_PATTERN = /^#[0-9a-f]{6}$/i;
const colour = () => z.string().check(z.regex(COLOUR_PATTERN));

/** An IANA time zone name the platform's `Intl` knows ("America/New_York"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
/** Where an institution states no time zone, times are shown in UTC, said so beside them. */
export const DEFAULT_TIME_ZONE = 'UTC';
/** The retention windows of a college whose file names none (D153). */
export const DEFAULT_RETENTION = { unsubmitted_months: 18, submitted_years: 5 } as const;

export const institutionConfigSchema = z.strictObject({
  partner_name: text(),
  application_title: text(),
  privacy_policy_url: url,
  phone: text(),
  address: z.strictObject({
    line_1: text(),
    line_2: z.optional(z.string()),
    city: text(),
    state: text(),
    zip: text(),
  }),
  help_email: z.email(),
  links: z.strictObject({
    transcript_service: url,
    act: url,
    sat: url,
    clt: url,
    fafsa: url,
    financial_aid: url,
    explore: url,
    pdf_reader: url,
  }),
  codes: z.strictObject({
    act: text(),
    sat: text(),
    fafsa: text(),
  }),
  /** The text-area limit (SPEC 9: the institution sets 7000). */
  character_limit: z.number().check(z.int(), z.minimum(1)),
  /** Institution colours (SPEC 9 theme tokens; shades and the focus ring are derived from them, and
   * every pair the pages draw is checked against WCAG AA: definitions/colours.ts, D198). */
  colors: z.strictObject({
    primary: colour(),
    secondary: colour(),
    accent: colour(),
  }),
  /**
   * How long applications are kept (D153): one never submitted, after its last change (its account
   * goes with it, a reminder mailed a month before); a submitted one, which an applicant's deletion
   * request leaves to an admin to complete.
   */
  retention: z._default(
    z.strictObject({
      unsubmitted_months: z.number().check(z.int(), z.minimum(2), z.maximum(120)),
      submitted_years: z.number().check(z.int(), z.minimum(1), z.maximum(100)),
    }),
    DEFAULT_RETENTION,
  ),
  /** The institution's IANA time zone: the console's dates and times are local to it. */
  time_zone: z._default(z.string().check(z.refine(isTimeZone)), DEFAULT_TIME_ZONE),
});

export type InstitutionConfig = z.output<typeof institutionConfigSchema>;

/** The calendar day of an instant in a time zone, as `yyyy-mm-dd`. */
export const dayIn = (timeZone: string, at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(at);

/** SPEC 8: the developer-facing warning for a missing configuration value. */
export function missingConfigurationMessage(name: string): string {
  return `WARNING- MISSING CONFIGURATION: ${name}`;
}

/**
 * The warnings for every missing or unusable value of a configuration, one per dotted name
 * (`links.fafsa`); none when the configuration is complete.
 */
export function configurationWarnings(input: unknown): string[] {
  const result = institutionConfigSchema.safeParse(input);
  if (result.success) return [];
  const names = new Set(
    result.error.issues.map((issue) => issue.path.map(String).join('.') || '(root)'),
  );
  return [...names].map(missingConfigurationMessage);
}

/** Parses a configuration; a bad or missing value stops with the warning naming it. */
export function parseInstitutionConfig(input: unknown): InstitutionConfig {
  const warnings = configurationWarnings(input);
  if (warnings.length > 0) throw new Error(warnings.join('\n'));
  return institutionConfigSchema.parse(input);
}

/** Northfield College is fictional; its addresses use reserved example domains. */
export const institutionConfig: InstitutionConfig = parseInstitutionConfig({
  partner_name: 'Northfield College',
  application_title: 'Northfield College Application',
  privacy_policy_url: 'https://www.northfield.example.edu/privacy',
  phone: '(555) 010-4200',
  address: {
    line_1: '100 College Avenue',
    city: 'Northfield',
    state: 'Vermont',
    zip: '05663',
  },
  help_email: 'apply-help@northfield.example.edu',
  links: {
    transcript_service: 'https://www.northfield.example.edu/admission/transcripts',
    act: 'https://www.act.org/',
    sat: 'https://satsuite.collegeboard.org/sat/scores/send-scores',
    clt: 'https://www.cltexam.com/',
    fafsa: 'https://studentaid.gov/h/apply-for-aid/fafsa',
    financial_aid: 'https://www.northfield.example.edu/financial-aid',
    explore: 'https://www.northfield.example.edu/explore',
    pdf_reader: 'https://get.adobe.com/reader/',
  },
  codes: { act: '4321', sat: '3210', fafsa: '009876' },
  character_limit: 7000,
  colors: { primary: '#1d3f6e', secondary: '#8a1c2b', accent: '#f2b705' },
  time_zone: 'America/New_York',
});
