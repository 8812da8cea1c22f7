/**
 * SECURITY.md section 7, 7.30 renderer SSRF: hostile answers rendered by the print renderer set
 * (`renderApplicationHtml`) and printed by the server's Chromium printer, the same payloads as raw
 * HTML (as if escaping had failed), and a docx carrying them. A loopback canary HTTP server stands
 * for every target, and the printer's browser is pointed at it as its proxy: whatever the browser
 * would fetch, for 127.0.0.1 or 169.254.169.254 alike, arrives there and nowhere else, so the tests
 * never send traffic off this machine. A control page (scripts on, no blocking) shows the canary
 * does see what gets through.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applicationDefinition } from '../../definitions';
import { renderApplicationHtml } from '../../renderers/print/render';
import { convertToPdf } from '../../server/conversion/convert';
import { ConversionSandbox } from '../../server/conversion/sandbox';
import {
  ChromiumPrinter,
  PRINT_CONCURRENCY,
  RENDER_TIMEOUT_MS,
  RenderTimeoutError,
} from '../../server/pdf/chromium';
import { embeddedFontFaces, FONT_ORIGIN } from '../../server/pdf/fonts';
import { pdfFontNames } from '../fixtures/pdfText';
import {
  docxZip,
  documentXml,
  HYPERLINK_TYPE,
  hyperlinkParagraph,
  paragraph,
  pdfText,
  pdfTexts,
  relationship,
  relationships,
} from './hostileFiles';

/** Chromium's own background calls (updates, sign-in) also go through the proxy; they are not ours. */
const BROWSER_OWN = /^(?:[\w-]+\.)*(?:google|googleapis|gstatic|gvt1)\.com(?::\d+)?$/;

/** A loopback HTTP server that records every request, direct or as a proxy (absolute URL, CONNECT). */
class Canary {
  readonly requests: string[] = [];
  private readonly server = http.createServer((request, response) => {
    this.record(`${request.method} ${request.url}`, request.headers.host ?? '');
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<p>CANARY-BODY</p>');
  });

  constructor() {
    this.server.on('connect', (request: http.IncomingMessage, socket: Socket) => {
      this.record(`CONNECT ${request.url}`, request.url ?? '');
      socket.destroy();
    });
  }

