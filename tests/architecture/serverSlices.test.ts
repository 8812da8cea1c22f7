/**
 * The server's folder rule (D187): a feature is a vertical slice, one folder holding its routes and
 * its services, so no folder by layer (`server/routes/`, `server/services/`) comes back, and every
 * file that declares routes sits in its slice's folder under a name that says so.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import slices from '#server/slices.json';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The slices that serve HTTP, each with a `routes.ts` of its own: server/slices.json, the list
 * eslint.config.js also reads to keep each slice's inner files its own.
 */
const SLICES: readonly string[] = slices;

/** Server files that git tracks or would track (new files count before a commit). */
function serverFiles(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', 'server'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return listed
    .split('\n')
    .filter(Boolean)
    .filter((path) => {
      try {
        readFileSync(join(ROOT, path));
        return true;
      } catch {
        return false; // deleted in the work tree but not yet in the index
      }
    });
}

describe('the server is cut into vertical slices (D187)', () => {
  const files = serverFiles();

  it('finds the files it checks', () => {
    expect(files).toContain('server/app.ts');
  });

  it('has no folder by layer', () => {
    expect(files.filter((path) => /^server\/(routes|services)\//.test(path))).toEqual([]);
  });

  it('gives every slice its routes file', () => {
    expect(SLICES.filter((slice) => !files.includes(`server/${slice}/routes.ts`))).toEqual([]);
  });

  it('gives every slice the index.ts through which the rest of the server imports it', () => {
    expect(SLICES.filter((slice) => !files.includes(`server/${slice}/index.ts`))).toEqual([]);
  });

  it('keeps every file that declares routes in its slice, named for its routes', () => {
    const declaring = files.filter(
      (path) =>
        path.endsWith('.ts') &&
        /\bFastifyPluginAsync\b/.test(readFileSync(join(ROOT, path), 'utf8')),
    );
    expect(declaring.length).toBeGreaterThan(SLICES.length);
    // One folder below server/, named `routes.ts` or `<part>Routes.ts` (`uploadRoute.ts`).
    expect(
      declaring.filter(
        (path) => !/^server\/[A-Za-z]+\/([a-z][A-Za-z]*Routes?|routes)\.ts$/.test(path),
      ),
    ).toEqual([]);
  });
});
