/** D77 (revising D25): the errors the questions show before and after the first submit. */
import { describe, expect, it } from 'vitest';
import { validateAnswers } from '../../runtime';
import { applicationDefinition } from '../../definitions';
import { errorsToShow } from '../../src/features/application/shownErrors';

const found = validateAnswers(applicationDefinition, {}, {}).errors;

describe('errorsToShow', () => {
  it('finds errors on every page of an empty application (what must not all show at once)', () => {
    expect(found.first_name).toEqual(['First Name']);
    expect(found.entry_term).toEqual(['When do you plan to enroll?']);
  });

  it('before the first submit shows only the errors of the page being left', () => {
    const shown = errorsToShow(applicationDefinition, found, {
      webStatus: 'started',
      shown: {},
      pageId: 'about',
    });
    expect(shown.first_name).toEqual(['First Name']);
    expect(shown.entry_term).toBeUndefined();
    expect(shown.hs_name).toBeUndefined();
  });

  it('keeps errors already shown until fixed, and adds none while typing', () => {
    const shownBefore = { first_name: ['First Name'], last_name: ['Last Name'] };
    const { first_name: _fixed, ...rest } = found;
    const shown = errorsToShow(applicationDefinition, rest, {
      webStatus: 'started',
      shown: shownBefore,
    });
    expect(shown).toEqual({ last_name: ['Last Name'] });
  });

  it('shows the error of a question left with an answer at once, and no other (D149)', () => {
    const answers = { parent_email_address: 'dwhitfield@example', parent_phone: '802555987' };
    const errors = validateAnswers(applicationDefinition, answers, {}).errors;
    const shown = errorsToShow(applicationDefinition, errors, {
      webStatus: 'started',
      shown: {},
      left: 'parent_email_address',
    });
    expect(shown).toEqual({
      parent_email_address: ['Parent or Legal Guardian 1: Please enter a valid email address'],
    });
    expect(errors.parent_phone).toEqual([
      'Parent or Legal Guardian 1: Please enter a valid phone number.',
    ]);
  });

  it('shows every error while validating (SPEC 2.3, 4.1)', () => {
    expect(errorsToShow(applicationDefinition, found, { webStatus: 'validating', shown: {} })).toBe(
      found,
    );
  });
});
