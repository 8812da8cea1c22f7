/**
 * The password rules (SPEC 5.2; SECURITY.md REQ-ID-5). The same list drives the live checklist on
 * the sign-up and reset cards and the server's check, so both always agree.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** SPEC 5.2's special characters, plus the backslash of the identity service's set. Interior spaces count too. */
export const SPECIAL_CHARACTERS = '~!@#&;:><$%^*_,"`\'|=+.?][(){}/-\\';

export interface PasswordRule {
  readonly id: 'length' | 'uppercase' | 'lowercase' | 'number' | 'special' | 'whitespace';
  /** The requirement item's text (SPEC 5.2). */
  readonly label: string;
  readonly holds: (password: string) => boolean;
}

const hasSpecial = (password: string) => {
  const inner = password.trim();
  for (const char of password) if (SPECIAL_CHARACTERS.includes(char)) return true;
  return inner.includes(' ');
};

export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    id: 'length',
    label: 'is at least 12 characters',
    holds: (p) => p.length >= MIN_PASSWORD_LENGTH,
  },
  {
    id: 'uppercase',
    label: 'contains at least one uppercase letter',
    holds: (p) => /[A-Z]/.test(p),
  },
  {
    id: 'lowercase',
    label: 'contains at least one lowercase letter',
    holds: (p) => /[a-z]/.test(p),
  },
  { id: 'number', label: 'contains at least one number', holds: (p) => /[0-9]/.test(p) },
  { id: 'special', label: 'contains at least one special character', holds: hasSpecial },
  {
    id: 'whitespace',
    label: 'contains no leading or trailing whitespace',
    holds: (p) => p === '' || p.trim() === p,
  },
];

/** SPEC 4.10: each requirement item is inactive (empty password), error or success. */
export type RequirementState = 'inactive' | 'error' | 'success';

export function requirementStates(
  password: string,
): { rule: PasswordRule; state: RequirementState }[] {
  return PASSWORD_RULES.map((rule) => ({
    rule,
    state: password === '' ? 'inactive' : rule.holds(password) ? 'success' : 'error',
  }));
}

/**
 * A rule as a sentence, for an error shown outside the checklist ("Your password must be at least
 * 12 characters."); derived from SPEC 5.2's item, which the checklist keeps as written.
 */
export function passwordRuleSentence(label: string): string {
  const verb = label
    .replace(/^is /, 'must be ')
    .replace(/^contains no /, 'must not contain ')
    .replace(/^contains /, 'must contain ');
  return `Your password ${verb}.`;
}

/** The rules a password breaks, as sentences; empty when it meets them all. Never trims. */
export function passwordProblems(password: string): string[] {
  return PASSWORD_RULES.filter((rule) => !rule.holds(password)).map((rule) =>
    passwordRuleSentence(rule.label),
  );
}
