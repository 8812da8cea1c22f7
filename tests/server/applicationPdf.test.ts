/**
 * The application PDF (D55; SPEC 3.4, 4.5, 7.2 `GET /api/pdf`): prepared by the job queue after
 * submit, made of the print set's pages and the converted documents, downloaded through a short-lived
 * URL that only the applicant's own session opens, and prepared again when its sources change.
 */
import { sql } from 'drizzle-orm';
import { PDFBool, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collegeTime,
  pdfMessages,
  serverMessages,
  type ApplicationPdfResponse,
} from '../../contract';
import {
  addAnotherGroups,
  descKey,
  isEmpty,
  loadDefinition,
  questionsOf,
  usDate,
  visibleView,
  type QuestionView,
} from '../../runtime';
import { checkboxMark, choiceText, lookupText, monthYearText } from '../../renderers/print';
import { renderApplicationHtml, SEPARATOR_TEXT } from '../../renderers/print/render';
import { runInTenant } from '../../server/db/tenantScope';
import { applicationReference } from '../../server/applicationPdf';
import { validApplication } from '../definitions/fixtures';
import { pdfPagesText, squeeze } from '../fixtures/pdfText';
import { twoDocumentsDefinition } from '../fixtures/twoDocumentsDefinition';
import { png, pdf } from './documentFiles';
import { submitFile, waitForPdf } from './documentUploads';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type Client,
  type TestServer,
} from './harness';

const HOST = 'two-documents.test';
const ANSWERS: Record<string, unknown> = {
  ...validApplication,
  hs_ceeb: '460123',
  transcript_file: 'ANSWERED',
  essay_file: 'ANSWERED',
};

const download = (client: Client, url: string) => client.get(url);

