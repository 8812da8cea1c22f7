/**
 * The institution configuration of SPEC 9 for the fictional institution of the embedded default.
 * Every institution-specific text, link and code comes from here, never from components.
 */
import * as z from 'zod/mini';

const url = z.url({ protocol: /^https?$/ });
const text = () => z.string().check(z.minLength(1));
/**
 * An institution colour: `#rrggbb` in either case, the one form the theme and the page's inline
 * style take. Without a flag, so the JSON Schema's pattern accepts what the server does (D194).
 */
export const COLOUR_PATTERN = /^#[0-9a-fA-F]{6}$/;
const colour = () =>
  z.string().check(z.regex(COLOUR_PATTERN, 'must be a hex colour such as #1d4f91'));

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

/** A schema with its description, which the JSON Schema an editor reads carries (D194). */
export const described = <T extends z.ZodMiniType>(schema: T, description: string): T =>
  schema.check(z.describe(description));

const link = (what: string) => described(url, `The web address of ${what} (https://…).`);

export const institutionConfigSchema = described(
  z.strictObject({
    partner_name: described(text(), "The college's name, as the pages, mails and PDFs name it."),
    application_title: described(text(), 'The title of the application form.'),
    privacy_policy_url: link("the college's privacy policy"),
    phone: described(text(), 'The phone number applicants call for help, as written.'),
    address: described(
      z.strictObject({
        line_1: described(text(), 'The street and number.'),
        line_2: described(z.optional(z.string()), 'A second line (a building), if any.'),
        city: described(text(), 'The city.'),
        state: described(text(), 'The state, written out or abbreviated.'),
        zip: described(text(), 'The ZIP code.'),
      }),
      "The college's postal address, shown in the footer and the mails.",
    ),
    help_email: described(
      z.email(),
      'The e-mail address applicants write to for help, such as help@college.edu.',
    ),
    links: described(
      z.strictObject({
        transcript_service: link('the service that sends transcripts'),
        act: link('sending ACT scores'),
        sat: link('sending SAT scores'),
        clt: link('sending CLT scores'),
        fafsa: link('the FAFSA'),
        financial_aid: link("the college's financial aid page"),
        explore: link("the college's page for exploring its programs"),
        pdf_reader: link('a PDF reader to download'),
      }),
      'Web addresses the completion page and the help dialog link to.',
    ),
    codes: described(
      z.strictObject({
        act: described(text(), "The college's ACT code."),
        sat: described(text(), "The college's SAT code."),
        fafsa: described(text(), "The college's FAFSA school code."),
      }),
      'The codes applicants send their scores and aid forms to.',
    ),
    /** The text-area limit (SPEC 9: the institution sets 7000). */
    character_limit: described(
      z.number().check(z.int(), z.minimum(1)),
      'The most characters a long answer (an essay) may hold.',
    ),
    /** Institution colours (SPEC 9 theme tokens; shades and the focus ring are derived from them,
     * and every pair the pages draw is checked against WCAG AA: definitions/colours.ts, D198). */
    colors: described(
      z.strictObject({
        primary: described(
          colour(),
          'The main colour (headings, buttons): a hex colour such as #1d4f91.',
        ),
        secondary: described(colour(), 'The second colour: a hex colour such as #8a1c2b.'),
        accent: described(
          colour(),
          'The accent colour (highlights): a hex colour such as #f2b705.',
        ),
      }),
      "The college's colours, each written #rrggbb; the app derives lighter and darker shades.",
    ),
    /**
     * How long applications are kept (D153): one never submitted, after its last change (its account
     * goes with it, a reminder mailed a month before); a submitted one, which an applicant's deletion
     * request leaves to an admin to complete.
     */
    retention: described(
      z._default(
        z.strictObject({
          unsubmitted_months: described(
            z.number().check(z.int(), z.minimum(2), z.maximum(120)),
            'Months an application never submitted is kept after its last change (2 to 120).',
          ),
          submitted_years: described(
            z.number().check(z.int(), z.minimum(1), z.maximum(100)),
            'Years a submitted application is kept (1 to 100).',
          ),
        }),
        DEFAULT_RETENTION,
      ),
      'How long applications are kept; 18 months and 5 years when absent.',
    ),
    /** The institution's IANA time zone: the console's dates and times are local to it. */
    time_zone: described(
      z._default(
        z
          .string()
          .check(z.refine(isTimeZone, 'must be a time zone name such as America/Chicago or UTC')),
        DEFAULT_TIME_ZONE,
      ),
      'The time zone the staff console shows times in, such as America/Chicago; UTC when absent.',
    ),
  }),
  "The college's configuration (SPEC 9): names, links, codes, contact, colours, limits.",
);

export type InstitutionConfig = z.output<typeof institutionConfigSchema>;

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
