/**
 * The Content-Security-Policy of every response (SECURITY.md ASVS 3.4, D50). Dependency-free so
 * vite.config.ts can share the nonce placeholder.
 *
 * Scripts and styles come from the app's own origin only: no 'unsafe-eval', no 'unsafe-inline'. The
 * one inline thing the app needs is the `<style>` element Radix's scroll lock (react-remove-scroll)
 * inserts while a dialog is open; it carries the per-response nonce of index.html (docs/decisions/
 * D50), so style-src needs no 'unsafe-inline' either.
 */

/** Vite writes this into index.html (html.cspNonce); the server replaces it per response. */
export const CSP_NONCE_PLACEHOLDER = '__CSP_NONCE__';

export type CspDirectives = Record<string, string[]>;

export function cspDirectives(options: { upgradeInsecureRequests: boolean }): CspDirectives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    // The favicon is `data:,`.
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(options.upgradeInsecureRequests ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * A file answered as it is (a PDF) runs nothing: its own CSP sandboxes it. The console's document
 * viewer frames the staff document PDFs, so those alone may be framed by the console's own pages
 * (D174); every other response keeps frame-ancestors 'none' and X-Frame-Options DENY.
 */
export const FILE_CSP = 'sandbox';
export const FRAMABLE_FILE_CSP = `${FILE_CSP}; frame-ancestors 'self'`;
export const FRAMABLE_FILE_FRAME_OPTIONS = 'SAMEORIGIN';

/** The header value, with a nonce added to script-src and style-src when given. */
export function cspHeader(directives: CspDirectives, nonce?: string): string {
  return Object.entries(directives)
    .map(([name, values]) => {
      const all =
        nonce && (name === 'script-src' || name === 'style-src')
          ? [...values, `'nonce-${nonce}'`]
          : values;
      return [name, ...all].join(' ');
    })
    .join('; ');
}
