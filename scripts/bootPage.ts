/**
 * The parts of index.html that paint and start work before the app's JavaScript arrives (issue 14),
 * filled in from their one source at build time: the loading text of the spinner (SPEC 2.2) and the
 * early profile request (src/boot/earlyProfile.ts). The server adds the CSP nonce to the inline
 * script, as to every script Vite writes (html.cspNonce).
 */
import type { Plugin } from 'vite';
import { chromeText } from '../src/chrome/chromeText.ts';
import { earlyProfileScript } from '../src/boot/earlyProfile.ts';

export const LOADING_TEXT_PLACEHOLDER = '%LOADING_TEXT%';

export function bootPage(): Plugin {
  return {
    name: 'admission-boot-page',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => ({
        html: html.replaceAll(LOADING_TEXT_PLACEHOLDER, chromeText.loading),
        tags: [{ tag: 'script', children: earlyProfileScript(), injectTo: 'head' }],
      }),
    },
  };
}
