import type { Node, Page, Question } from '../../runtime';
import { institutionConfig } from '../config';
import { messages } from '../messages';
import {
  INTERNATIONAL_PHONE_PATTERN,
  SSN_PATTERN,
  email,
  eq,
  pattern,
  phoneBlockRules,
  required,
  usPhone,
  validDate,
} from '../rules';
import { addressFields } from './address';

const phones = phoneBlockRules(
  {
    home: 'phone_home',
    mobile: 'phone_mobile',
    international: 'phone_international',
    optIn: 'optin_sms_ind',
  },
  messages.phone,
);

const personal: Node = {
  kind: 'section',
  id: 'personal',
  title: 'Personal Information',
  children: [
    {
      kind: 'text',
      key: 'first_name',
      label: 'First Name',
      autoComplete: 'given-name',
      rules: [required(messages.firstName)],
    },
    { kind: 'text', key: 'middle_name', label: 'Middle Name', autoComplete: 'additional-name' },
    {
      kind: 'text',
      key: 'last_name',
      label: 'Last Name',
      autoComplete: 'family-name',
      rules: [required(messages.lastName)],
    },
    {
      kind: 'text',
      key: 'preferred_name',
      label: 'Preferred Name',
      autoComplete: 'nickname',
      help: 'The name you would like us to call you, if different.',
    },
    {
      kind: 'text',
      key: 'email_address',
      label: 'Email Address',
      inputMode: 'email',
      autoComplete: 'email',
      maxLength: 254,
      rules: [email(messages.email)],
    },
    {
      kind: 'date',
      key: 'birth_date',
      label: 'Date of Birth',
      autoComplete: 'bday',
      rules: [
        required(messages.birthDate.required),
        validDate(messages.birthDate.invalid),
        {
          kind: 'dateWindow',
          min: { yearOffset: -100, month: 1, day: 1 },
          max: { yearOffset: -13, month: 12, day: 31 },
          minMessage: messages.birthDate.tooOld,
          maxMessage: messages.birthDate.tooYoung,
        },
      ],
    },
    {
      kind: 'select',
      key: 'gender',
      label: 'Gender',
      autoComplete: 'sex',
      options: 'genders',
      rules: [required(messages.gender)],
    },
    {
      kind: 'radio',
      key: 'military_active',
      label: 'Are you currently serving in the U.S. military?',
      options: 'yesNo',
    },
  ],
};

const phoneSection: Node = {
  kind: 'section',
  id: 'phone',
  title: 'Phone Numbers',
  description: 'Give us at least one number where we can reach you.',
  children: [
    {
      kind: 'phone',
      key: 'phone_home',
      label: 'Home Phone',
      autoComplete: 'home tel-national',
      rules: phones.home,
    },
    {
      kind: 'phone',
      key: 'phone_mobile',
      label: 'Cell Phone',
      autoComplete: 'mobile tel-national',
      rules: phones.mobile,
    },
    {
      kind: 'checkbox',
      key: 'optin_sms_ind',
      label: 'Send me text message updates about my application.',
    },
    {
      kind: 'checkbox',
      key: 'guardian_optin_sms_ind',
      label: 'My parent or guardian may also receive text message updates.',
    },
    {
      kind: 'trigger',
      mode: 'button',
      id: 'international_phone',
      label: 'Add an international phone number',
      after: [
        {
          kind: 'text',
          key: 'phone_international',
          label: 'International Phone',
          inputMode: 'numeric',
          autoComplete: 'tel',
          maxLength: 25,
          rules: [pattern(INTERNATIONAL_PHONE_PATTERN, messages.internationalPhone)],
        },
      ],
    },
  ],
};

