/**
 * SPEC 5.3 (About You): personal information, phones, birth date, permanent and mailing address.
 * Messages are typed literally from SPEC.md: the test is the oracle for the binding wording.
 */
import { describe, expect, it } from 'vitest';
import { isVisible, isoFromUsDate, storedAnswer } from '../../runtime';
import { applicationDefinition } from '../../definitions';
import { allErrors, errorsOf } from './fixtures';

describe('SPEC 5.3 personal information', () => {
  it.each([
    ['first_name', 'First Name'],
    ['last_name', 'Last Name'],
    ['gender', 'Gender'],
  ])('requires %s with the message "%s"', (key, message) => {
    expect(errorsOf(key, { [key]: '' })).toEqual([message]);
    expect(errorsOf(key, { [key]: undefined })).toEqual([message]);
    expect(errorsOf(key, { [key]: null })).toEqual([message]);
  });

  it('treats the blank option "--" as no gender chosen', () => {
    expect(errorsOf('gender', { gender: '--' })).toEqual(['Gender']);
  });

  it.each([
    ['first_name', 'Sam'],
    ['last_name', 'Ng'],
    ['gender', 'X'],
  ])('accepts any answer for %s', (key, value) => {
    expect(errorsOf(key, { [key]: value })).toEqual([]);
  });
});

describe('SPEC 5.3 phones', () => {
  const HOME = 'Please enter a valid home phone number.';
  const MOBILE = 'Please enter a valid cell phone number.';
  const OPT_IN = 'A cell phone number is required to receive text message updates.';
  const ONE_OF = 'Please enter either a home phone, cell phone or international phone number';

  const validPhones = ['(212) 555-1234', '(200) 000-0000', '(999) 999-9999', '(802) 555-0142'];
  const invalidPhones = [
    '(112) 555-1234', // area code starting 1
    '(012) 555-1234', // area code starting 0
    '212-555-1234',
    '(212)555-1234',
    '(212) 5551234',
    '2125551234',
    '(212) 555-12345',
    '(212) 555-123',
    '(21) 555-1234',
    ' (212) 555-1234',
    '(212) 555-1234 ',
    '(abc) def-ghij',
  ];

  it.each(validPhones)('accepts home phone %j', (value) => {
    expect(errorsOf('phone_home', { phone_home: value })).toEqual([]);
  });

  it.each(invalidPhones)('rejects home phone %j', (value) => {
    expect(errorsOf('phone_home', { phone_home: value })).toEqual([HOME]);
  });

  it.each(validPhones)('accepts cell phone %j', (value) => {
    expect(errorsOf('phone_mobile', { phone_mobile: value })).toEqual([]);
  });

  it.each(invalidPhones)('rejects cell phone %j', (value) => {
    expect(errorsOf('phone_mobile', { phone_mobile: value })).toEqual([MOBILE]);
  });

  it('asks for a cell phone when text updates are wanted and the cell phone is empty', () => {
    const overrides = { optin_sms_ind: true, phone_mobile: '' };
    expect(errorsOf('phone_mobile', overrides)).toEqual([OPT_IN]);
    // the home phone is given: no one-of error either way
    expect(errorsOf('phone_home', overrides)).toEqual([]);
  });

  it('gives only the opt-in error (not the one-of error) when every phone is empty and opt-in is set', () => {
    const overrides = {
      optin_sms_ind: true,
      phone_mobile: '',
      phone_home: '',
      phone_international: '',
    };
    expect(errorsOf('phone_mobile', overrides)).toEqual([OPT_IN]);
    expect(errorsOf('phone_home', overrides)).toEqual([]);
  });

  it('needs no cell phone when text updates are not wanted', () => {
    expect(errorsOf('phone_mobile', { optin_sms_ind: false, phone_mobile: '' })).toEqual([]);
    expect(errorsOf('phone_mobile', { optin_sms_ind: undefined, phone_mobile: '' })).toEqual([]);
  });

  it('accepts opt-in with a cell phone given', () => {
    expect(
      errorsOf('phone_mobile', { optin_sms_ind: true, phone_mobile: '(212) 555-1234' }),
    ).toEqual([]);
  });

  it('puts the one-of error on phone_home when home, cell and international are all empty and opt-in is not set', () => {
    for (const optIn of [false, undefined, '']) {
      const overrides = {
        optin_sms_ind: optIn,
        phone_home: '',
        phone_mobile: '',
        phone_international: '',
      };
      expect(errorsOf('phone_home', overrides)).toEqual([ONE_OF]);
      expect(errorsOf('phone_mobile', overrides)).toEqual([]);
    }
  });

  it('gives no one-of error when only a home phone is given', () => {
    const errors = allErrors({ optin_sms_ind: false, phone_mobile: '', phone_international: '' });
    expect(errors).toEqual({});
  });

  it('gives no one-of error when only a cell phone is given', () => {
    const errors = allErrors({ optin_sms_ind: false, phone_home: '', phone_international: '' });
    expect(errors).toEqual({});
  });

  it('gives no one-of error when only an international phone number is given', () => {
    const errors = allErrors({
      optin_sms_ind: false,
      phone_home: '',
      phone_mobile: '',
      phone_international: '+44 20 7946 0958',
    });
    expect(errors).toEqual({});
  });
});

