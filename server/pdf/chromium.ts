/**
 * The headless Chromium the server prints with (docx conversion now, the application PDF later):
 * `CHROMIUM_PATH` when set, else a system Chromium, else the one inside the `@sparticuz/chromium` npm
 * package. One browser is kept warm and reused; a crashed browser is relaunched and the print retried
 * once. Pages run with JavaScript disabled and every network request blocked (SECURITY.md 3.6).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** Which Chromium to launch, and with which extra arguments. */
export async function chromiumExecutable(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ path: string; args: string[] }> {
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, args: [] };
  const system = SYSTEM_CHROMIUMS.find((candidate) => existsSync(candidate));
  if (system) return { path: system, args: [] };
  const bundled = (await import('@sparticuz/chromium')).default;
  return { path: await bundled.executablePath(), args: bundled.args };
}

export class ChromiumPrinter {
  private browser: Promise<Browser> | undefined;
  /** Launches (for tests of the crash path). */
  launches = 0;

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  private async launch(): Promise<Browser> {
    const { path, args } = await chromiumExecutable(this.env);
    this.launches += 1;
    const browser = await chromium.launch({
      executablePath: path,
      args: [...args, '--disable-dev-shm-usage', '--no-first-run'],
      headless: true,
    });
    browser.on('disconnected', () => {
      this.browser = undefined;
    });
    return browser;
  }

  private async warmBrowser(): Promise<Browser> {
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

  /** Runs `work` on a fresh page in an isolated context (no JavaScript, no network). */
  async withPage<T>(work: (page: Page) => Promise<T>): Promise<T> {
    const attempt = async () => {
      const browser = await this.warmBrowser();
      const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
      try {
        await context.route('**/*', (route) => route.abort('blockedbyclient'));
        const page = await context.newPage();
        return await work(page);
      } finally {
        await context.close().catch(() => undefined);
      }
    };
    try {
      return await attempt();
    } catch (error) {
      // A crashed or closed browser: relaunch once and retry.
      const browser = await this.browser?.catch(() => undefined);
      if (browser?.isConnected()) throw error;
      this.browser = undefined;
      return attempt();
    }
  }

  /** Prints trusted-shape HTML (no scripts run, nothing is fetched) to a Letter PDF. */
  async htmlToPdf(html: string, timeoutMs = 30_000): Promise<Buffer> {
    return this.withPage(async (page) => {
      page.setDefaultTimeout(timeoutMs);
      await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
      return page.pdf({
        format: 'Letter',
        printBackground: true,
        margin: { top: '0.75in', bottom: '0.75in', left: '0.75in', right: '0.75in' },
      });
    });
  }

  /** Kills the browser (tests of the restart path). */
  async crashForTest(): Promise<void> {
    const browser = await this.browser?.catch(() => undefined);
    await browser?.close();
  }

  async close(): Promise<void> {
    const browser = await this.browser?.catch(() => undefined);
    this.browser = undefined;
    await browser?.close();
  }
}