const socialSection: Node = {
  kind: 'section',
  id: 'social_media',
  title: 'Social Media',
  children: [
    {
      kind: 'radio',
      key: 'social_media',
      label: 'Would you like to share your social media accounts with us?',
      options: 'yesNo',
      content: {
        Y: [
          { kind: 'text', key: 'fb_name', label: 'Facebook Name' },
          { kind: 'text', key: 'twitter_name', label: 'X (Twitter) Handle' },
          { kind: 'text', key: 'instagram_handle', label: 'Instagram Handle' },
          { kind: 'text', key: 'snapchat_handle', label: 'Snapchat Handle' },
          { kind: 'text', key: 'tiktok_handle', label: 'TikTok Handle' },
        ],
      },
    },
  ],
};

const permanentAddress: Node = {
  kind: 'section',
  id: 'permanent_address',
  title: 'Permanent Address',
  children: addressFields({
    prefix: '',
    required: true,
    messages: messages.address,
    autofill: {},
  }),
};

const mailingAddress: Node = {
  kind: 'section',
  id: 'mailing_address',
  title: 'Mailing Address',
  children: [
    {
      kind: 'radio',
      key: 'mailing_addr_same_as_perm_addr',
      label: 'Is your mailing address the same as your permanent address?',
      options: 'yesNo',
      rules: [required(messages.mailing.same)],
      content: {
        N: [
          ...addressFields({
            prefix: 'mailing_',
            required: false,
            messages: messages.address,
            autofill: { section: 'mailing' },
          }),
          {
            kind: 'date',
            key: 'mailing_addr_effective_date',
            label: 'Address Effective Until',
            rules: [
              required(messages.mailing.effectiveDate),
              validDate(messages.mailing.invalidDate),
              {
                kind: 'dateWindow',
                min: { yearOffset: -3, month: 1, day: 1 },
                max: { yearOffset: 4, month: 12, day: 31 },
                minMessage: messages.mailing.minYear,
                maxMessage: messages.mailing.maxYear,
              },
            ],
          },
        ],
      },
    },
  ],
};

const ssn: Question = {
  kind: 'ssn',
  key: 'ssn',
  label: 'Social Security Number',
  help: 'Optional. We use it only to match your financial aid records.',
  rules: [pattern(SSN_PATTERN, messages.citizenship.ssn)],
  // docs/decisions/ D55: staff and the applicant's PDF see only the last four digits.
  inCopies: 'lastFour',
  sensitive: true,
};
const birthCountry: Question = {
  kind: 'select',
  key: 'birth_country',
  label: 'What is your country of birth?',
  options: 'countries',
  rules: [required(messages.citizenship.birthCountry)],
  sensitive: true,
};

const citizenship: Node = {
  kind: 'section',
  id: 'citizenship',
  title: 'Citizenship',
  children: [
    {
      kind: 'radio',
      key: 'citizenship_type',
      label: 'Citizen Type',
      options: 'citizenshipTypes',
      rules: [required(messages.citizenship.type)],
      sensitive: true,
    },
    {
      kind: 'exclusive',
      id: 'citizenship_details',
      cases: [
        { when: eq('citizenship_type', '1'), children: [ssn] },
        {
          when: eq('citizenship_type', '2'),
          children: [
            ssn,
            birthCountry,
            {
              kind: 'text',
              key: 'alien_registration_number',
              label: 'Alien Registration Number',
              maxLength: 12,
              rules: [required(messages.citizenship.alienRegistration)],
              sensitive: true,
            },
          ],
        },
        {
          when: eq('citizenship_type', '3'),
          children: [
            birthCountry,
            {
              kind: 'select',
              key: 'citizenship',
              label: 'What is your country of citizenship?',
              options: 'countriesNoUsa',
              rules: [required(messages.citizenship.citizenship)],
              sensitive: true,
            },
            {
              kind: 'select',
              key: 'citizenship_visa_status',
              label: 'What is your anticipated visa type?',
              options: 'visaTypes',
              rules: [required(messages.citizenship.visa)],
              sensitive: true,
            },
          ],
        },
      ],
    },
  ],
};

