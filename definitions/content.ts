/**
 * The embedded default institution's own words (SPEC 1, 2.3, 2.4, 2.7): the offer, the welcome
 * banner's institution-specific variants, the completion steps and the dated alerts. They reach the
 * app as its institution file (definitions/seed.ts); the platform's words, the same for every
 * institution, are in contract/words.ts (docs/decisions/ D143).
 */
import { institutionConfig } from './config';

export const offer = {
  heading: 'Apply Now to Enjoy:',
  items: [
    'No application fee',
    'No essay requirement',
    'Automatic scholarship consideration',
    'Optional test-score submission',
    'A three-day admission decision',
  ],
} as const;

export const banner = {
  submitted: {
    title: (name: string) => `Thanks, ${name}!`,
    text: 'Congratulations on completing the online portion of your application! Take these last steps to finish up your application.',
  },
  firstLogin: {
    title: 'Welcome!',
    text: `${offer.items.slice(0, 3).join(', ')}, and more. We're excited to learn more about you!`,
  },
  secondLogin: {
    title: 'Welcome Back!',
    text: 'Finish and submit your application now so that you are automatically considered for scholarships.',
  },
} as const;

export const completion = {
  header: 'To complete your application, you must take the following steps.',
  steps: [
    {
      title: 'Send your high school transcript',
      text: 'Ask your school to send your official transcript through our transcript service.',
      link: { label: 'Transcript service', href: institutionConfig.links.transcript_service },
    },
    {
      title: 'Send your test scores (optional)',
      text: `Test scores are optional. To send them, use ACT code ${institutionConfig.codes.act}, SAT code ${institutionConfig.codes.sat}, or the CLT.`,
      links: [
        { label: 'ACT', href: institutionConfig.links.act },
        { label: 'SAT', href: institutionConfig.links.sat },
        { label: 'CLT', href: institutionConfig.links.clt },
      ],
    },
    {
      title: 'Apply for financial aid',
      text: `Complete the Free Application for Federal Student Aid (FAFSA) with our school code ${institutionConfig.codes.fafsa}.`,
      links: [
        { label: 'FAFSA', href: institutionConfig.links.fafsa },
        {
          label: 'Financial aid at ' + institutionConfig.partner_name,
          href: institutionConfig.links.financial_aid,
        },
      ],
    },
    {
      title: `Explore ${institutionConfig.partner_name}`,
      text: 'Plan a visit, meet your admission counselor and see what campus life is like.',
      link: {
        label: `Explore ${institutionConfig.partner_name}`,
        href: institutionConfig.links.explore,
      },
    },
  ],
} as const;

/**
 * SPEC 2.7: a notice shown only from `start` (inclusive) until `end` (exclusive), for example a
 * deadline reminder. ISO instants; none configured means none shown.
 */
export const datedAlerts: readonly {
  readonly id: string;
  readonly start: string;
  readonly end: string;
  readonly text: string;
}[] = [
  {
    id: 'regular-decision-deadline',
    start: '2026-11-15T00:00:00-05:00',
    end: '2027-01-16T00:00:00-05:00',
    text: 'Regular decision deadline: submit your application by January 15 to be considered for our first round of scholarships.',
  },
];