describe('SPEC 5.3 birth date', () => {
  const REQUIRED = 'Date of Birth';
  const INVALID = 'A valid date of birth is required.';
  const TOO_OLD = 'This date is not supported. Please contact help support for assistance.';
  const TOO_YOUNG = 'You must be 13 years or older to apply.';

  it('is required', () => {
    expect(errorsOf('birth_date', { birth_date: '' })).toEqual([REQUIRED]);
    expect(errorsOf('birth_date', { birth_date: undefined })).toEqual([REQUIRED]);
  });

  it.each([
    '2031-02-30',
    'not a date',
    '2010-13-01',
    '2010-00-10',
    '2010-02-29',
    '2010-4-1',
    '04/12/2008',
    '2010-04-31',
  ])('rejects %j as not a valid date (and reports no window error)', (value) => {
    expect(errorsOf('birth_date', { birth_date: value })).toEqual([INVALID]);
  });

  it('accepts 29 February of a leap year', () => {
    expect(errorsOf('birth_date', { birth_date: '2008-02-29' })).toEqual([]);
  });

  it.each([
    ['1925-12-31', [TOO_OLD]],
    ['1926-01-01', []],
    ['1926-01-02', []],
    ['2013-12-30', []],
    ['2013-12-31', []],
    ['2014-01-01', [TOO_YOUNG]],
    ['2026-06-15', [TOO_YOUNG]],
    ['1900-01-01', [TOO_OLD]],
  ])('with now in 2026, %s gives %j', (value, expected) => {
    expect(errorsOf('birth_date', { birth_date: value })).toEqual(expected);
  });

  it('decides age by birth year, whatever the day of the current year', () => {
    for (const now of [new Date(2026, 0, 1), new Date(2026, 11, 31, 23, 59)]) {
      expect(errorsOf('birth_date', { birth_date: '2013-12-31' }, { now })).toEqual([]);
      expect(errorsOf('birth_date', { birth_date: '2014-01-01' }, { now })).toEqual([TOO_YOUNG]);
      expect(errorsOf('birth_date', { birth_date: '1926-01-01' }, { now })).toEqual([]);
      expect(errorsOf('birth_date', { birth_date: '1925-12-31' }, { now })).toEqual([TOO_OLD]);
    }
  });

  it('moves the window with the current year', () => {
    const now = new Date(2027, 5, 15);
    expect(errorsOf('birth_date', { birth_date: '2014-12-31' }, { now })).toEqual([]);
    expect(errorsOf('birth_date', { birth_date: '2015-01-01' }, { now })).toEqual([TOO_YOUNG]);
    expect(errorsOf('birth_date', { birth_date: '1927-01-01' }, { now })).toEqual([]);
    expect(errorsOf('birth_date', { birth_date: '1926-12-31' }, { now })).toEqual([TOO_OLD]);
  });
});

describe('SPEC 5.3 permanent address', () => {
  it.each([
    ['address_line_1', 'Address'],
    ['city', 'City'],
    ['country', 'Country'],
  ])('requires %s with the message "%s"', (key, message) => {
    expect(errorsOf(key, { [key]: '' })).toEqual([message]);
    expect(errorsOf(key, { [key]: undefined })).toEqual([message]);
  });

  it.each(['USA', 'CAN'])('requires state when the country is %s', (country) => {
    expect(errorsOf('state', { country, state: '' })).toEqual(['State/Province']);
    expect(errorsOf('state', { country, state: '--' })).toEqual(['State/Province']);
  });

  it('accepts a state for Canada', () => {
    expect(errorsOf('state', { country: 'CAN', state: 'Ontario', zip: 'K1A 0B1' })).toEqual([]);
  });

  it.each(['FRA', 'GBR', ''])('hides the state (so no error) when the country is %j', (country) => {
    const answers = { country, state: '' };
    expect(errorsOf('state', answers)).toEqual([]);
    expect(isVisible(applicationDefinition, { country }, 'state')).toBe(false);
  });

  it('requires zip for USA only', () => {
    expect(errorsOf('zip', { country: 'USA', zip: '' })).toEqual(['ZIP/Postal Code']);
    expect(errorsOf('zip', { country: 'CAN', state: 'Ontario', zip: '' })).toEqual([]);
    expect(errorsOf('zip', { country: 'FRA', zip: '' })).toEqual([]);
  });

  it.each([
    ['1234', ['ZIP/Postal Code must be at least 5 characters.']],
    ['1', ['ZIP/Postal Code must be at least 5 characters.']],
    ['12345', []],
    ['12345-6789', []],
  ])('with country USA, zip %j gives %j', (zip, expected) => {
    expect(errorsOf('zip', { country: 'USA', zip })).toEqual(expected);
  });

  it('has no minimum zip length outside the USA', () => {
    expect(errorsOf('zip', { country: 'CAN', state: 'Ontario', zip: '1234' })).toEqual([]);
    expect(errorsOf('zip', { country: 'FRA', zip: '1234' })).toEqual([]);
  });
});

