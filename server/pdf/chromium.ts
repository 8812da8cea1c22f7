/**
 * The headless Chromium the server prints with (docx conversion now, the application PDF later):
 * `CHROMIUM_PATH` when set, else a system Chromium, else the one inside the `@sparticuz/chromium` npm
 * package (./bundledChromium.ts), launched with the same arguments. One browser is kept warm and reused; a crashed browser is relaunched and the print retried
 * once. SECURITY.md 3.6 in layers: every page runs in a fresh context with JavaScript disabled, every
 * sub-resource request aborted and every navigation answered 204 (so a meta refresh changes nothing);
 * the browser itself sends all traffic to a proxy that does not exist and resolves no host name, so
 * nothing leaves even if a page-level block were bypassed (docs/decisions/ D62). At most two pages
 * print at once (more wait their turn) and each print has a 30 s limit, past which its context is
 * closed.
 */
import { existsSync } from 'node:fs';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bundledChromium } from './bundledChromium';
import { embeddedFontFile } from './fonts';

const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** SECURITY.md 3.6: the time one print may take. */
export const RENDER_TIMEOUT_MS = 30_000;
/** SECURITY.md 3.6: pages printed at once per process (1–2 per core; the machines have 2). */
export const PRINT_CONCURRENCY = 2;
/**
 * Where the print browser sends every request it makes: a closed loopback port (discard), so a
 * sub-resource that got past the page-level block, or Chromium's own background traffic, goes
 * nowhere. Tests point it at a loopback canary instead.
 */
export const BLACK_HOLE_PROXY = 'http://127.0.0.1:9';

/** A print that ran past its time limit (its page was closed). */
export class RenderTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`printing took longer than ${timeoutMs} ms`);
    this.name = 'RenderTimeoutError';
  }
}

/** `CHROMIUM_PATH=bundled` picks the browser inside `@sparticuz/chromium` even where a system one is. */
export const BUNDLED_CHROMIUM = 'bundled';

export interface ChromiumExecutable {
  readonly kind: 'configured' | 'system' | 'bundled';
  readonly path: string;
  /** Extra environment of the browser process (the bundled one's libraries and fonts). */
  readonly env: Record<string, string>;
}

