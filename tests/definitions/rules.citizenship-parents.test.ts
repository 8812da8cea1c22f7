/**
 * SPEC 5.3 (About You): citizenship and parents. Messages typed literally from SPEC.md.
 */
import { describe, expect, it } from 'vitest';
import { errorsOf } from './fixtures';

describe('SPEC 5.3 citizenship', () => {
  const SSN = 'Please provide a valid Social Security number.';
  const BIRTH_COUNTRY = 'What is your country of birth?';
  const CITIZENSHIP = 'What is your country of citizenship?';
  const VISA = 'What is your anticipated visa type?';
  const ALIEN = 'Alien Registration Number';

  const emptyDetails = {
    ssn: '',
    birth_country: '',
    citizenship: '',
    citizenship_visa_status: '',
    alien_registration_number: '',
  };

  it('requires the citizen type', () => {
    expect(errorsOf('citizenship_type', { citizenship_type: '' })).toEqual(['Citizen Type']);
    expect(errorsOf('citizenship_type', { citizenship_type: undefined })).toEqual(['Citizen Type']);
  });

  describe('SSN (validated for citizen types 1 and 2)', () => {
    it.each(['1', '2'])('accepts "123-45-6789" and an empty SSN for type %s', (type) => {
      const base = {
        citizenship_type: type,
        birth_country: 'USA',
        alien_registration_number: 'A123456789',
      };
      expect(errorsOf('ssn', { ...base, ssn: '123-45-6789' })).toEqual([]);
      expect(errorsOf('ssn', { ...base, ssn: '' })).toEqual([]);
      expect(errorsOf('ssn', { ...base, ssn: undefined })).toEqual([]);
    });

    it.each([
      '123456789',
      '123-45-678',
      '123-45-67890',
      '12-345-6789',
      '000-12-3456',
      '666-12-3456',
      '900-12-3456',
      '999-12-3456',
      '123-00-4567',
      '123-45-0000',
      'abc-de-fghi',
      ' 123-45-6789',
    ])('rejects %j', (ssn) => {
      expect(errorsOf('ssn', { citizenship_type: '1', ssn })).toEqual([SSN]);
    });

    it('rejects a bad SSN for citizen type 2 too', () => {
      expect(
        errorsOf('ssn', {
          citizenship_type: '2',
          ssn: '123456789',
          birth_country: 'MEX',
          alien_registration_number: 'A123456789',
        }),
      ).toEqual([SSN]);
    });
  });

  it('requires none of birth country, citizenship, visa status and alien number for type 1', () => {
    const overrides = { citizenship_type: '1', ...emptyDetails };
    for (const key of [
      'birth_country',
      'citizenship',
      'citizenship_visa_status',
      'alien_registration_number',
    ]) {
      expect(errorsOf(key, overrides)).toEqual([]);
    }
  });

  it('requires birth country and alien registration number (only) for type 2', () => {
    const overrides = { citizenship_type: '2', ...emptyDetails };
    expect(errorsOf('birth_country', overrides)).toEqual([BIRTH_COUNTRY]);
    expect(errorsOf('alien_registration_number', overrides)).toEqual([ALIEN]);
    expect(errorsOf('citizenship', overrides)).toEqual([]);
    expect(errorsOf('citizenship_visa_status', overrides)).toEqual([]);
  });

  it('accepts type 2 with birth country and alien registration number given', () => {
    const overrides = {
      citizenship_type: '2',
      ...emptyDetails,
      birth_country: 'MEX',
      alien_registration_number: 'A123456789',
    };
    expect(errorsOf('birth_country', overrides)).toEqual([]);
    expect(errorsOf('alien_registration_number', overrides)).toEqual([]);
  });

  it('requires birth country, citizenship and visa status (not the alien number) for type 3', () => {
    const overrides = { citizenship_type: '3', ...emptyDetails };
    expect(errorsOf('birth_country', overrides)).toEqual([BIRTH_COUNTRY]);
    expect(errorsOf('citizenship', overrides)).toEqual([CITIZENSHIP]);
    expect(errorsOf('citizenship_visa_status', overrides)).toEqual([VISA]);
    expect(errorsOf('alien_registration_number', overrides)).toEqual([]);
  });

  it('treats the blank option "--" as not chosen for type 3 selects', () => {
    const overrides = {
      citizenship_type: '3',
      birth_country: '--',
      citizenship: '--',
      citizenship_visa_status: '--',
    };
    expect(errorsOf('birth_country', overrides)).toEqual([BIRTH_COUNTRY]);
    expect(errorsOf('citizenship', overrides)).toEqual([CITIZENSHIP]);
    expect(errorsOf('citizenship_visa_status', overrides)).toEqual([VISA]);
  });

  it('accepts type 3 with birth country, citizenship and visa status given', () => {
    const overrides = {
      citizenship_type: '3',
      ...emptyDetails,
      birth_country: 'FRA',
      citizenship: 'FRA',
      citizenship_visa_status: 'F1',
    };
    for (const key of ['birth_country', 'citizenship', 'citizenship_visa_status']) {
      expect(errorsOf(key, overrides)).toEqual([]);
    }
  });

  it('requires none of the details while no citizen type is chosen', () => {
    const overrides = { citizenship_type: '', ...emptyDetails };
    for (const key of [
      'birth_country',
      'citizenship',
      'citizenship_visa_status',
      'alien_registration_number',
    ]) {
      expect(errorsOf(key, overrides)).toEqual([]);
    }
  });
});

