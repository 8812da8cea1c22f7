/** SPEC 2.7: the Privacy Policy and Cookie Notice modal. */
import type { ReactElement } from 'react';
import { institutionConfig } from '../tenant/tenantData';
import { ChromeDialog, type TriggerProps } from './ChromeDialog';
import styles from './chrome.module.css';
import { chromeText } from './chromeText';
import { ExternalLink } from './ExternalLink';

const text = chromeText.privacy;

/** `children` is the button that opens the dialog. */
export function PrivacyDialog({ children }: { children: ReactElement<TriggerProps> }) {
  const { partner_name, privacy_policy_url } = institutionConfig;
  return (
    <ChromeDialog title={text.title} trigger={children}>
      <h3 className={styles.dialogSubheading}>{text.cookieHeading}</h3>
      {text.cookieText.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <h3 className={styles.dialogSubheading}>{text.browserHeading}</h3>
      <p>{text.browserIntro}</p>
      <ul className={styles.linkList}>
        {text.browsers.map((browser) => (
          <li key={browser.name}>
            <ExternalLink href={browser.url}>{browser.name}</ExternalLink>
          </li>
        ))}
      </ul>
      <h3 className={styles.dialogSubheading}>{text.policyHeading}</h3>
      <p>
        {text.policyIntro} <ExternalLink href={privacy_policy_url}>{text.policyLink}</ExternalLink>.
      </p>
      <p className={styles.copyright}>{text.copyright(new Date().getFullYear(), partner_name)}</p>
    </ChromeDialog>
  );
}
