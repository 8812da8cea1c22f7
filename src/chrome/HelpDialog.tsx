/** SPEC 2.7: the Help modal. */
import type { ReactElement } from 'react';
import { institutionConfig } from '../tenant/tenantData';
import { ChromeDialog, type TriggerProps } from './ChromeDialog';
import styles from './chrome.module.css';
import { chromeText } from './chromeText';
import { ExternalLink } from './ExternalLink';
import { InstitutionAddress } from './InstitutionAddress';

const text = chromeText.help;

/** The help e-mail link: its subject names the institution's application (URL-encoded). */
export function helpMailto(): string {
  const { help_email, partner_name } = institutionConfig;
  return `mailto:${help_email}?subject=${encodeURIComponent(text.subject(partner_name))}`;
}

/** `children` is the button that opens the dialog. */
export function HelpDialog({ children }: { children: ReactElement<TriggerProps> }) {
  const { help_email, phone, partner_name, links } = institutionConfig;
  return (
    <ChromeDialog title={text.title} trigger={children}>
      <p>
        {text.assistance} <a href={helpMailto()}>{help_email}</a>
      </p>
      <p>
        {text.pdfReaderIntro}{' '}
        <ExternalLink href={links.pdf_reader}>{text.pdfReaderLink}</ExternalLink>
      </p>
      <h3 className={styles.dialogSubheading}>{text.contactUs}</h3>
      <p>
        {text.office}
        <br />
        {partner_name}
        <br />
        <InstitutionAddress withName={false} />
        <br />
        {text.phone} <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
      </p>
    </ChromeDialog>
  );
}