/** What the copy must show for one answered question (the print set's rules, SPEC 2.9). */
function expectedValue(view: QuestionView, answers: Record<string, unknown>): string | null {
  const value = answers[view.key];
  switch (view.questionKind) {
    case 'checkbox':
      return checkboxMark(value);
    case 'select':
    case 'radio':
      return choiceText(value, view.descKey ? answers[view.descKey] : undefined, view.options);
    case 'monthYear':
      return monthYearText(value, answers[view.yearKey], view.monthOptions);
    case 'lookup':
      return lookupText(
        view.question.category,
        value,
        answers[view.fillKeys.find((key) => key.endsWith('ceeb')) ?? ''],
      );
    case 'file':
      return `Document attached for "${view.question.label}"`;
    case 'date':
      return typeof value === 'string' ? usDate(value) : null;
    case 'ssn':
      return null; // checked on its own: masked
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

describe.each(databaseKinds)('the application PDF on %s', (database) => {
  let server: TestServer;
  let applicant: Client;

  beforeAll(async () => {
    server = await startServer({
      database,
      config: { jobs: { pollMs: 50, leaseMs: 120_000 } },
      tenants: [
        {
          id: 'two-documents',
          name: 'Northfield (two documents)',
          definitionId: twoDocumentsDefinition.id,
          hosts: [HOST],
        },
      ],
      definitions: [twoDocumentsDefinition],
    });
    applicant = await registeredClient(server, 'pdf@example.com', undefined, HOST);
  }, 60_000);
  afterAll(async () => server?.close());

  it('answers 401 without a session, for the status and the download', async () => {
    const anonymous = server.client(HOST);
    for (const path of ['/api/pdf', '/api/pdf/file?download=x']) {
      const response = await anonymous.get(path);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: serverMessages.sessionRequired });
    }
  });

  it('after submit: every answered label and value, the SSN masked, then both documents', async () => {
    const transcript = await submitFile(
      server,
      applicant,
      'transcript.pdf',
      await pdf('Transcript page', 2),
      'transcript_file',
    );
    expect(transcript.settled.status).toBe('COMPLETED');
    const essay = await submitFile(server, applicant, 'essay.png', png(320, 200), 'essay_file');
    expect(essay.settled.status).toBe('COMPLETED');
    expect((await applicant.put('/api/answer', ANSWERS)).status).toBe(200);
    expect((await applicant.post('/api/submit', {})).status).toBe(200);

    const seen: string[] = [];
    const ready = await waitForPdf(applicant, seen);
    expect(ready).toMatchObject({ status: 'COMPLETED', message: pdfMessages.completed });
    expect(
      seen.slice(0, -1).every((status) => ['UNPROCESSED', 'IN_PROGRESS'].includes(status)),
    ).toBe(true);
    expect(ready.url).toMatch(/^\/api\/pdf\/file\?download=/);

    // In the tenant's scope: on PostgreSQL, row-level security shows nothing outside one (D56).
    const userId = (
      (await runInTenant('two-documents', () =>
        server.built.database.db.execute(sql`select id from users where email = 'pdf@example.com'`),
      )) as unknown as { rows: { id: string }[] }
    ).rows[0]?.id as string;
    const reference = applicationReference(userId);
    expect(reference).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);

    const file = await download(applicant, ready.url as string);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    // Named for the applicant, as the staff copy is (D147, D197).
    expect(file.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="Lopez-Avery-${reference}\\.pdf"`),
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(file.headers.get('content-security-policy')).toBe('sandbox');

    const bytes = new Uint8Array(file.bytes);
    const document = await PDFDocument.load(bytes);
    const pages = await pdfPagesText(bytes);
    expect(document.getPageCount()).toBe(pages.length);
    // The print pages, then the transcript's two pages and the essay image's page, nothing between:
    // each document's first page carries the caption naming its question and file (D161, D197).
    const firstAttached = pages.findIndex((text) => text.includes('Transcript page 1'));
    expect(firstAttached).toBeGreaterThan(1);
    expect(pages[firstAttached + 1]).toContain('Transcript page 2');
    expect(pages.length).toBe(firstAttached + 3);
    const caption = (label: string, file: string) =>
      squeeze(
        `${SEPARATOR_TEXT.title} · ${SEPARATOR_TEXT.question}: ${label} ${SEPARATOR_TEXT.file}: ${file}`,
      );
    expect(squeeze(pages[firstAttached] ?? '')).toContain(
      caption('Unofficial Transcript', 'transcript.pdf'),
    );
    expect(squeeze(pages[firstAttached + 2] ?? '')).toContain(
      caption('Personal Essay (optional)', 'essay.png'),
    );
    // No near-empty page: every page before the documents' own holds the form's answers (a page
    // with only the header, the footer and a few words of its own was a separator, D197).
    pages.slice(0, firstAttached).forEach((text, index) => {
      expect(squeeze(text).length, `page ${index + 1}`).toBeGreaterThan(400);
    });
    expect(pages[firstAttached - 1]).toContain('Certification');
    // The form's pages flow on: no printed page but the last is left less than half full.
    const printPages = pages.slice(0, firstAttached).map((text) => squeeze(text).length);
    const fullest = Math.max(...printPages);
    printPages.slice(0, -1).forEach((length, index) => {
      expect(length, `print page ${index + 1} of ${printPages.length}`).toBeGreaterThan(
        fullest / 2,
      );
    });
    // Every page, attached ones included, carries the same header and counts all the pages; its
    // time is the college's, its zone named (D197).
    const zone = server.built.context.institutionOf('two-documents').time_zone;
    expect(zone).not.toBe('UTC');
    const submittedAt = collegeTime(server.clock.now(), zone);
    const header = squeeze(`Avery Jordan Lopez ${submittedAt}`);
    pages.forEach((text, index) => {
      expect(squeeze(text), `page ${index + 1}`).toContain(
        squeeze(`Page ${index + 1} of ${pages.length}`),
      );
      expect(squeeze(text), `page ${index + 1}`).toContain(header);
      // Submitted: no page says draft.
      expect(text, `page ${index + 1}`).not.toContain('Draft');
    });
    // The essay image's page holds nothing else but its caption (margin boxes come first).
    expect(squeeze(pages[firstAttached + 2] ?? '')).toBe(
      `${header}${squeeze(`Page ${pages.length} of ${pages.length}`)}${caption('Personal Essay (optional)', 'essay.png')}`,
    );
    // The first page: the submission time, in the college's zone, and the application reference.
    expect(squeeze(pages[0] ?? '')).toContain(
      squeeze(`Submitted: ${submittedAt} · Application reference: ${reference}`),
    );
    // A tagged PDF (a structure tree, marked content) with an outline of its headings, in English,
    // for screen readers and a reader's bookmarks (D197).
    const catalog = document.catalog;
    expect(catalog.lookup(PDFName.of('StructTreeRoot'))).toBeInstanceOf(PDFDict);
    expect(catalog.lookup(PDFName.of('MarkInfo'), PDFDict).lookup(PDFName.of('Marked'))).toBe(
      PDFBool.True,
    );
    expect(catalog.lookup(PDFName.of('Outlines'))).toBeInstanceOf(PDFDict);
    expect(catalog.lookup(PDFName.of('Lang'))?.toString()).toBe('(en)');

    const printed = squeeze(pages.slice(0, firstAttached).join('\n'));
    expect(printed).toContain(squeeze(twoDocumentsDefinition.title));
    expect(printed).toContain(squeeze('Avery Jordan Lopez'));
    const views = questionsOf(
      visibleView(twoDocumentsDefinition, ANSWERS, {
        addAnother: Object.fromEntries(addAnotherGroups(twoDocumentsDefinition)),
        now: server.clock.now(),
      }),
    );
    let checked = 0;
    for (const view of views) {
      if (isEmpty(ANSWERS[view.key]) && view.question.kind !== 'checkbox') continue;
      if (view.question.kind === 'checkbox' && ANSWERS[view.key] === undefined) continue;
      expect(printed, view.key).toContain(squeeze(view.question.label));
      const value = expectedValue(view, ANSWERS);
      if (value !== null) expect(printed, view.key).toContain(squeeze(value));
      checked += 1;
    }
    expect(checked).toBeGreaterThan(40);
    expect(printed).toContain('Documentattachedfor"UnofficialTranscript"');
    expect(printed).toContain(squeeze('Document attached for "Personal Essay (optional)"'));
    expect(printed).toContain('04/12/2008');
    expect(printed).not.toContain('2008-04-12');
    expect(printed).toContain('Ceeb:460123');
    // D55: the applicant's own copy shows the SSN's last four digits only.
    expect(printed).toContain('***-**-6789');
    expect(printed).not.toContain('123-45-6789');
    expect(printed).toContain(squeeze(String(ANSWERS[descKey('gender')])));
  }, 120_000);

  it('keeps a question on the page of the explanation it reveals, wherever a page ends (D197)', async () => {
    const printer = server.built.documents.printer;
    const fillers = Array.from({ length: 60 }, (_, i) => `filler_${i + 1}`);
    const definition = loadDefinition({
      id: 'explained',
      title: 'Explained',
      version: 1,
      defaultRoute: '/p',
      optionLists: {
        yesNo: [
          { value: 'Y', label: 'Yes' },
          { value: 'N', label: 'No' },
        ],
      },
      pages: [
        {
          id: 'p',
          path: '/p',
          title: 'Conduct',
          children: [
            ...fillers.map((key) => ({ kind: 'text' as const, key, label: `Line ${key}` })),
            {
              kind: 'radio' as const,
              key: 'conviction',
              label: 'Have you been convicted of a felony?',
              options: 'yesNo',
              content: {
                Y: [
                  {
                    kind: 'textarea' as const,
                    key: 'why',
                    label: 'Please explain the circumstances.',
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const explanation = Array.from({ length: 8 }, (_, i) => `Sentence ${i + 1} of the story.`).join(
      '\n',
    );
    /** The printed pages' text with the first `count` fillers answered, then the question. */
    const printed = async (count: number) => {
      const answers = {
        ...Object.fromEntries(fillers.slice(0, count).map((key) => [key, 'answered'])),
        conviction: 'Y',
        why: explanation,
      };
      const html = renderApplicationHtml({ definition, answers, applicantName: 'A', date: 'D' });
      return pdfPagesText(await printer.htmlToPdf(html, undefined, { reusePage: true }));
    };
    // How many answered lines fill the first page: with that many, or a few fewer, the question
    // falls at the foot of the first page, where it was left alone before.
    const full = (await printed(fillers.length))[0] ?? '';
    const onFirst = fillers.filter((key) =>
      squeeze(full).includes(squeeze(`Line ${key} answered`)),
    ).length;
    expect(onFirst).toBeGreaterThan(20);
    expect(onFirst).toBeLessThan(fillers.length);
    for (let count = onFirst - 3; count <= onFirst; count++) {
      const pages = (await printed(count)).map(squeeze);
      const question = pages.findIndex((text) =>
        text.includes(squeeze('Have you been convicted of a felony?')),
      );
      expect(question, `${count} lines before it`).toBeGreaterThanOrEqual(0);
      expect(pages[question], `${count} lines before it`).toContain(
        squeeze('Please explain the circumstances.'),
      );
      expect(pages[question], `${count} lines before it`).toContain('Sentence1ofthestory.');
    }
  }, 60_000);

  it('keeps a prepared PDF while nothing changes, and prepares it again once something does', async () => {
    const client = await registeredClient(server, 'draft@example.com', undefined, HOST);
    await client.put('/api/answer', { first_name: 'Rowan' });
    const first = await waitForPdf(client);
    expect(first.status).toBe('COMPLETED');
    const again = await client.get<ApplicationPdfResponse>('/api/pdf');
    expect(again.body.status).toBe('COMPLETED');
    const jobs = async () => {
      const result = (await server.built.database.db.execute(
        sql`select count(*)::int as count from jobs where kind = 'application-pdf'`,
      )) as unknown as { rows: { count: number }[] };
      return result.rows[0]?.count;
    };
    const before = await jobs();
    await client.get('/api/pdf');
    expect(await jobs()).toEqual(before);

    await client.put('/api/answer', { first_name: 'Rowena' });
    const changed = await client.get<ApplicationPdfResponse>('/api/pdf');
    expect(['UNPROCESSED', 'IN_PROGRESS']).toContain(changed.body.status);
    expect(changed.body.url).toBeNull();
    const redone = await waitForPdf(client);
    const text = squeeze(
      (
        await pdfPagesText(new Uint8Array((await download(client, redone.url as string)).bytes))
      ).join(''),
    );
    expect(text).toContain('Rowena');
    expect(text).not.toContain('Rowan');
    // The URL handed out before it was prepared again no longer opens.
    const stale = await download(client, first.url as string);
    expect(stale.status).toBe(404);
    expect(stale.body).toEqual({ message: pdfMessages.linkExpired });
  }, 90_000);

  it('opens only in the applicant’s own session, only while it is fresh, and only untampered', async () => {
    const owner = await registeredClient(server, 'owner@example.com', undefined, HOST);
    await owner.put('/api/answer', { first_name: 'Sasha' });
    const ready = await waitForPdf(owner);
    const url = ready.url as string;
    expect((await download(owner, url)).status).toBe(200);

    const other = await registeredClient(server, 'other@example.com', undefined, HOST);
    const foreign = await download(other, url);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: pdfMessages.linkExpired });
    expect(foreign.text).not.toContain('%PDF');

    const [body, signature] = url.split('download=')[1]!.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { u: string };
    const forged = Buffer.from(JSON.stringify({ ...payload, u: 'x' })).toString('base64url');
    expect((await download(owner, `/api/pdf/file?download=${forged}.${signature}`)).status).toBe(
      404,
    );
    expect((await download(owner, '/api/pdf/file')).status).toBe(404);

    // 16 minutes on, with the session kept alive by a call in between: the URL has expired.
    server.clock.advance(10 * 60_000);
    expect((await owner.get('/api/profile')).status).toBe(200);
    server.clock.advance(6 * 60_000);
    const expired = await download(owner, url);
    expect(expired.status).toBe(404);
    expect(expired.body).toEqual({ message: pdfMessages.linkExpired });
    // A new status call hands out a new URL that opens.
    const renewed = await owner.get<ApplicationPdfResponse>('/api/pdf');
    expect(renewed.body.status).toBe('COMPLETED');
    expect((await download(owner, renewed.body.url as string)).status).toBe(200);
  }, 90_000);

  it('ends FAILED with its message when printing keeps failing, and the next request tries again', async () => {
    const client = await registeredClient(server, 'failing@example.com', undefined, HOST);
    await client.put('/api/answer', { first_name: 'Quinn' });
    const printer = server.built.documents.printer;
    const original = printer.htmlToPdf.bind(printer);
    printer.htmlToPdf = () => Promise.reject(new Error('printer down (test)'));
    try {
      // Two attempts, the second after the queue's back-off (on the test's clock).
      let failed: ApplicationPdfResponse | undefined;
      for (let i = 0; i < 600 && !failed; i++) {
        const response = await client.get<ApplicationPdfResponse>('/api/pdf');
        if (response.body.status === 'FAILED') failed = response.body;
        else server.clock.advance(1000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(failed).toEqual({ status: 'FAILED', url: null, message: pdfMessages.failed });
    } finally {
      printer.htmlToPdf = original;
    }
    // Shown as FAILED for a minute (the app's toast), then the next request tries again.
    expect((await client.get<ApplicationPdfResponse>('/api/pdf')).body.status).toBe('FAILED');
    server.clock.advance(61_000);
    const retried = await client.get<ApplicationPdfResponse>('/api/pdf');
    expect(['UNPROCESSED', 'IN_PROGRESS']).toContain(retried.body.status);
    expect((await waitForPdf(client)).status).toBe('COMPLETED');
  }, 90_000);
});
