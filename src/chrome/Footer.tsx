/** SPEC 1, 2.7: the footer on every page: the institution address, Help and the privacy notice. */
import { HelpDialog } from './HelpDialog';
import { InstitutionAddress } from './InstitutionAddress';
import { PrivacyDialog } from './PrivacyDialog';
import styles from './chrome.module.css';
import { chromeText } from './chromeText';

export function Footer() {
  return (
    <footer className={styles.footer}>
      <address className={styles.footerAddress}>
        <InstitutionAddress />
      </address>
      <div className={styles.footerActions}>
        <HelpDialog>
          <button type="button" className={styles.footerButton}>
            {chromeText.footer.help}
          </button>
        </HelpDialog>
        <PrivacyDialog>
          <button type="button" className={styles.footerButton}>
            {chromeText.footer.privacy}
          </button>
        </PrivacyDialog>
      </div>
    </footer>
  );
}
