/**
 * The institution configuration of SPEC 9 for the fictional institution of the embedded default.
 * Every institution-specific text, link and code comes from here, never from components.
 */
import { z } from 'zod';

const url = z.url({ protocol: /^https?$/ });

export const institutionConfigSchema = z.strictObject({
  partner_name: z.string().min(1),
  application_title: z.string().min(1),
  privacy_policy_url: url,
  phone: z.string().min(1),
  address: z.strictObject({
    line_1: z.string().min(1),
    line_2: z.string().optional(),
    city: z.string().min(1),
    state: z.string().min(1),
    zip: z.string().min(1),
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
    act: z.string().min(1),
    sat: z.string().min(1),
    fafsa: z.string().min(1),
  }),
  /** The text-area limit (SPEC 9: the institution sets 7000). */
  character_limit: z.number().int().min(1),
  /** Institution colours (SPEC 9 theme tokens; shades are derived by the app). */
  colors: z.strictObject({
    primary: z.string().regex(/^#[0-9a-f]{6}$/i),
    secondary: z.string().regex(/^#[0-9a-f]{6}$/i),
    accent: z.string().regex(/^#[0-9a-f]{6}$/i),
  }),
});

export type InstitutionConfig = z.infer<typeof institutionConfigSchema>;

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
});
