/**
 * The tenant's part of each page (docs/decisions/ D143): its institution file and definition as an
 * inline JSON element the app reads at start (src/tenant/tenantData.ts), and the document's title and
 * description. Dependency-free of Fastify so the Vite dev server inlines the same (vite.config.ts).
 */
import { themeVariables } from '../../definitions/colours';
import { COLOUR_PATTERN } from '../../definitions/config';
import { TENANT_DATA_ELEMENT_ID } from '../../contract/firstLoad';
import { pageDescription } from '../../contract/words';
import type { TenantPageData } from '../../definitions/institutionFile';
import { CSP_NONCE_PLACEHOLDER } from './csp';

/** index.html's placeholders for the tenant's title and description. */
export const APPLICATION_TITLE_PLACEHOLDER = '%APPLICATION_TITLE%';
export const PAGE_DESCRIPTION_PLACEHOLDER = '%PAGE_DESCRIPTION%';

/**
 * JSON inside a script element: `<` is written `\u003c`, so no `</script>` or `<!--` in any text of
 * the file can end the element early. The element is never executed (type application/json); it
 * carries the nonce placeholder like every script of the page.
 */
export function tenantDataElement(data: TenantPageData): string {
  const json = JSON.stringify(data).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${TENANT_DATA_ELEMENT_ID}" nonce="${CSP_NONCE_PLACEHOLDER}">${json}</script>`;
}

/**
 * The tenant's colours as the theme's variables, in the page itself: the boot spinner and the first
 * paint are in the college's colours before any JavaScript runs. The three the institution file
 * gives, and every shade and the focus ring's colour derived from them (definitions/colours.ts;
 * D198), so no shade is the embedded default's. The file's schema admits only `#rrggbb` colours,
 * and what is written is checked again, so nothing else can reach the style.
 */
export function tenantColoursElement(colors: TenantPageData['institution']['config']['colors']) {
  const valid = [colors.primary, colors.secondary, colors.accent].every((colour) =>
    COLOUR_PATTERN.test(colour),
  );
  const rules = valid
    ? Object.entries(themeVariables(colors))
        .filter(([, value]) => COLOUR_PATTERN.test(value))
        .map(([name, value]) => `${name}:${value}`)
    : [];
  // `:root:root`: above the stylesheet's `:root` defaults whatever order they arrive in (the app's
  // CSS is linked by its script, after this element).
  return `<style nonce="${CSP_NONCE_PLACEHOLDER}">:root:root{${rules.join(';')}}</style>`;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** index.html for one tenant: its title, description and data (the nonce is still a placeholder). */
export function tenantPage(html: string, data: TenantPageData): string {
  const { application_title, partner_name } = data.institution.config;
  return html
    .replaceAll(APPLICATION_TITLE_PLACEHOLDER, escapeHtml(application_title))
    .replaceAll(PAGE_DESCRIPTION_PLACEHOLDER, escapeHtml(pageDescription(partner_name)))
    .replace(
      '</head>',
      `  ${tenantColoursElement(data.institution.config.colors)}\n  ${tenantDataElement(data)}\n  </head>`,
    );
}
