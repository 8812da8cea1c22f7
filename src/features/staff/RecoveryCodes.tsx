/**
 * The recovery codes, shown once after enrolment: "Copy" puts them on the clipboard (a visible and
 * announced "Copied"), "Download" saves them as a text file named after the college and the account.
 */
import { useState } from 'react';
import { institutionConfig } from '../../tenant/tenantData';
import styles from './staff.module.css';

/** "northfield-college-dean@northfield.edu-recovery-codes.txt": no character a file system refuses. */
export function recoveryFileName(college: string, email: string): string {
  const slug = college
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug}-${email.replace(/[\\/:*?"<>|\s]+/g, '-')}-recovery-codes.txt`;
}

/** The file's text: what the codes are for, then one code a line. */
export function recoveryFileText(college: string, email: string, codes: readonly string[]) {
  return [
    `${college} staff console: recovery codes for ${email}`,
    'Each code signs you in once if your authenticator app is not at hand. Keep them safe.',
    '',
    ...codes,
    '',
  ].join('\n');
}

type CopyState = 'idle' | 'copied' | 'failed';

export function RecoveryCodes({ email, codes }: { email: string; codes: readonly string[] }) {
  const [copy, setCopy] = useState<CopyState>('idle');
  const college = institutionConfig.partner_name;
  const copyCodes = () => {
    // The clipboard exists only in a secure context, and may be refused.
    if (!navigator.clipboard) return setCopy('failed');
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );
  };
  const download = () => {
    const blob = new Blob([recoveryFileText(college, email, codes)], { type: 'text/plain' });
    const url = URL.createObjectURL(blob);
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = recoveryFileName(college, email);
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <>
      <ul className={styles.codes} data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className={styles.bar}>
        <button type="button" className={styles.secondary} onClick={copyCodes}>
          Copy
        </button>
        <button type="button" className={styles.secondary} onClick={download}>
          Download
        </button>
        <p role="status" className={styles.copied}>
          {copy === 'copied'
            ? 'Copied'
            : copy === 'failed'
              ? 'Could not copy: select the codes and copy them, or download them.'
              : ''}
        </p>
      </div>
    </>
  );
}