  private record(line: string, host: string) {
    if (!BROWSER_OWN.test(host)) this.requests.push(line);
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

const PASSWD_LINE = readFileSync('/etc/passwd', 'latin1').split('\n')[0] as string;
const squash = (text: string) => text.replace(/\s+/g, '');

const canary = new Canary();
let origin = '';
let printer: ChromiumPrinter;
const sandbox = new ConversionSandbox();

/** The payloads of SECURITY.md 7.30, each aimed at the canary (169.254.169.254 too, via the proxy). */
const payloads = () => [
  `<img src=${origin}/canary/img>`,
  `<iframe src=file:///etc/passwd width=600 height=400></iframe>`,
  `<link rel=stylesheet href=http://169.254.169.254/latest/meta-data/iam/security-credentials/>`,
  `<meta http-equiv=refresh content="0;url=${origin}/canary/refresh">`,
  `<style>@import url(${origin}/canary/import.css); body { background: url(${origin}/canary/bg.png) }</style>`,
  // Written only if the script runs: the literal text has 'SCRIPT' + '-RAN' apart.
  `<script>fetch('${origin}/canary/script'); document.write('SCRIPT' + '-RAN')</script>`,
];

beforeAll(async () => {
  origin = await canary.start();
  printer = new ChromiumPrinter(process.env, { proxyServer: origin });
  await printer.htmlToPdf('<p>warm</p>');
  canary.requests.length = 0;
}, 60_000);

afterAll(async () => {
  await printer?.close();
  await sandbox.close();
  await canary.close();
});

describe('7.30 renderer SSRF', () => {
  it('7.30 the canary sees what gets through: the same payloads on an unprotected page of the same browser', async () => {
    const context = await (await printer.warm()).newContext();
    try {
      const page = await context.newPage();
      await page.setContent(`<p>control</p>${payloads().join('\n')}`, { waitUntil: 'load' });
      await page.waitForTimeout(500);
    } finally {
      await context.close();
    }
    const seen = canary.requests.join('\n');
    expect(seen).toContain('/canary/img');
    expect(seen).toContain('/canary/import.css');
    expect(seen).toContain('/canary/script');
    expect(seen).toContain('169.254.169.254');
    canary.requests.length = 0;
  });

  it('7.30 hostile answers rendered by renderApplicationHtml and printed → literal text, 0 canary requests, no /etc/passwd', async () => {
    const [img, iframe, link, meta, style, script] = payloads() as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const answers = {
      first_name: img,
      middle_name: iframe,
      last_name: link,
      preferred_name: meta,
      hs_name: style,
      hs_city: script,
    };
    const html = renderApplicationHtml({
      definition: applicationDefinition,
      answers,
      now: new Date('2026-11-22T10:00:00Z'),
    });
    // Escaped: none of the payloads is markup in the document.
    for (const payload of Object.values(answers)) expect(html).not.toContain(payload);
    expect(html.match(/<(img|iframe|link|meta http-equiv|script)\b/gi) ?? []).toEqual([]);

    const pdf = await printer.htmlToPdf(html);
    const text = squash(await pdfText(pdf));
    for (const payload of Object.values(answers)) expect(text, payload).toContain(squash(payload));
    expect(text).not.toContain('SCRIPT-RAN');
    expect(text).not.toContain(squash(PASSWD_LINE));
    expect(pdfTexts(pdf).join('').includes(PASSWD_LINE)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(canary.requests).toEqual([]);
  });

  it('7.30 an applicant name built to break out of the header CSS (@import) stays a string', async () => {
    const breakout = `"; } @import url(${origin}/canary/name.css); @page { @top-left { content: "`;
    const html = renderApplicationHtml({
      definition: applicationDefinition,
      answers: { first_name: breakout, last_name: '</style><img src=x>' },
      now: new Date('2026-11-22T10:00:00Z'),
    });
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    const pdf = await printer.htmlToPdf(html);
    expect(squash(await pdfText(pdf))).toContain(squash(breakout));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(canary.requests).toEqual([]);
  });

  it('7.30 the printer alone holds: the payloads as raw HTML (as if escaping failed) fetch nothing, read no file and do not navigate', async () => {
    const raw = `<!doctype html><p>start of document</p>${payloads().join('\n')}<p>end of document</p>`;
    const pdf = await printer.htmlToPdf(raw);
    const text = await pdfText(pdf);
    // The meta refresh did not replace the page: its own text is what was printed.
    expect(text).toContain('start of document');
    expect(text).toContain('end of document');
    expect(text).not.toContain('SCRIPT-RAN');
    expect(text).not.toContain('CANARY-BODY');
    expect(squash(text)).not.toContain(squash(PASSWD_LINE));
    expect(pdfTexts(pdf).join('').includes(PASSWD_LINE)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(canary.requests).toEqual([]);
  });

  it('D135 the font origin answers only the embedded font files, as fonts: any other path or use of it fetches nothing', async () => {
    const faces = embeddedFontFaces('Emoji 😀');
    const hostile = [
      `<style>@font-face { font-family: Probe; src: url(${FONT_ORIGIN}/../../../package.json) format('woff2'); }</style>`,
      `<style>@font-face { font-family: Probe2; src: url(${FONT_ORIGIN}/other.woff2); }</style>`,
      `<img src="${FONT_ORIGIN}/noto-serif-latin-400-normal.woff2">`,
      `<link rel=stylesheet href="${FONT_ORIGIN}/noto-serif-latin-400-normal.woff2">`,
    ].join('');
    const html = `<style>${faces}</style>${hostile}<p style="font-family: Probe, Probe2, 'Noto Emoji'">Emoji 😀</p>`;
    const pdf = await printer.htmlToPdf(html);
    expect(await pdfFontNames(pdf)).toContain('NotoEmoji-Regular');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(canary.requests).toEqual([]);
  });

  it('7.30 a docx carrying the payloads (as text and as links) prints them as text and fetches nothing', async () => {
    const rels = relationships(
      relationship('rId1', HYPERLINK_TYPE, `${origin}/canary/docx-link`, true),
      relationship('rId2', HYPERLINK_TYPE, `javascript:fetch('${origin}/canary/docx-js')`, true),
    );
    const body =
      payloads().map(paragraph).join('') +
      hyperlinkParagraph('rId1', 'a web link') +
      hyperlinkParagraph('rId2', 'a script link');
    const bytes = await docxZip({ document: documentXml(body), documentRels: rels });
    const result = await convertToPdf(bytes, 'essay.docx', printer, { runner: sandbox.run });
    expect(result.ok).toBe(true);
    const pdf = result.ok ? Buffer.from(result.pdf) : Buffer.alloc(0);
    const text = squash(await pdfText(pdf));
    for (const payload of payloads()) expect(text, payload).toContain(squash(payload));
    expect(text).toContain('ascriptlink');
    expect(text).not.toContain('SCRIPT-RAN');
    expect(pdfTexts(pdf).join('\n').toLowerCase()).not.toContain('javascript:');
    expect(pdfTexts(pdf).join('').includes(PASSWD_LINE)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(canary.requests).toEqual([]);
  });

  it('7.30 the browser itself sends nothing out: with its default proxy, even an unprotected page reaches no loopback server', async () => {
    const sealed = new ChromiumPrinter();
    try {
      const context = await (await sealed.warm()).newContext();
      const page = await context.newPage();
      await page.setContent(
        `<img id="i" src="${origin}/canary/sealed-img"><link rel=stylesheet href="${origin}/canary/sealed.css">`,
        { waitUntil: 'load' },
      );
      await page.waitForTimeout(500);
      expect(
        await page.evaluate(() => (document.getElementById('i') as HTMLImageElement).naturalWidth),
      ).toBe(0);
      await context.close();
    } finally {
      await sealed.close();
    }
    expect(canary.requests).toEqual([]);
  });

  it(`7.30 20 concurrent renders → at most ${PRINT_CONCURRENCY} pages open at once, the rest queued, all printed`, async () => {
    expect(PRINT_CONCURRENCY).toBe(2);
    const browser = await printer.warm();
    const cdp = await browser.newBrowserCDPSession();
    const open = new Set<string>();
    let peak = 0;
    cdp.on('Target.targetCreated', ({ targetInfo }) => {
      if (targetInfo.type !== 'page') return;
      open.add(targetInfo.targetId);
      peak = Math.max(peak, open.size);
    });
    cdp.on('Target.targetDestroyed', ({ targetId }) => {
      open.delete(targetId);
    });
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    const html = `<!doctype html><h1>Application</h1>${'<p>Some answer text, printed.</p>'.repeat(40)}`;
    let mostWaiting = 0;
    const sampler = setInterval(() => {
      mostWaiting = Math.max(mostWaiting, printer.waiting);
    }, 5);
    const started = Date.now();
    try {
      const pdfs = await Promise.all(Array.from({ length: 20 }, () => printer.htmlToPdf(html)));
      for (const pdf of pdfs) expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    } finally {
      clearInterval(sampler);
      await cdp.detach();
    }
    console.info(`7.30 20 renders in ${Date.now() - started} ms, at most ${peak} pages at once`);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(PRINT_CONCURRENCY);
    expect(mostWaiting).toBeGreaterThanOrEqual(10);
    expect(printer.active).toBe(0);
    expect(printer.waiting).toBe(0);
    // It asserts the limit, not the speed: ten rounds of two prints on a loaded machine.
  }, 60_000);

  it('7.30 every render has the 30 s limit; one past its limit is stopped and frees its slot', async () => {
    expect(RENDER_TIMEOUT_MS).toBe(30_000);
    const withPage = vi.spyOn(printer, 'withPage');
    try {
      await printer.htmlToPdf('<p>default limit</p>');
      expect(withPage.mock.calls[0]?.[1]).toBe(RENDER_TIMEOUT_MS);
    } finally {
      withPage.mockRestore();
    }
    // A document that takes some 40 s to lay out and print here, given 2 s (page set-up included).
    const heavy = `<!doctype html>${'<p>a slow page of text that goes on and on</p>'.repeat(60_000)}`;
    const started = Date.now();
    await expect(printer.htmlToPdf(heavy, 2000)).rejects.toBeInstanceOf(RenderTimeoutError);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(printer.active).toBe(0);
    // Its page was closed (not left printing in the background), and the browser prints on.
    expect((await printer.warm()).contexts()).toHaveLength(0);
    const pdf = await printer.htmlToPdf('<p>after</p>');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
