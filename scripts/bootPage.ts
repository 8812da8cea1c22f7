/**
 * The parts of index.html that paint and start work before the app's JavaScript arrives (D84),
 * filled in from their one source at build time: the loading text of the spinner (SPEC 2.2) and the
 * early requests of a logged-in page (src/boot/earlyRequests.ts). The server adds the CSP nonce to the inline
 * script, as to every script Vite writes (html.cspNonce).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { chromeText } from '../src/chrome/chromeText.ts';
import { earlyRequestsScript } from '../src/boot/earlyRequests.ts';

export const LOADING_TEXT_PLACEHOLDER = '%LOADING_TEXT%';

/**
 * The loading state paints before the app's stylesheet has arrived, so each theme variable its inline
 * style uses gets the theme's own value as a fallback, read from the theme's stylesheet.
 */
function withThemeFallbacks(html: string): string {
  const theme = readFileSync(
    fileURLToPath(new URL('../src/styles/theme.css', import.meta.url)),
    'utf8',
  );
  return html.replace(/var\((--[\w-]+)\)/g, (whole, name: string) => {
    const value = new RegExp(`${name}:\\s*([^;]+);`).exec(theme)?.[1]?.trim();
    if (!value)
      throw new Error(`index.html uses ${name}, which src/styles/theme.css does not define`);
    return `var(${name}, ${value})`;
  });
}

/** Vite's stylesheet links, which it writes into the head. */
const STYLESHEET_LINK = /\s*<link rel="stylesheet"[^>]*>/g;

export function bootPage(): Plugin[] {
  return [
    {
      name: 'admission-boot-page',
      transformIndexHtml: {
        order: 'pre',
        handler: (html) => ({
          html: withThemeFallbacks(html.replaceAll(LOADING_TEXT_PLACEHOLDER, chromeText.loading)),
          tags: [{ tag: 'script', children: earlyRequestsScript(), injectTo: 'head' }],
        }),
      },
    },
    {
      // The app's stylesheet moves to the end of the body: there it no longer holds back the first
      // paint of the loading state (styled inline), while the app's module script, which runs only
      // after the stylesheets before it have loaded, still never renders unstyled.
      name: 'admission-boot-page-stylesheets',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler: (html) => {
          const links = html.match(STYLESHEET_LINK) ?? [];
          if (links.length === 0) return html;
          return html
            .replace(STYLESHEET_LINK, '')
            .replace('</body>', `${links.map((l) => l.trim()).join('\n    ')}\n  </body>`);
        },
      },
    },
  ];
}