/** Which Chromium to launch: `CHROMIUM_PATH`, else a system Chromium, else the bundled one. */
export async function chromiumExecutable(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChromiumExecutable> {
  const configured = env.CHROMIUM_PATH;
  if (configured && configured !== BUNDLED_CHROMIUM)
    return { kind: 'configured', path: configured, env: {} };
  const system = configured ? undefined : SYSTEM_CHROMIUMS.find((p) => existsSync(p));
  if (system) return { kind: 'system', path: system, env: {} };
  return { kind: 'bundled', ...(await bundledChromium()) };
}

/**
 * Switches that weaken the isolation between pages, sites or the browser and the system. The print
 * browser renders applicant-controlled HTML and is never launched with any of them; a test reads the
 * launched browser's command line against this list. (`--no-sandbox` is not here: Playwright adds it
 * when running as root, where Chromium's sandbox cannot start; docs/decisions/ D82.)
 */
export const WEAKENING_SWITCHES = [
  '--single-process',
  '--no-zygote',
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--in-process-gpu',
  '--enable-unsafe-swiftshader',
  '--ignore-certificate-errors',
  '--disable-setuid-sandbox',
] as const;

/** Features whose switching off (`--disable-features=…`) weakens site isolation. */
export const ISOLATION_FEATURES = ['IsolateOrigins', 'site-per-process'] as const;

/** The print browser's arguments, the same whichever executable runs. */
export function printBrowserArgs(proxyServer: string): string[] {
  return [
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--proxy-server=${proxyServer}`,
    // Loopback too: Chromium bypasses proxies for it unless told not to.
    '--proxy-bypass-list=<-loopback>',
    // No name resolution in the browser (the proxy, an IP address, is the one way out).
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    '--dns-prefetch-disable',
    '--no-pings',
  ];
}

export interface PrinterOptions {
  /** Pages printed at once (default 2). */
  readonly concurrency?: number;
  /** The proxy every browser request goes to (default: the black hole; tests: a canary). */
  readonly proxyServer?: string;
}

/** A print's page, its context, and the browser they belong to. */
interface PrintPage {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
}

export interface PrintOptions {
  /** Print on a page kept from an earlier print (our own HTML only; D124). */
  readonly reusePage?: boolean;
  /**
   * A tagged (accessible) PDF with an outline of its headings, which screen readers read in order
   * and readers show as bookmarks (the application copy, D197).
   */
  readonly tagged?: boolean;
}

export class ChromiumPrinter {
  private browser: Promise<Browser> | undefined;
  /** Closed for good: a print cut short by the close does not launch another browser. */
  private closed = false;
  private readonly limit: LimitFunction;
  /** Launches (for tests of the crash path). */
  launches = 0;
  /** The executable of the last launch (tests read which kind ran). */
  executable: ChromiumExecutable | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly options: PrinterOptions = {},
  ) {
    this.limit = pLimit(options.concurrency ?? PRINT_CONCURRENCY);
  }

  /** Prints running now. */
  get active(): number {
    return this.limit.activeCount;
  }

  /** Prints waiting for a free page (a caller may answer 503 with Retry-After past some number). */
  get waiting(): number {
    return this.limit.pendingCount;
  }

  private async launch(): Promise<Browser> {
    const executable = await chromiumExecutable(this.env);
    this.launches += 1;
    // Loaded at the first print: the web process and every CLI start without Playwright's second of CPU.
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: executable.path,
      env: { ...process.env, ...executable.env },
      args: printBrowserArgs(this.options.proxyServer ?? BLACK_HOLE_PROXY),
      // Playwright's WebGL fallback; printed pages run no script, so nothing needs it.
      ignoreDefaultArgs: ['--enable-unsafe-swiftshader'],
      headless: true,
      // The process closes the browser in its own bounded shutdown: Playwright's handlers would
      // close it under a running print (which then relaunched it) or exit before the job is handed back.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    this.executable = executable;
    browser.on('disconnected', () => {
      this.browser = undefined;
    });
    return browser;
  }

  private async warmBrowser(): Promise<Browser> {
    if (this.closed) throw new Error('the printer is closed');
    this.browser ??= this.launch().catch((error: unknown) => {
      this.browser = undefined;
      throw error;
    });
    const browser = await this.browser;
    if (!browser.isConnected()) {
      this.browser = undefined;
      return this.warmBrowser();
    }
    return browser;
  }

  /** The warm browser (tests watch its pages, and open an unprotected page as a control). */
  async warm(): Promise<Browser> {
    return this.warmBrowser();
  }

  /** Pages kept for the next print of our own HTML (`reusePage`), at most one per printing slot. */
  private readonly idlePages: PrintPage[] = [];

  /** A page in a new isolated context: no JavaScript, no network, no navigation away. */
  private async openPage(browser: Browser): Promise<PrintPage> {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      offline: true,
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    try {
      await context.route('**/*', (route) => {
        const request = route.request();
        // A navigation answered 204 leaves the page as it is (a meta refresh, a frame's src);
        // the fonts the server embeds are answered from its files (D135); any other request is
        // aborted.
        if (request.isNavigationRequest()) return route.fulfill({ status: 204 });
        const font =
          request.resourceType() === 'font' ? embeddedFontFile(request.url()) : undefined;
        if (font)
          return route.fulfill({
            status: 200,
            contentType: 'font/woff2',
            // Fonts load in CORS mode from the page's opaque origin.
            headers: { 'access-control-allow-origin': '*' },
            body: font,
          });
        return route.abort('blockedbyclient');
      });
      return { browser, context, page: await context.newPage() };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  /** A kept page of this browser that is still open, if any. */
  private takeIdlePage(browser: Browser): PrintPage | undefined {
    for (let kept = this.idlePages.pop(); kept; kept = this.idlePages.pop()) {
      if (kept.browser === browser && !kept.page.isClosed()) return kept;
      void kept.context.close().catch(() => undefined);
    }
    return undefined;
  }

  /**
   * One print on a page in an isolated context: a fresh one closed when done or when time runs out,
   * or with `reuse` a kept one (D124), kept again only after a print that succeeded.
   */
  private async print<T>(
    work: (page: Page) => Promise<T>,
    timeoutMs: number,
    reuse: boolean,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    const attempt = async () => {
      const browser = await this.warmBrowser();
      const held =
        (reuse ? this.takeIdlePage(browser) : undefined) ?? (await this.openPage(browser));
      let timer: NodeJS.Timeout | undefined;
      let keep = false;
      try {
        const left = deadline - Date.now();
        if (left <= 0) throw new RenderTimeoutError(timeoutMs);
        // Past `left` our own timer speaks (RenderTimeoutError), not a Playwright timeout.
        held.page.setDefaultTimeout(left + 1000);
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RenderTimeoutError(timeoutMs)), left);
        });
        const result = await Promise.race([work(held.page), timeout]);
        keep = reuse;
        return result;
      } finally {
        clearTimeout(timer);
        if (keep && browser.isConnected() && !held.page.isClosed()) this.idlePages.push(held);
        // Closing the context closes a page that is still printing.
        else await held.context.close().catch(() => undefined);
      }
    };
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof RenderTimeoutError) throw error;
      // A crashed or closed browser: relaunch once and retry.
      const browser = await this.browser?.catch(() => undefined);
      if (browser?.isConnected()) throw error;
      this.browser = undefined;
      return attempt();
    }
  }

  /**
   * Runs `work` on a page (no JavaScript, no network) once one of the printing slots is free, within
   * `timeoutMs` of starting (waiting for the slot is not counted): a fresh page in a fresh context,
   * or with `reusePage` one kept from an earlier print of the same kind.
   */
  withPage<T>(
    work: (page: Page) => Promise<T>,
    timeoutMs = RENDER_TIMEOUT_MS,
    { reusePage = false }: PrintOptions = {},
  ): Promise<T> {
    return this.limit(() => this.print(work, timeoutMs, reusePage));
  }

  /**
   * Prints HTML (no scripts run, nothing is fetched, the page cannot navigate) to a Letter PDF.
   * `reusePage` only for HTML the server rendered itself (the application PDF), never for a
   * document an applicant sent.
   */
  async htmlToPdf(
    html: string,
    timeoutMs = RENDER_TIMEOUT_MS,
    options: PrintOptions = {},
  ): Promise<Buffer> {
    return this.withPage(
      async (page) => {
        await page.setContent(html, { waitUntil: 'load' });
        if (page.url() !== 'about:blank') throw new Error('the printed document navigated away');
        // Faces found during layout load after the load event; printed before, their text is
        // blank (D135). Playwright evaluates even where the page's JavaScript is disabled.
        // A string: it runs in the page; the server has no DOM types (tsconfig.server.json).
        await page.evaluate('document.fonts.ready.then(() => undefined)');
        return page.pdf({
          format: 'Letter',
          printBackground: true,
          tagged: options.tagged ?? false,
          outline: options.tagged ?? false,
          margin: { top: '0.75in', bottom: '0.75in', left: '0.75in', right: '0.75in' },
        });
      },
      timeoutMs,
      options,
    );
  }

  /** Kills the browser (tests of the restart path). */
  async crashForTest(): Promise<void> {
    const browser = await this.browser?.catch(() => undefined);
    await browser?.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = await this.browser?.catch(() => undefined);
    this.browser = undefined;
    this.idlePages.length = 0;
    await browser?.close();
  }
}
