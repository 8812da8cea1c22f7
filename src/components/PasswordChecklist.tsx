/**
 * SPEC 2.5, 4.10: the live password-requirements checklist, on the applicant's sign-up and reset
 * cards and the staff console's join and reset pages. The rules come from `contract/password.ts`
 * (the server checks the same list). Each item shows its state with an icon, a colour and words for
 * screen readers.
 */
import { useId } from 'react';
import { accountMessages, requirementStates } from '../../contract';
import type { RequirementState } from '../../contract';
import { Icon } from '../chrome/Icon';
import type { IconName } from '../chrome/Icon';
import styles from './passwordChecklist.module.css';

export const checklistText = {
  heading: 'Password requirements',
  state: {
    inactive: 'not checked yet',
    error: 'not met',
    success: 'met',
  },
} as const;

export interface PasswordChecklistProps {
  /** The list's id, for the password input's `aria-describedby`. */
  id: string;
  password: string;
  /** The reset card's confirmation: adds the "passwords must match" item. */
  confirmPassword?: string;
}

const ICONS: Record<RequirementState, IconName> = {
  inactive: 'circle',
  error: 'errorCircle',
  success: 'checkCircle',
};

/** The matching item: inactive while both are empty, then success only when they are equal. */
export function matchState(password: string, confirmPassword: string): RequirementState {
  if (password === '' && confirmPassword === '') return 'inactive';
  return password === confirmPassword ? 'success' : 'error';
}

export function PasswordChecklist({ id, password, confirmPassword }: PasswordChecklistProps) {
  const headingId = useId();
  const items: { label: string; state: RequirementState }[] = requirementStates(password).map(
    ({ rule, state }) => ({ label: rule.label, state }),
  );
  if (confirmPassword !== undefined)
    items.push({
      label: accountMessages.passwordsMatch,
      state: matchState(password, confirmPassword),
    });
  return (
    <div className={styles.checklist}>
      <p id={headingId} className={styles.checklistHeading}>
        {checklistText.heading}
      </p>
      <ul id={id} className={styles.checklistItems} aria-labelledby={headingId} aria-live="polite">
        {items.map((item) => (
          <li key={item.label} className={styles.requirement} data-state={item.state}>
            <Icon name={ICONS[item.state]} className={styles.requirementIcon} />
            <span>{item.label}</span>
            <span className="visually-hidden">: {checklistText.state[item.state]}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
