/**
 * The print set on its own (SPEC 2.9), rendered as the server renders it: `react-dom/server` in
 * Node, no DOM. The conformance suite covers what all sets share; this covers what only print does.
 */
import { describe, expect, it } from 'vitest';
import { applicationDefinition } from '../../definitions';
import { loadDefinition } from '../../runtime';
import {
  textOf as answerText,
  checkboxMark,
  choiceText,
  documentAttachedText,
  lookupText,
  monthYearText,
  notAnsweredText,
} from '../../renderers/print';
import {
  applicantNameOf,
  ATTACHMENT_CAPTION_INCHES,
  renderApplicationHtml,
  SEPARATOR_TEXT,
} from '../../renderers/print/render';
import { PRINT_STYLESHEET } from '../../renderers/print';

const NOW = new Date('2026-11-22T10:00:00Z');

/** The visible text of an HTML document, one line per element. */
function textOf(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

describe('print text', () => {
  it('writes answers as text, checkboxes as [X] or [ ], choices by their _desc label', () => {
    expect(answerText('--')).toBe('');
    expect(answerText(null)).toBe('');
    expect(answerText(42)).toBe('42');
    expect(checkboxMark(true)).toBe('[X]');
    expect(checkboxMark('true')).toBe('[X]');
    expect(checkboxMark(false)).toBe('[ ]');
    expect(checkboxMark(undefined)).toBe('[ ]');
    const options = [
      { value: '--', label: '--' },
      { value: 'F', label: 'Female' },
    ];
    expect(choiceText('F', 'Female (as given)', options)).toBe('Female (as given)');
    expect(choiceText('F', '', options)).toBe('Female');
    expect(choiceText('Q', undefined, options)).toBe('Q');
    expect(choiceText('--', undefined, options)).toBe('');
    expect(monthYearText('5', '2026', [{ value: '5', label: 'May' }])).toBe('May 2026');
    expect(monthYearText('', '2026', [])).toBe('2026');
  });

  it('writes a school as "<name> (Ceeb: <code>)" and a document as attached', () => {
    expect(lookupText('hs_ceeb', 'Central High', '123456')).toBe('Central High (Ceeb: 123456)');
    expect(lookupText('college_ceeb', 'Big U', '9999')).toBe('Big U (Ceeb: 9999)');
    expect(lookupText('hs_ceeb', 'Central High', '')).toBe('Central High');
    expect(lookupText('address', '1 Main St', '123')).toBe('1 Main St');
    expect(documentAttachedText('Unofficial Transcript')).toBe(
      'Document attached for "Unofficial Transcript"',
    );
  });
});

describe('renderApplicationHtml with the institution definition', () => {
  const answers = {
    first_name: 'Ada',
    middle_name: '',
    last_name: 'Lovelace',
    gender: 'F',
    gender_desc: 'Female',
    hs_name: 'Central High',
    hs_ceeb: '123456',
    legal_agree: true,
    parent_first_name: 'Anne',
    parent_2_first_name: '',
    activity_name: 'Chess',
    activity_3_name: 'Rowing',
    essay_like: 'ignored',
  };
  const html = renderApplicationHtml({
    definition: applicationDefinition,
    answers,
    documents: ['transcript_file'],
    now: NOW,
  });
  const text = textOf(html);

  it('is a complete document with the print stylesheet: Letter, name and date in the header, page numbers', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('size: letter');
    expect(html).toContain('@top-left { content: "Ada Lovelace"');
    expect(html).toContain('@top-right { content: "November 22, 2026"');
    expect(html).toContain('counter(pages)');
    expect(html).toContain('<title>Northfield College Application – Ada Lovelace</title>');
  });

  it('has all three pages and no inputs, buttons, navigation, header chrome or footer', () => {
    for (const title of ['About You', 'Your Education', 'Final Steps'])
      expect(text).toContain(title);
    expect(html).not.toMatch(/<(input|select|textarea|button|nav|footer|form|dialog)\b/);
    expect(html).not.toContain('Add Another');
    expect(html).not.toContain('Skip to the application');
  });

  it('prints labels with values, _desc labels, schools with their code, checkboxes and documents', () => {
    expect(text).toContain('First Name\nAda');
    expect(text).toContain('Gender\nFemale');
    expect(text).not.toMatch(/Gender\nF\n/);
    expect(text).toContain('Search for Your School\nCentral High (Ceeb: 123456)');
    expect(text).toMatch(/\[X\]\nI certify that the information/);
    expect(text).toContain('Document attached for "Unofficial Transcript"');
  });

  it('D161: leaves out an optional question left empty, and says a required one is not answered', () => {
    expect(text).not.toContain('Middle Name');
    expect(text).not.toContain('Preferred Name');
    expect(text).toContain(`Date of Birth\n${notAnsweredText}`);
  });

  it('keeps only the repeated instances that hold answers', () => {
    expect(text).toContain('Parent or Legal Guardian 1');
    expect(text).not.toContain('Parent or Legal Guardian 2');
    expect(text).toContain('Activity 1');
    expect(text).not.toContain('Activity 2');
    expect(text).toContain('Activity 3');
    expect(text).toContain('Rowing');
  });

  it('omits hidden sections (activities hide unless gender is M or F)', () => {
    const hidden = textOf(
      renderApplicationHtml({
        definition: applicationDefinition,
        answers: { ...answers, gender: 'X', gender_desc: 'Another gender' },
        now: NOW,
      }),
    );
    expect(hidden).not.toContain('Rowing');
    expect(hidden).not.toContain('Type of Activity');
  });

  it('prints content behind a button trigger once answered, and never the button', () => {
    expect(text).not.toContain('Add an international phone number');
    expect(text).not.toContain('International Phone');
    const answered = textOf(
      renderApplicationHtml({
        definition: applicationDefinition,
        answers: { ...answers, phone_international: '+44 20 7946 0958' },
        now: NOW,
      }),
    );
    expect(answered).toContain('International Phone\n+44 20 7946 0958');
    expect(answered).not.toContain('Add an international phone number');
  });

  it('prints a checkbox trigger as its box and the content it selects', () => {
    const same = textOf(
      renderApplicationHtml({
        definition: applicationDefinition,
        answers: { ...answers, parent_addr_same_as_perm_addr: true },
        now: NOW,
      }),
    );
    const apart = textOf(
      renderApplicationHtml({
        definition: applicationDefinition,
        answers: { ...answers, parent_zip: '05401' },
        now: NOW,
      }),
    );
    expect(same).toMatch(/\[X\]\nThis parent or guardian lives at my permanent address/);
    expect(apart).toMatch(/\[ \]\nThis parent or guardian lives at my permanent address/);
    const parentPart = (t: string) =>
      t.slice(t.indexOf('Parent or Legal Guardian 1'), t.indexOf('How should we contact'));
    expect(parentPart(apart)).toContain('ZIP/Postal Code\n05401');
    expect(parentPart(same)).not.toContain('ZIP/Postal Code');
  });

  it('D81: dates as entered (MM/DD/YYYY), no heading over a section with nothing answered, the first page says when and under which reference', () => {
    const copy = textOf(
      renderApplicationHtml({
        definition: applicationDefinition,
        answers: { ...answers, birth_date: '2008-03-15' },
        now: NOW,
        submitted: 'November 22, 2026',
        reference: '3F9A-1C2B',
      }),
    );
    expect(copy).toContain('Date of Birth\n03/15/2008');
    expect(copy).not.toContain('2008-03-15');
    expect(copy).toContain('Submitted: November 22, 2026 · Application reference: 3F9A-1C2B');
    // Nothing answered under Citizenship or Test Scores: their headings are gone too.
    expect(copy).not.toMatch(/^Citizenship$/m);
    expect(copy).not.toMatch(/^Test Scores$/m);
    expect(copy).toMatch(/^Personal Information$/m);
  });

  it("a draft says so at the top of the first page and in every page's header; a submitted one does not", () => {
    const draft = renderApplicationHtml({
      definition: applicationDefinition,
      answers,
      now: NOW,
      draft: true,
    });
    expect(textOf(draft)).toMatch(/^Draft — not submitted$/m);
    expect(draft).toContain('@top-center { content: "Draft — not submitted"');
    const submitted = renderApplicationHtml({
      definition: applicationDefinition,
      answers,
      now: NOW,
      submitted: 'November 22, 2026',
    });
    expect(submitted).not.toContain('Draft');
    expect(submitted).not.toContain('@top-center');
  });

  it('D81: lets a long answer flow across pages, its label kept with its first lines', () => {
    expect(PRINT_STYLESHEET).toMatch(/\.pr-long \{[^}]*break-inside: auto/);
    expect(PRINT_STYLESHEET).toMatch(/\.pr-long > \.pr-label \{[^}]*break-after: avoid/);
  });

  it('D114, D161, D197: for each attached document framed empty pages counted by "Page N of M", the first captioned with its question and file', () => {
    const html = renderApplicationHtml({
      definition: applicationDefinition,
      answers: { ...answers, first_name: 'Ada <Lovelace>' },
      applicantName: 'Ada <Lovelace>',
      date: 'May 1, 2026',
      attachments: [
        { questionLabel: 'Unofficial Transcript', fileName: 'grades <fall>.pdf', pages: 3 },
        { questionLabel: 'Personal Essay', fileName: 'essay.png', pages: 1 },
      ],
    });
    // One page per page of the documents, no page of its own to say which document follows.
    expect(html.match(/class="pr-frame"/g)).toHaveLength(2);
    expect(html.match(/class="pr-document pr-frame pr-separator"/g)).toHaveLength(2);
    const text = textOf(html);
    expect(text).toContain(
      `${SEPARATOR_TEXT.title} · ${SEPARATOR_TEXT.question}: Unofficial Transcript\n${SEPARATOR_TEXT.file}: grades &lt;fall&gt;.pdf`,
    );
    expect(html).toMatch(
      /<h2 class="pr-separator-title">Attached document · Question: Personal Essay<\/h2>/,
    );
    expect(html).not.toContain('grades <fall>');
    expect(PRINT_STYLESHEET).toMatch(/\.pr-frame \{[^}]*break-before: page/);
    // The caption's band has the height the server draws the document's first page below.
    expect(PRINT_STYLESHEET).toMatch(
      new RegExp(
        `\\.pr-separator \\{[^}]*height: ${ATTACHMENT_CAPTION_INCHES}in; overflow: hidden`,
      ),
    );
    expect(html).toContain('@top-left { content: "Ada \\3c Lovelace>"');
    expect(html).toContain('"Page " counter(page) " of " counter(pages)');
    const none = renderApplicationHtml({ definition: applicationDefinition, answers });
    expect(none).not.toContain('class="pr-frame"');
    expect(none).not.toContain('pr-frame pr-separator"');
    expect(none).not.toContain('pr-separator"');
  });

  it('D197: a question is kept with the explanation it reveals', () => {
    expect(PRINT_STYLESHEET).toMatch(/\.pr-explained \{[^}]*break-after: avoid/);
    const html = renderApplicationHtml({
      definition: applicationDefinition,
      answers: { ...answers, conviction: 'Y', conviction_comment: 'A long story.', suspended: 'N' },
      now: NOW,
    });
    // The radio that revealed its explanation carries the rule; the one that revealed nothing not.
    expect(html).toMatch(/<div class="pr-field pr-explained" data-key="conviction">/);
    expect(html).toMatch(/<div class="pr-field" data-key="suspended">/);
    expect(textOf(html)).toContain(
      'Have you been convicted of a felony?\nYes\nPlease explain the circumstances.\nA long story.',
    );
  });

  it('D197: the first page says the submission time once', () => {
    const at = 'November 22, 2026, 1:20 PM EST';
    const copy = textOf(
      renderApplicationHtml({
        definition: applicationDefinition,
        answers,
        applicantName: 'Ada Lovelace',
        date: at,
        submitted: at,
        now: NOW,
      }),
    );
    expect(copy).toMatch(/^Ada Lovelace$/m);
    expect(copy.match(/November 22, 2026, 1:20 PM EST/g)).toHaveLength(1);
    expect(copy).toContain(`Submitted: ${at}`);
  });

  it('D161: the form pages flow on (no page break between them), headings stay with what follows, an instance is kept whole', () => {
    expect(PRINT_STYLESHEET).not.toMatch(/\.pr-page \+ \.pr-page/);
    expect(PRINT_STYLESHEET).toMatch(/\.pr-page-title \{[^}]*break-after: avoid/);
    expect(PRINT_STYLESHEET).toMatch(/\.pr-instance \{[^}]*break-inside: avoid/);
  });

  it('D161: a file question without a document is left out when optional, "not answered" when required', () => {
    const none = textOf(
      renderApplicationHtml({ definition: applicationDefinition, answers, now: NOW }),
    );
    expect(none).not.toContain('Document attached');
    expect(none).not.toMatch(new RegExp(`Unofficial Transcript\n(?!${notAnsweredText})`));
  });

  it("shows only the chosen tab's content", () => {
    const definition = loadDefinition({
      id: 'tabs',
      title: 'Tabs',
      version: 1,
      defaultRoute: '/t',
      optionLists: {},
      pages: [
        {
          id: 't',
          path: '/t',
          title: 'Tabs page',
          children: [
            {
              kind: 'tabs',
              id: 'proof',
              label: 'Proof',
              defaultTab: 'upload',
              tabs: [
                {
                  name: 'upload',
                  label: 'Upload it',
                  children: [{ kind: 'text', key: 'a', label: 'Upload note' }],
                },
                {
                  name: 'mail',
                  label: 'Mail it',
                  children: [{ kind: 'text', key: 'b', label: 'Tracking' }],
                },
              ],
            },
          ],
        },
      ],
    });
    const mail = textOf(
      renderApplicationHtml({
        definition,
        answers: { b: 'RR1' },
        tabs: { proof: 'mail' },
        now: NOW,
      }),
    );
    expect(mail).toContain('Proof\nMail it');
    expect(mail).toContain('Tracking\nRR1');
    expect(mail).not.toContain('Upload note');
  });

  it('escapes what the applicant typed, in the body and in the header rules', () => {
    const hostile = renderApplicationHtml({
      definition: applicationDefinition,
      answers: { first_name: '</style><script>x()</script>', last_name: 'A"B\\C' },
      now: NOW,
    });
    expect(hostile).not.toContain('<script>');
    expect(hostile.match(/<\/style>/g)).toHaveLength(1);
    expect(applicantNameOf({ first_name: ' ', last_name: 'Solo' })).toBe('Solo');
  });
});