const demographics: Node = {
  kind: 'section',
  id: 'demographics',
  title: 'Demographics',
  description: 'These questions are optional. Your answers do not affect your admission decision.',
  children: [
    { kind: 'radio', key: 'ethnicity', label: 'Are you Hispanic or Latino?', options: 'yesNo' },
    {
      kind: 'paragraph',
      id: 'race_intro',
      text: 'Regardless of your answer above, select every race that applies to you.',
    },
    { kind: 'checkbox', key: 'race_american_indian', label: 'American Indian or Alaska Native' },
    { kind: 'checkbox', key: 'race_asian', label: 'Asian' },
    { kind: 'checkbox', key: 'race_black', label: 'Black or African American' },
    {
      kind: 'checkbox',
      key: 'race_native_hawaiian',
      label: 'Native Hawaiian or Other Pacific Islander',
    },
    { kind: 'checkbox', key: 'race_white', label: 'White' },
    {
      kind: 'select',
      key: 'religious_affiliation',
      label: 'Religious Affiliation',
      options: 'religions',
    },
  ],
};

const parents: Node = {
  kind: 'section',
  id: 'parents',
  title: 'Parents and Guardians',
  children: [
    {
      kind: 'repeat',
      id: 'parents',
      title: 'Parent or Legal Guardian {n}',
      instances: { kind: 'prefix', prefixes: ['parent_', 'parent_2_'] },
      addAnother: { buttonId: 'parent', label: 'Add Another Parent or Guardian' },
      children: [
        {
          kind: 'select',
          key: 'relationship',
          label: 'Relationship to You',
          options: 'parentRelationships',
        },
        { kind: 'select', key: 'prefix', label: 'Prefix', options: 'namePrefixes' },
        { kind: 'text', key: 'first_name', label: 'First Name' },
        { kind: 'text', key: 'last_name', label: 'Last Name' },
        {
          kind: 'text',
          key: 'email_address',
          label: 'Email Address',
          inputMode: 'email',
          maxLength: 254,
          rules: [email(messages.parent.email)],
        },
        { kind: 'phone', key: 'phone', label: 'Phone', rules: [usPhone(messages.parent.phone)] },
        {
          kind: 'radio',
          key: 'military_relation_active',
          label: 'Is this parent or guardian currently serving in the U.S. military?',
          options: 'yesNo',
        },
        {
          kind: 'trigger',
          mode: 'checkbox',
          id: 'parent_address_same',
          key: 'addr_same_as_perm_addr',
          label: 'This parent or guardian lives at my permanent address',
          before: addressFields({
            prefix: '',
            required: false,
            messages: messages.address,
            inSlot: true,
          }),
          after: [],
        },
      ],
    },
    {
      kind: 'select',
      key: 'parent_communication_preference',
      label: 'How should we contact your parents or guardians?',
      options: 'communicationPreferences',
    },
    {
      kind: 'select',
      key: 'degree_earned',
      label: 'What is the highest degree either parent or guardian has earned?',
      options: 'parentDegrees',
    },
  ],
};

const legacy: Node = {
  kind: 'section',
  id: 'legacy',
  title: `Family Who Attended ${institutionConfig.partner_name}`,
  description: 'Tell us about family members who studied here, if any.',
  children: [
    {
      kind: 'repeat',
      id: 'legacy',
      title: 'Family Member {n}',
      instances: { kind: 'prefix', prefixes: ['legacy_', 'legacy_2_', 'legacy_3_'] },
      addAnother: { buttonId: 'legacy', label: 'Add Another Family Member' },
      children: [
        {
          kind: 'select',
          key: 'relationship',
          label: 'Relationship to You',
          options: 'legacyRelationships',
        },
        { kind: 'text', key: 'first_name', label: 'First Name' },
        { kind: 'text', key: 'last_name', label: 'Last Name' },
        {
          kind: 'select',
          key: 'grad_year',
          label: 'Graduation Year',
          options: { years: { length: 80, direction: 'descending' } },
        },
      ],
    },
  ],
};

export const aboutPage: Page = {
  id: 'about',
  path: '/about',
  title: 'About You',
  children: [
    personal,
    phoneSection,
    socialSection,
    permanentAddress,
    mailingAddress,
    citizenship,
    demographics,
    parents,
    legacy,
  ],
};
