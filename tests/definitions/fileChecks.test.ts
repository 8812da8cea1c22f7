/**
 * The checks a college's files pass on the way in (D194), without a database: each broken file of
 * tests/fixtures/brokenTenantFiles.ts is refused with its path in plain words, both colleges in the
 * repository pass, and the JSON Schemas accept what the server accepts and say what each field is.
 */
import { describe, expect, it } from 'vitest';
import {
  definitionFileProblems,
  institutionFileProblems,
  kindOfFile,
} from '../../server/platform/definitionChecks';
import { parseJson, type FileProblem } from '../../server/platform/plainWords';
import { BROKEN_FILES, brokenText, readTenantFile } from '../fixtures/brokenTenantFiles';

function problemsOf(text: string, file: 'definition' | 'institution'): FileProblem[] {
  const parsed = parseJson(text);
  if (!parsed.ok) return [parsed.problem];
  return file === 'definition'
    ? definitionFileProblems(parsed.data).problems
    : institutionFileProblems(parsed.data).problems;
}

describe('a broken college file is refused with its path, in plain words', () => {
  it.each(BROKEN_FILES)('$name', (broken) => {
    const problems = problemsOf(brokenText(broken), broken.file);
    expect(problems).toContainEqual({
      path: broken.path,
      message: expect.stringContaining(broken.says),
    });
  });

  it('says what is wrong without a regular expression or a parser word', () => {
    const definition = readTenantFile('riverside/definition.json');
    const institution = readTenantFile('riverside/institution.json');
    const problems = [
      ...definitionFileProblems({
        ...definition,
        version: 0,
        defaultRoute: 'about',
        pages: [{ ...definition.pages[0], path: '/About', children: [{ kind: 'text', key: 'A' }] }],
      }).problems,
      ...institutionFileProblems({
        ...institution,
        config: {
          ...institution.config,
          help_email: 'nobody',
          time_zone: 'Mars/Olympus',
          colors: {},
        },
        offer: { heading: '', items: [] },
        alerts: [{ id: 'x', start: 'tomorrow', end: 5, text: 'Hi' }],
      }).problems,
    ];
    const byPath = Object.fromEntries(problems.map((problem) => [problem.path, problem.message]));
    expect(byPath).toMatchObject({
      version: 'must be at least 1',
      defaultRoute: 'must start with "/"',
      'pages[0].path': expect.stringContaining('must be a path such as /about'),
      'pages[0].children[0].key': 'must be a lowercase answer key (a-z, 0-9, _)',
      'pages[0].children[0].label': 'is missing',
      'config.help_email': 'must be an e-mail address such as help@college.edu',
      'config.time_zone': 'must be a time zone name such as America/Chicago or UTC',
      'config.colors.primary': 'is missing',
      'offer.heading': 'must not be empty',
      'offer.items': 'must list at least one entry',
      'alerts[0].start': expect.stringContaining('must be a date and time'),
      'alerts[0].end': 'must be text, not a number',
    });
    for (const { message } of problems) {
      expect(message).not.toMatch(/\/\^|\$\/|Invalid|expected|received/);
    }
  });

  it('names the line and column of a JSON syntax error', () => {
    expect(parseJson('{ "id": ')).toEqual({
      ok: false,
      problem: { path: 'line 1, column 9', message: 'the file ends before a value' },
    });
    expect(parseJson('{\n  "a": 1,\n}')).toMatchObject({
      problem: { path: 'line 2, column 9', message: 'a comma may not come just before }' },
    });
    expect(parseJson("{ 'a': 1 }")).toMatchObject({ problem: { path: 'line 1, column 3' } });
  });
});

describe('the colleges in the repository', () => {
  it.each(['northfield', 'riverside'])('%s: both files pass every check', (college) => {
    const definition = readTenantFile(`${college}/definition.json`);
    const institution = readTenantFile(`${college}/institution.json`);
    expect(definitionFileProblems(definition).problems).toEqual([]);
    expect(institutionFileProblems(institution).problems).toEqual([]);
    expect(kindOfFile(definition)).toBe('definition');
    expect(kindOfFile(institution)).toBe('institution');
  });

  it('accepts upper-case hex colours, in the server and in the JSON Schema', () => {
    const institution = readTenantFile('riverside/institution.json');
    institution.config.colors.primary = '#0B6E4F';
    expect(institutionFileProblems(institution).problems).toEqual([]);
    const schema = readTenantFile('schemas/institution.schema.json');
    const pattern = schema.properties.config.properties.colors.properties.primary.pattern;
    expect(new RegExp(pattern).test('#0B6E4F')).toBe(true);
    expect(new RegExp(pattern).test('green')).toBe(false);
  });

  it('describes the fields of both JSON Schemas', () => {
    const institution = readTenantFile('schemas/institution.schema.json');
    const definition = readTenantFile('schemas/definition.schema.json');
    for (const schema of [institution, definition]) {
      expect(schema.description).toEqual(expect.any(String));
      for (const [name, property] of Object.entries<Record<string, unknown>>(schema.properties))
        expect(property.description, name).toEqual(expect.any(String));
    }
    expect(institution.properties.config.properties.colors.properties.primary.description).toMatch(
      /hex/,
    );
  });
});
