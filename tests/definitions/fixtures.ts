/**
 * Shared fixtures for the definition tests: a fixed clock and one complete, valid application.
 */
import { validateAnswers, validateField, type ValidateOptions } from '../../runtime';
import { applicationDefinition } from '../../definitions';

/** 15 June 2026, local time: currentYear is 2026 in every date rule. */
export const NOW = new Date(2026, 5, 15);

/** A complete application that passes every rule of the institution's definition. */
export const validApplication: Readonly<Record<string, unknown>> = Object.freeze({
  // About You: personal information
  first_name: 'Avery',
  middle_name: 'Jordan',
  last_name: 'Lopez',
  email_address: 'avery.lopez@example.com',
  birth_date: '2008-04-12',
  gender: 'F',
  gender_desc: 'Female',
  // phones
  phone_home: '(802) 555-0142',
  phone_mobile: '(212) 555-1234',
  optin_sms_ind: true,
  guardian_optin_sms_ind: false,
  // permanent address
  country: 'USA',
  country_desc: 'United States',
  address_line_1: '12 Elm Street',
  city: 'Burlington',
  state: 'Vermont',
  state_desc: 'Vermont',
  zip: '05401',
  mailing_addr_same_as_perm_addr: 'Y',
  mailing_addr_same_as_perm_addr_desc: 'Yes',
  // citizenship
  citizenship_type: '1',
  citizenship_type_desc: 'U.S. Citizen',
  ssn: '123-45-6789',
  // parents
  parent_relationship: 'MOTHER',
  parent_relationship_desc: 'Mother',
  parent_first_name: 'Morgan',
  parent_last_name: 'Lopez',
  parent_email_address: 'morgan.lopez@example.com',
  parent_phone: '(802) 555-0199',
  parent_addr_same_as_perm_addr: true,
  // Your Education
  entry_term: 'FA2027',
  entry_term_desc: 'Fall 2027',
  hs_name: 'Northfield Regional High School',
  hs_city: 'Northfield',
  hs_country: 'USA',
  hs_state: 'Vermont',
  counselor_first_name: 'Dana',
  counselor_last_name: 'Reyes',
  counselor_email_address: 'dana.reyes@example.org',
  act_taken: 'Y',
  act_taken_desc: 'I have taken the ACT',
  act_score_englih: '30',
  act_score_math: '28',
  act_score_reading: '31',
  act_score_science: '27',
  act_score_composite: '29',
  sat_taken: 'Y',
  sat_taken_desc: 'I have taken the SAT',
  sat_score_reading_writing: '650',
  sat_score_math: '640',
  sat_score_composite: '1290',
  clt_taken: 'Y',
  clt_taken_desc: 'I have taken the CLT',
  clt_score: '96',
  // Final Steps
  conviction: 'N',
  conviction_desc: 'No',
  suspended: 'N',
  suspended_desc: 'No',
  counselor_waiver_request: 'Y',
  counselor_waiver_request_desc: 'Yes, I waive my right to review it',
  legal_agree: true,
});

/** The valid application with some answers replaced (a value of `undefined` removes the key). */
export function withAnswers(overrides: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const answers: Record<string, unknown> = { ...validApplication };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete answers[key];
    else answers[key] = value;
  }
  return answers;
}

/**
 * The errors of one key when the valid application is changed by `overrides`, read from the full
 * validation. It must agree with `validateField` for the same key.
 */
export function errorsOf(
  key: string,
  overrides: Readonly<Record<string, unknown>>,
  options: ValidateOptions = {},
): string[] {
  const answers = withAnswers(overrides);
  const opts = { now: NOW, ...options };
  const full = validateAnswers(applicationDefinition, answers, opts).errors[key] ?? [];
  const single = validateField(applicationDefinition, answers, key, opts);
  if (JSON.stringify(full) !== JSON.stringify(single)) {
    throw new Error(
      `validateAnswers and validateField disagree on ${key}: ${JSON.stringify(full)} vs ${JSON.stringify(single)}`,
    );
  }
  return full;
}

/** Every error of the valid application changed by `overrides`. */
export function allErrors(
  overrides: Readonly<Record<string, unknown>>,
  options: ValidateOptions = {},
): Record<string, string[]> {
  return validateAnswers(applicationDefinition, withAnswers(overrides), { now: NOW, ...options })
    .errors;
}
