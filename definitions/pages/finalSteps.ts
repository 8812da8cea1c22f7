import type { Page } from '../../runtime';
import { institutionConfig } from '../config';
import { messages } from '../messages';
import { mustBeTrue, required } from '../rules';

/** The explanation of a conduct answer: sensitive like the answer it explains. */
const explain = (key: string, label: string, message: string) => ({
  kind: 'textarea' as const,
  key,
  label,
  maxLength: institutionConfig.character_limit,
  rules: [required(message)],
  sensitive: true as const,
});

export const finalStepsPage: Page = {
  id: 'final-steps',
  path: '/final-steps',
  title: 'Final Steps',
  children: [
    {
      kind: 'section',
      id: 'conduct',
      title: 'Disciplinary History',
      description: 'Answering yes does not automatically prevent your admission.',
      children: [
        {
          kind: 'radio',
          key: 'conviction',
          label: 'Have you been convicted of a felony?',
          options: 'yesNo',
          sensitive: true,
          rules: [required(messages.conviction)],
          content: {
            Y: [
              explain(
                'conviction_comment',
                'Please explain the circumstances.',
                messages.convictionComment,
              ),
            ],
          },
        },
        {
          kind: 'radio',
          key: 'suspended',
          label: 'Have you been suspended from any school?',
          options: 'yesNo',
          sensitive: true,
          rules: [required(messages.suspended)],
          content: {
            Y: [
              explain(
                'suspended_comment',
                'Please explain the circumstances.',
                messages.suspendedComment,
              ),
            ],
          },
        },
      ],
    },
    {
      kind: 'section',
      id: 'transcript',
      title: 'Transcript',
      children: [
        {
          kind: 'tabs',
          id: 'transcript',
          label: 'How will you send your transcript?',
          defaultTab: 'upload',
          tabs: [
            {
              name: 'upload',
              label: 'Upload an unofficial transcript',
              clears: ['transcript_file'],
              children: [
                {
                  kind: 'file',
                  key: 'transcript_file',
                  label: 'Unofficial Transcript',
                  help: 'A PDF, Word document or photo of your transcript, up to 1 MB.',
                },
              ],
            },
            {
              name: 'counselor',
              label: 'My school will send it',
              clears: [],
              children: [
                {
                  kind: 'paragraph',
                  id: 'transcript_counselor',
                  text: `Ask your school counselor to send your official transcript to ${institutionConfig.partner_name}. The completion page links to the transcript service.`,
                },
              ],
            },
          ],
        },
      ],
    },
    {
      kind: 'section',
      id: 'counselor_waiver',
      title: 'Counselor Recommendation',
      children: [
        {
          kind: 'radio',
          key: 'counselor_waiver_request',
          label: messages.waiver,
          options: 'waiver',
          rules: [required(messages.waiver)],
        },
      ],
    },
    {
      kind: 'section',
      id: 'certification',
      title: 'Certification',
      children: [
        {
          kind: 'checkbox',
          key: 'legal_agree',
          label: messages.legalAgree,
          rules: [mustBeTrue(messages.legalAgree)],
        },
      ],
    },
  ],
};
