/**
 * SECURITY.md 3.6 and 7.30, D82: the print browser runs with the same hardened command line
 * whichever Chromium it is. Runs in the default project (Debian's Chromium where installed) and in
 * the `bundled-chromium` project (`CHROMIUM_PATH=bundled`, the one inside @sparticuz/chromium), and
 * reads the command lines of the processes really launched, not the options we passed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BUNDLED_CHROMIUM,
  chromiumExecutable,
  ChromiumPrinter,
  ISOLATION_FEATURES,
  PRINT_CONCURRENCY,
  WEAKENING_SWITCHES,
} from '../../server/pdf/chromium';
import { pdfPagesText } from '../fixtures/pdfText';

/**
 * Every process below `root`, with its command line as one string (Chromium's child processes
 * rewrite theirs into one space-separated title, so NUL-separated arguments cannot be relied on).
 */
function descendants(root: number): { pid: number; line: string }[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), parent);
    } catch {
      // The process ended while we looked.
    }
  }
  const below = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents)
      if (below.has(parent) && !below.has(pid)) {
        below.add(pid);
        grew = true;
      }
  }
  below.delete(root);
  return [...below].flatMap((pid) => {
    try {
      const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      return line ? [{ pid, line }] : [];
    } catch {
      return [];
    }
  });
}

const printer = new ChromiumPrinter();
afterAll(() => printer.close());

describe('the print browser (D82)', () => {
  it('launches the expected kind of Chromium', async () => {
    const expected = process.env.CHROMIUM_PATH === BUNDLED_CHROMIUM ? 'bundled' : undefined;
    const executable = await chromiumExecutable();
    if (expected) expect(executable.kind).toBe(expected);
    await printer.htmlToPdf('<p>warm</p>');
    expect(printer.executable?.kind).toBe(executable.kind);
    console.info(`print browser: ${executable.kind} (${executable.path})`);
  });

  it('runs with no switch that weakens isolation, in the browser or any of its processes', async () => {
    await printer.warm();
    // This file starts no other process: everything below it is the browser (Debian's starts
    // through a shell wrapper, whose command line is checked too).
    const processes = descendants(process.pid);
    const browser = processes.find(({ line }) => line.includes('--remote-debugging-pipe'));
    expect(browser?.line).toContain('--proxy-bypass-list=<-loopback>');
    // Besides the browser, separate zygote, network or renderer processes: a single-process
    // browser has none.
    expect(processes.filter(({ line }) => / --type=/.test(line)).length).toBeGreaterThan(0);
    for (const { line } of processes) {
      const switches = line.split(/\s+/);
      for (const weak of WEAKENING_SWITCHES)
        expect(switches.filter((s) => s === weak || s.startsWith(`${weak}=`))).toEqual([]);
      const disabled = switches
        .filter((s) => s.startsWith('--disable-features='))
        .flatMap((s) => s.slice('--disable-features='.length).split(','));
      for (const feature of ISOLATION_FEATURES) expect(disabled).not.toContain(feature);
    }
  });

  it(`prints ${PRINT_CONCURRENCY * 3} documents at once without losing the browser`, async () => {
    const launches = printer.launches;
    const texts = await Promise.all(
      Array.from({ length: PRINT_CONCURRENCY * 3 }, async (_, i) =>
        (await pdfPagesText(await printer.htmlToPdf(`<h1>Document ${i} – é ✓</h1>`))).join(' '),
      ),
    );
    texts.forEach((text, i) => expect(text).toContain(`Document ${i}`));
    expect(printer.launches).toBe(launches);
  });

  it('reuses a kept page only for prints that ask for it (D124), and a kept page keeps the sandbox', async () => {
    const browser = await printer.warm();
    const before = browser.contexts().length;
    const first = await printer.htmlToPdf('<h1>Applicant Alpha</h1>', undefined, {
      reusePage: true,
    });
    expect(browser.contexts().length).toBe(before + 1);
    // The kept page: a fetch, a script and a navigation still do nothing, and nothing of the print
    // before shows.
    const second = await printer.htmlToPdf(
      `<h1>Applicant Beta</h1><p id="s">static</p><script>document.getElementById('s').textContent = 'script ran'</script><img src="https://example.com/x.png"><meta http-equiv="refresh" content="0;url=https://example.com/">`,
      undefined,
      { reusePage: true },
    );
    expect((await pdfPagesText(first)).join(' ')).toContain('Applicant Alpha');
    const text = (await pdfPagesText(second)).join(' ');
    expect(text).toContain('Applicant Beta');
    expect(text).toContain('static');
    expect(text).not.toContain('script ran');
    expect(text).not.toContain('Alpha');
    expect(browser.contexts().length).toBe(before + 1);
    // A print that does not ask (a conversion) gets its own context and closes it.
    await printer.htmlToPdf('<h1>Converted document</h1>');
    expect(browser.contexts().length).toBe(before + 1);
  });
});
