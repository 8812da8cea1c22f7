import type { ReactNode } from 'react';
import { chromeText } from './chromeText';

/** A link that opens in a new tab (so the application stays open) and says so to screen readers. */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> {chromeText.opensInNewTab}</span>
    </a>
  );
}
