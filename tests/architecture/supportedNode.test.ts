/**
 * The product runs on the maintained LTS lines of Node.js (D200): a Node too old to run it stops
 * every entry script with one sentence, not a stack trace; Node 20, past its end of life, runs with
 * a one-line warning; 22.12+ and 24 run quietly. `package.json`'s `engines` says the same.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionVerdict } from '../../scripts/nodeVersion.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY_SCRIPTS = ['start', 'test', 'dev', 'server'].map((name) => `scripts/${name}.mjs`);

/** Runs an entry script as if Node.js were `version` (a preload rewrites `process.versions.node`). */
function runAs(version: string, script: string, args: string[]) {
  const preload = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}})`;
  const env = { ...process.env };
  delete env.NODE_VERSION_WARNED;
  return spawnSync(process.execPath, ['--import', preload, script, ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 15_000,
  });
}

describe('supported Node.js lines', () => {
  it.each(['18.20.4', '20.18.3', '16.0.0'])('Node %s is refused', (version) => {
    expect(nodeVersionVerdict(version).fatal).toMatch(/^This is Node\.js .* cannot run this product/);
  });

  it.each(['20.19.0', '20.20.2', '21.7.3', '22.11.0', '23.11.1'])(
    'Node %s runs with a warning',
    (version) => {
      const verdict = nodeVersionVerdict(version);
      expect(verdict.fatal).toBeUndefined();
      expect(verdict.warning).toContain('Node.js 22 (22.12 or newer) or 24');
    },
  );

  it('Node 20 is named as past its end of life', () => {
    expect(nodeVersionVerdict('20.20.2').warning).toContain('end of life on 2026-04-30');
  });

  it.each(['22.12.0', '22.23.5', '24.0.0', '24.22.3', '26.1.0'])('Node %s runs quietly', (version) => {
    expect(nodeVersionVerdict(version)).toEqual({});
  });

  it('on a Node too old, `npm start` says so in one sentence and exits 1', () => {
    const result = runAs('18.20.4', 'scripts/start.mjs', ['--help']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([nodeVersionVerdict('18.20.4').fatal]);
  });

  it('on Node 20, `npm start` warns once and goes on', () => {
    const result = runAs('20.20.2', 'scripts/start.mjs', ['--help']);
    expect(result.status).toBe(0);
    expect(result.stderr.trim()).toBe(nodeVersionVerdict('20.20.2').warning);
    expect(result.stdout).toContain('Usage: npm start');
  });

  it.each(ENTRY_SCRIPTS)('%s checks the version before any other import', (script) => {
    const source = readFileSync(path.join(ROOT, script), 'utf8');
    const firstImport = source.match(/^import .*$/m)?.[0];
    expect(firstImport).toBe("import './requireNode.mjs';");
  });

  it('package.json names the supported lines', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(manifest.engines.node).toBe('^22.12.0 || >=24.0.0');
  });
});
