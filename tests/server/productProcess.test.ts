/**
 * `npm start`'s default, as a fresh machine runs it: the server process on the embedded PGlite with
 * its job worker forked beside it (D98), statements coming back over IPC. A Word file converts and
 * the application PDF prints there, so the web process never hosts Chromium or the sandbox.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { validApplication } from '../definitions/fixtures';
import { pdfPagesText, squeeze } from '../fixtures/pdfText';
import { docx } from './documentFiles';
import { submitFile, waitForPdf } from './documentUploads';
import { Client, outboxCode, PASSWORD, type TestServer } from './harness';
import { startServerProcess } from './serverProcess';

/** The command lines of a process's direct children, from /proc. */
async function childCommands(parent: number): Promise<string[]> {
  const commands: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The parent pid is the second field after the parenthesised command name.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid !== parent) continue;
    commands.push(
      (await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' '),
    );
  }
  return commands;
}

describe('the product process (PGlite, the worker forked beside it)', () => {
  it('converts a Word file and prints the application PDF in its worker, then stops both on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admission-product-'));
    // JOB_WORKER unset: the default, one worker process forked by the server.
    const { child, url, exited, healthy } = await startServerProcess(dataDir, { JOB_WORKER: '' });
    try {
      const health = await healthy(180);
      expect(health?.status).toBe(200);

      const email = 'product@example.com';
      const client = new Client(url);
      expect(
        (await client.post('/public/signup', { username: email, password: PASSWORD })).status,
      ).toBe(200);
      const code = await outboxCode(dataDir, email);
      expect((await client.post('/public/confirm', { username: email, code })).status).toBe(200);
      expect(
        (await client.post('/public/login', { username: email, password: PASSWORD })).status,
      ).toBe(200);

      const server = { url } as TestServer;
      const transcript = await submitFile(
        server,
        client,
        'transcript.docx',
        await docx(['Transcript from Word']),
      );
      expect(transcript.settled.status).toBe('COMPLETED');
      expect(
        (await client.put('/api/answer', { ...validApplication, transcript_file: 'ANSWERED' }))
          .status,
      ).toBe(200);
      expect((await client.post('/api/submit', {})).status).toBe(200);

      const ready = await waitForPdf(client);
      expect(ready.status).toBe('COMPLETED');
      const file = await client.get(ready.url as string);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      const bytes = new Uint8Array(file.bytes);
      expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(1);
      const text = squeeze((await pdfPagesText(bytes)).join('\n'));
      expect(text).toContain(squeeze('Avery Jordan Lopez'));
      expect(text).toContain(squeeze('Transcript from Word'));

      // The worker, not the web process, launched Chromium: no browser is the web process's child.
      const children = await childCommands(child.pid as number);
      expect(children.some((command) => command.includes('server/worker.ts'))).toBe(true);
      expect(children.filter((command) => /chrom/i.test(command))).toEqual([]);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
