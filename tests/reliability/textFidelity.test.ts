/**
 * SECURITY.md REQ-R-7 (text fidelity): a 7,000-character essay with emoji, RTL text, combining
 * marks, `<`, `&`, tabs and double spaces comes back byte-identical after save and reload, and in
 * the staff view's data; the applicant's PDF holds every character a PDF's text can hold (see the
 * PDF test for what that means). The staff view's rendered text is checked in Chromium
 * (tests/e2e/service.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collegeTime, type ServiceData } from '../../contract';
import { PRINT_LABELS } from '../../renderers/print/application';
import { textLength } from '../../runtime';
import { hardText } from '../fixtures/hardText';
import { pdfFontNames, pdfPagesText } from '../fixtures/pdfText';
import { waitForPdf } from '../server/documentUploads';
import { databaseKinds, registeredClient, startServer, type TestServer } from '../server/harness';

const STAFF_KEY = 'fidelity-staff-key-0123456789abcdefghij';
const bytesOf = (text: string) => Buffer.from(text, 'utf8');

const RTL_WORD = /[\u0590-\u05FF\u0600-\u06FF]+/g;

/**
 * What a PDF's text layer can say of a text: a PDF places glyphs, so whitespace (spaces, tabs, line
 * breaks, NBSP) is layout and comes back as single spaces or line ends; variation selectors have no
 * glyph; Arabic comes back as presentation forms (NFKC maps them back); a flag (two regional
 * indicators drawn as one glyph) comes back as a private-use character; right-to-left runs come back
 * in visual order, so they are taken out here and checked word by word.
 */
function pdfComparable(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u{1F1E6}-\u{1F1FF}\uE000-\uF8FF\u{F0000}-\u{10FFFD}]/gu, '')
    .replace(/[\uFE0E\uFE0F]/g, '')
    .replace(RTL_WORD, '')
    .replace(/\s+/g, '');
}

/** The PDF's text without each page's header (name, a draft's mark, date) and footer ("Page n of N"). */
function bodyText(pages: readonly string[], header: string): string {
  return pages
    .map((page) =>
      page
        .replaceAll(PRINT_LABELS.draft, '')
        .replace(/ {2,}/, ' ')
        .replaceAll(header, '')
        .replace(/Page \d+ of \d+/g, ''),
    )
    .join('\n');
}

describe.each(databaseKinds)('REQ-R-7 text fidelity on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      database,
      env: { STAFF_API_KEYS: `northfield=${STAFF_KEY}` },
      config: { jobs: { pollMs: 50, leaseMs: 120_000 } },
    });
  });
  afterAll(async () => server?.close());

  it('keeps a 7,000-character essay byte-identical through save and reload', async () => {
    const essay = hardText(7000);
    expect(essay.length).toBe(7000);
    const client = await registeredClient(server, 'essayist@example.com');
    expect((await client.put('/api/answer', { conviction_comment: essay })).status).toBe(200);
    const profile = await client.get<{ answer: Record<string, unknown> }>('/api/profile');
    const stored = profile.body.answer.conviction_comment as string;
    expect(bytesOf(stored).equals(bytesOf(essay))).toBe(true);
  });

  it('refuses one character more than the limit and keeps what was saved before', async () => {
    const client = await registeredClient(server, 'essayist2@example.com');
    // Exactly the limit as the applicant counts characters (an emoji or a letter with its marks
    // is one, D78): the hard text, topped up with plain letters.
    let essay = hardText(7000);
    // The missing count at once (a letter at a time counted the whole essay again each time).
    for (let missing = 7000 - textLength(essay); missing > 0; missing = 7000 - textLength(essay))
      essay += 'x'.repeat(missing);
    expect(textLength(essay)).toBe(7000);
    expect((await client.put('/api/answer', { conviction_comment: essay })).status).toBe(200);
    const longer = await client.put('/api/answer', { conviction_comment: `${essay}!` });
    expect(longer.status).toBe(400);
    const profile = await client.get<{ answer: Record<string, unknown> }>('/api/profile');
    expect(profile.body.answer.conviction_comment).toBe(essay);
  });

  it('hands staff the essay byte-identical (GET /service/tmp-pdf)', async () => {
    const essay = hardText(7000);
    const email = 'essayist3@example.com';
    const client = await registeredClient(server, email);
    await client.put('/api/answer', { conviction: 'Y', conviction_comment: essay });
    const minted = await server
      .client()
      .request('POST', '/service/tokens', { email }, { authorization: `Bearer ${STAFF_KEY}` });
    expect(minted.status).toBe(200);
    const token = encodeURIComponent(minted.body.token as string);
    const staff = await server.client().get<ServiceData>(`/service/tmp-pdf?service_token=${token}`);
    expect(staff.status).toBe(200);
    const seen = staff.body.answer.conviction_comment as string;
    expect(bytesOf(seen).equals(bytesOf(essay))).toBe(true);
  });

  it('prints every character of the essay the PDF’s text can hold, in order', async () => {
    const essay = hardText(7000);
    const client = await registeredClient(server, 'essayist4@example.com');
    await client.put('/api/answer', {
      first_name: 'Essay',
      conviction: 'Y',
      conviction_comment: essay,
    });
    const ready = await waitForPdf(client);
    expect(ready.status).toBe('COMPLETED');
    const file = await client.get(ready.url as string);
    expect(file.status).toBe(200);
    const pages = await pdfPagesText(new Uint8Array(file.bytes));
    const zone = server.built.context.institutionOf('northfield').time_zone;
    const extracted = bodyText(pages, `Essay ${collegeTime(server.clock.now(), zone)}`);
    const text = pdfComparable(extracted);
    expect(text).toContain(pdfComparable(essay));
    const visual = extracted.normalize('NFKC');
    for (const word of new Set(essay.match(RTL_WORD)))
      expect(visual.includes(word) || visual.includes([...word].reverse().join('')), word).toBe(
        true,
      );
    // The comparison is not blind: a changed character is seen.
    expect(text).not.toContain(pdfComparable(essay.replace('Combining', 'Combinin9')));
    // D135: drawn with the fonts the PDF carries, not the machine's (a machine without them printed
    // the emoji blank); Arabic is left to the machine's fonts.
    const fonts = await pdfFontNames(new Uint8Array(file.bytes));
    for (const family of ['NotoSerif', 'NotoEmoji', 'NotoSansHebrew'])
      expect(
        fonts.some((name) => name.startsWith(family)),
        family,
      ).toBe(true);
  }, 60_000);
});
