import { describe, expect, it } from 'vitest';
import {
  configurationWarnings,
  institutionConfig,
  missingConfigurationMessage,
  parseInstitutionConfig,
} from '../../definitions';

describe('institution configuration (SPEC 9)', () => {
  it('is complete for the embedded institution, with the character limit of 7000', () => {
    expect(configurationWarnings(institutionConfig)).toEqual([]);
    expect(institutionConfig.character_limit).toBe(7000);
  });

  it('warns "WARNING- MISSING CONFIGURATION: <name>" for each missing value', () => {
    const { help_email: _email, links, ...rest } = institutionConfig;
    const { fafsa: _fafsa, ...otherLinks } = links;
    expect(configurationWarnings({ ...rest, links: otherLinks })).toEqual([
      'WARNING- MISSING CONFIGURATION: help_email',
      'WARNING- MISSING CONFIGURATION: links.fafsa',
    ]);
    expect(missingConfigurationMessage('phone')).toBe('WARNING- MISSING CONFIGURATION: phone');
  });

  it('refuses to start with a missing value, naming it', () => {
    expect(() => parseInstitutionConfig({ ...institutionConfig, partner_name: '' })).toThrow(
      'WARNING- MISSING CONFIGURATION: partner_name',
    );
  });

  it('gives the text area limit to every text area of the definition', async () => {
    const { keySpec } = await import('../../runtime');
    const { applicationDefinition } = await import('../../definitions');
    expect(keySpec(applicationDefinition, 'suspended_comment')).toEqual({
      type: 'text',
      maxLength: 7000,
    });
  });
});
