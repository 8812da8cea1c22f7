/** `npm run bench`: runs every benchmark, prints its figures and fails when a target is missed. */
import { runRuntimeBench } from './runtime.bench';

const suites: [string, () => Promise<{ ok: boolean; lines: string[] }>][] = [
  ['runtime (issue 2)', runRuntimeBench],
];

let failed = false;
for (const [name, run] of suites) {
  const { ok, lines } = await run();
  console.log(`\n## ${name}: ${ok ? 'targets met' : 'TARGET MISSED'}`);
  for (const line of lines) console.log(`  ${line}`);
  if (!ok) failed = true;
}
process.exitCode = failed ? 1 : 0;