describe('SPEC 5.3 mailing address', () => {
  const SAME = 'Is your mailing address the same as your permanent address?';
  const EFFECTIVE = 'Address Effective Until';

  it('requires the same-as-permanent answer', () => {
    expect(
      errorsOf('mailing_addr_same_as_perm_addr', { mailing_addr_same_as_perm_addr: '' }),
    ).toEqual([SAME]);
    expect(
      errorsOf('mailing_addr_same_as_perm_addr', { mailing_addr_same_as_perm_addr: undefined }),
    ).toEqual([SAME]);
  });

  it('requires the effective date when the answer is N', () => {
    expect(
      errorsOf('mailing_addr_effective_date', {
        mailing_addr_same_as_perm_addr: 'N',
        mailing_addr_effective_date: '',
      }),
    ).toEqual([EFFECTIVE]);
  });

  it.each([
    ['2022-12-31', ['The minimum supported year is 2023']],
    ['2023-01-01', []],
    ['2026-06-15', []],
    ['2030-12-31', []],
    ['2031-01-01', ['The maximum supported year is 2030']],
  ])('with now in 2026, effective date %s gives %j', (date, expected) => {
    const overrides = { mailing_addr_same_as_perm_addr: 'N', mailing_addr_effective_date: date };
    expect(errorsOf('mailing_addr_effective_date', overrides)).toEqual(expected);
  });

  it('names the years of the window of the current year', () => {
    const now = new Date(2030, 0, 1);
    const at = (date: string) =>
      errorsOf(
        'mailing_addr_effective_date',
        { mailing_addr_same_as_perm_addr: 'N', mailing_addr_effective_date: date },
        { now },
      );
    expect(at('2026-12-31')).toEqual(['The minimum supported year is 2027']);
    expect(at('2027-01-01')).toEqual([]);
    expect(at('2034-12-31')).toEqual([]);
    expect(at('2035-01-01')).toEqual(['The maximum supported year is 2034']);
  });

  it('requires none of the mailing address fields other than the effective date', () => {
    const errors = allErrors({
      mailing_addr_same_as_perm_addr: 'N',
      mailing_addr_effective_date: '2027-06-30',
    });
    expect(errors).toEqual({});
  });

  it('gives no mailing errors when the answer is Y, even with a bad hidden effective date', () => {
    const errors = allErrors({
      mailing_addr_same_as_perm_addr: 'Y',
      mailing_addr_effective_date: '1999-01-01',
    });
    expect(errors).toEqual({});
    expect(
      errorsOf('mailing_addr_effective_date', {
        mailing_addr_same_as_perm_addr: 'Y',
        mailing_addr_effective_date: '',
      }),
    ).toEqual([]);
  });
});

describe('SPEC 5.3, 5.7: a date typed that is not one (02/30/2008, half typed)', () => {
  it('gives the question its "valid date" message, and is saved empty', () => {
    for (const typed of ['02/30/2008', '03/1', '13/01/2008']) {
      expect(errorsOf('birth_date', { birth_date: typed })).toEqual([
        'A valid date of birth is required.',
      ]);
      expect(storedAnswer(typed, 'date')).toBe('');
    }
    expect(storedAnswer('2008-03-15', 'date')).toBe('2008-03-15');
    expect(storedAnswer('', 'date')).toBe('');
    // Only a date question's text is dropped: the same text in a text question is saved as typed.
    expect(storedAnswer('02/30/2008', 'text')).toBe('02/30/2008');
    expect(storedAnswer('02/30/2008', undefined)).toBe('02/30/2008');
  });

  it('reads MM/DD/YYYY as ISO only for a real date', () => {
    expect(isoFromUsDate('03/15/2008')).toBe('2008-03-15');
    expect(isoFromUsDate('02/29/2008')).toBe('2008-02-29');
    expect(isoFromUsDate('02/29/2007')).toBeNull();
    expect(isoFromUsDate('02/30/2008')).toBeNull();
    expect(isoFromUsDate('3/15/2008')).toBeNull();
    expect(isoFromUsDate('2008-03-15')).toBeNull();
  });
});
