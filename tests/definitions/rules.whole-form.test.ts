/**
 * SPEC 5.1 over the institution's whole form: a valid application has zero errors; all errors are
 * collected at once, duplicates removed, grouped per key and per page.
 */
import { describe, expect, it } from 'vitest';
import { answerProblems, canSubmit, loadDefinition, validateAnswers } from '../../runtime';
import { applicationDefinition } from '../../definitions';
import { NOW, validApplication, withAnswers } from './fixtures';

describe('a fully valid application', () => {
  it('has no errors at all', () => {
    const result = validateAnswers(applicationDefinition, validApplication, { now: NOW });
    expect(result.errors).toEqual({});
    expect(result.byPage).toEqual({});
    expect(canSubmit(applicationDefinition, validApplication, { now: NOW })).toBe(true);
  });

  it('is a well-formed answer map for the data model', () => {
    expect(answerProblems(applicationDefinition, validApplication)).toEqual([]);
  });

  it('stays valid with every add-another group and tab shown', () => {
    const result = validateAnswers(applicationDefinition, validApplication, {
      now: NOW,
      addAnother: { parent: 2, legacy: 3, college: 3, activity: 4, honors: 4 },
      tabs: { transcript: 'counselor' },
    });
    expect(result.errors).toEqual({});
  });
});

describe('errors grouped per page', () => {
  it('groups errors under the page ids about, education and final-steps', () => {
    const answers = withAnswers({ first_name: '', hs_name: '', legal_agree: false });
    const result = validateAnswers(applicationDefinition, answers, { now: NOW });
    expect(result.errors).toEqual({
      first_name: ['First Name'],
      hs_name: ['Search for Your School'],
      legal_agree: [
        'I certify that the information on this application is complete and correct to the best of my knowledge.',
      ],
    });
    expect(result.byPage).toEqual({
      about: { first_name: ['First Name'] },
      education: { hs_name: ['Search for Your School'] },
      'final-steps': {
        legal_agree: [
          'I certify that the information on this application is complete and correct to the best of my knowledge.',
        ],
      },
    });
    expect(canSubmit(applicationDefinition, answers, { now: NOW })).toBe(false);
  });

  it('leaves out pages without errors', () => {
    const result = validateAnswers(applicationDefinition, withAnswers({ entry_term: '' }), {
      now: NOW,
    });
    expect(Object.keys(result.byPage)).toEqual(['education']);
  });
});

describe('all errors collected at once', () => {
  it('reports every required answer of all three pages for an empty answer map', () => {
    const result = validateAnswers(applicationDefinition, {}, { now: NOW });
    const about = {
      first_name: ['First Name'],
      last_name: ['Last Name'],
      birth_date: ['Date of Birth'],
      gender: ['Gender'],
      phone_home: ['Please enter either a home phone, cell phone or international phone number'],
      country: ['Country'],
      address_line_1: ['Address'],
      city: ['City'],
      mailing_addr_same_as_perm_addr: [
        'Is your mailing address the same as your permanent address?',
      ],
      citizenship_type: ['Citizen Type'],
    };
    const education = {
      entry_term: ['When do you plan to enroll?'],
      hs_name: ['Search for Your School'],
    };
    const finalSteps = {
      conviction: ['Have you been convicted of a felony?'],
      suspended: ['Have you been suspended from any school?'],
      counselor_waiver_request: [
        'Do you waive your right to review the recommendation your school counselor submits on your behalf?',
      ],
      legal_agree: [
        'I certify that the information on this application is complete and correct to the best of my knowledge.',
      ],
    };
    expect(result.byPage).toEqual({ about, education, 'final-steps': finalSteps });
    expect(result.errors).toEqual({ ...about, ...education, ...finalSteps });
  });

  it('collects format and conditional errors of many questions in one pass', () => {
    const answers = withAnswers({
      phone_home: '(112) 555-1234',
      phone_mobile: '',
      optin_sms_ind: true,
      birth_date: '2014-01-01',
      zip: '1234',
      mailing_addr_same_as_perm_addr: 'N',
      mailing_addr_effective_date: '2031-01-01',
      citizenship_type: '2',
      ssn: '666-12-3456',
      birth_country: '',
      alien_registration_number: '',
      parent_email_address: 'bad',
      counselor_email_address: 'bad',
      act_score_composite: '37',
      sat_score_math: '575',
      clt_score: '121',
      conviction: 'Y',
      conviction_comment: '',
    });
    const result = validateAnswers(applicationDefinition, answers, { now: NOW });
    expect(result.byPage).toEqual({
      about: {
        phone_home: ['Please enter a valid home phone number.'],
        phone_mobile: ['A cell phone number is required to receive text message updates.'],
        birth_date: ['You must be 13 years or older to apply.'],
        zip: ['ZIP/Postal Code must be at least 5 characters.'],
        mailing_addr_effective_date: ['The maximum supported year is 2030'],
        ssn: ['Please provide a valid Social Security number.'],
        birth_country: ['What is your country of birth?'],
        alien_registration_number: ['Alien Registration Number'],
        parent_email_address: ['Parent or Legal Guardian 1: Please enter a valid email address'],
      },
      education: {
        counselor_email_address: ['The counselor email address is invalid.'],
        act_score_composite: [
          'Please provide a valid ACT Composite Score. The score must be between 1 and 36.',
        ],
        sat_score_math: [
          'Please provide a valid SAT Math Score. The score must be between 200 and 800 in an increment of 10 (e.g., 570).',
        ],
        clt_score: ['Please provide a valid CLT Score. The score must be between 0 to 120.'],
      },
      'final-steps': {
        conviction_comment: [
          'You answered that you have been convicted of a felony. Please explain.',
        ],
      },
    });
  });

  it('never repeats a message under one key', () => {
    const garbage = withAnswers({
      first_name: '',
      phone_home: 'x',
      phone_mobile: 'y',
      birth_date: 'z',
      zip: '1',
      ssn: 'w',
      act_score_englih: 'v',
      legal_agree: 'no',
    });
    for (const answers of [{}, garbage]) {
      const { errors } = validateAnswers(applicationDefinition, answers, { now: NOW });
      for (const messages of Object.values(errors)) {
        expect(new Set(messages).size).toBe(messages.length);
      }
    }
  });

  it('removes duplicate messages when two rules of one question give the same text', () => {
    const definition = loadDefinition({
      id: 'dedupe',
      title: 'Dedupe',
      version: 1,
      defaultRoute: '/p',
      optionLists: {},
      pages: [
        {
          id: 'p',
          path: '/p',
          title: 'P',
          children: [
            {
              kind: 'text',
              key: 'code',
              label: 'Code',
              rules: [
                { kind: 'pattern', pattern: '^[A-Z]+$', message: 'Enter a valid code.' },
                { kind: 'minLength', min: 5, message: 'Enter a valid code.' },
              ],
            },
          ],
        },
      ],
    });
    const result = validateAnswers(definition, { code: 'ab' }, { now: NOW });
    expect(result.errors).toEqual({ code: ['Enter a valid code.'] });
    expect(result.byPage).toEqual({ p: { code: ['Enter a valid code.'] } });
  });
});