describe('SPEC 5.3 parents', () => {
  const EMAIL_1 = 'Parent or Legal Guardian 1: Please enter a valid email address';
  const EMAIL_2 = 'Parent or Legal Guardian 2: Please enter a valid email address.';
  const PHONE_1 = 'Parent or Legal Guardian 1: Please enter a valid phone number.';
  const PHONE_2 = 'Parent or Legal Guardian 2: Please enter a valid phone number.';

  const badEmails = [
    'not-an-email',
    'morgan@',
    '@example.com',
    'morgan@example',
    'morgan example@example.com',
  ];
  const goodEmails = ['morgan.lopez@example.com', 'm+tag@mail.example.org'];

  it.each(badEmails)('rejects parent 1 email %j with the slot 1 message', (value) => {
    expect(errorsOf('parent_email_address', { parent_email_address: value })).toEqual([EMAIL_1]);
  });

  it.each([...goodEmails, ''])('accepts parent 1 email %j', (value) => {
    expect(errorsOf('parent_email_address', { parent_email_address: value })).toEqual([]);
  });

  it.each(badEmails)(
    'rejects parent 2 email %j with the slot 2 message when slot 2 is added',
    (value) => {
      const errors = errorsOf(
        'parent_2_email_address',
        { parent_2_email_address: value },
        { addAnother: { parent: 2 } },
      );
      expect(errors).toEqual([EMAIL_2]);
    },
  );

  it('validates slot 2 when it holds answers, even without the add-another state', () => {
    expect(errorsOf('parent_2_email_address', { parent_2_email_address: 'not-an-email' })).toEqual([
      EMAIL_2,
    ]);
    expect(
      errorsOf('parent_2_email_address', {
        parent_2_first_name: 'Chris',
        parent_2_email_address: 'x@y',
      }),
    ).toEqual([EMAIL_2]);
  });

  it.each([...goodEmails, ''])('accepts parent 2 email %j', (value) => {
    expect(
      errorsOf(
        'parent_2_email_address',
        { parent_2_email_address: value },
        { addAnother: { parent: 2 } },
      ),
    ).toEqual([]);
  });

  it.each(['(112) 555-1234', '212-555-1234', '2125551234'])(
    'rejects parent phones %j per slot',
    (value) => {
      expect(errorsOf('parent_phone', { parent_phone: value })).toEqual([PHONE_1]);
      expect(
        errorsOf('parent_2_phone', { parent_2_phone: value }, { addAnother: { parent: 2 } }),
      ).toEqual([PHONE_2]);
    },
  );

  it.each(['(212) 555-1234', ''])('accepts parent phones %j in both slots', (value) => {
    expect(errorsOf('parent_phone', { parent_phone: value })).toEqual([]);
    expect(
      errorsOf('parent_2_phone', { parent_2_phone: value }, { addAnother: { parent: 2 } }),
    ).toEqual([]);
  });

  it('keeps each slot on its own key and message when both are wrong', () => {
    const overrides = {
      parent_email_address: 'bad',
      parent_2_email_address: 'bad',
      parent_phone: '555-1234',
      parent_2_phone: '555-1234',
    };
    expect(errorsOf('parent_email_address', overrides)).toEqual([EMAIL_1]);
    expect(errorsOf('parent_2_email_address', overrides)).toEqual([EMAIL_2]);
    expect(errorsOf('parent_phone', overrides)).toEqual([PHONE_1]);
    expect(errorsOf('parent_2_phone', overrides)).toEqual([PHONE_2]);
  });
});
