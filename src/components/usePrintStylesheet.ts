/**
 * Applies the print set's stylesheet (a string, the same the PDF inlines) to the document as a
 * constructed stylesheet. A `<style>` element would be refused by the strict Content-Security-Policy
 * (no 'unsafe-inline' styles, docs/decisions/ D50); the CSSOM is not subject to it.
 */
import { useLayoutEffect } from 'react';
import { PRINT_STYLESHEET } from '#renderers/print/stylesheet.ts';

let sheet: CSSStyleSheet | null = null;

export function usePrintStylesheet(): void {
  useLayoutEffect(() => {
    // Constructed stylesheets: every current browser (Safari since 16.4); an older one shows the
    // view unstyled rather than failing.
    if (!('adoptedStyleSheets' in document)) return;
    sheet ??= new CSSStyleSheet();
    sheet.replaceSync(PRINT_STYLESHEET);
    const own = sheet;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, own];
    return () => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== own);
    };
  }, []);
}
