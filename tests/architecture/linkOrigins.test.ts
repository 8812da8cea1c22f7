/**
 * Every college's links lead to that college (D196): the server builds a link's origin with
 * `tenantOrigin` (server/tenantOrigin.ts, reached as `ServiceContext.originOf`), never from PUBLIC_ORIGIN
 * itself, so no link builder can send one college's applicants or staff to another. Only the files
 * below read `publicOrigin`, none of them to build a link.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const READERS: Readonly<Record<string, string>> = {
  'server/config.ts': 'reads PUBLIC_ORIGIN',
  'server/tenantOrigin.ts': 'tenantOrigin: the one place a link origin is made',
  'server/app.ts': "the Origin check of a request's state-changing call",
  'server/main.ts': 'the start-up line naming where the server listens',
};

/** The server's TypeScript files that git tracks or would track, with their text. */
function serverSources(): [string, string][] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', 'server'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return listed
    .split('\n')
    .filter((path) => path.endsWith('.ts'))
    .flatMap((path): [string, string][] => {
      try {
        return [[path, readFileSync(join(ROOT, path), 'utf8')]];
      } catch {
        return []; // deleted in the work tree but not yet in the index
      }
    });
}

describe('link origins (D196)', () => {
  const sources = serverSources();

  it('finds the sources it checks', () => {
    expect(sources.map(([path]) => path)).toEqual(
      expect.arrayContaining(['server/tenantOrigin.ts', 'server/mail/templates.ts']),
    );
  });

  it('reads PUBLIC_ORIGIN only where no link is built', () => {
    const readers = sources
      .filter(([, text]) => /\bpublicOrigin\b|PUBLIC_ORIGIN/.test(text))
      .map(([path]) => path)
      .filter((path) => !(path in READERS));
    expect(readers).toEqual([]);
  });
});
