/**
 * `npm run bench [name]`: runs every benchmark (or those whose name contains `name`), prints its
 * figures and fails when a target is missed.
 */
import { runAnswersBench } from './answers.bench';
import { runBundleBench } from './bundle.bench';
import { runDeadlineBench } from './deadline';
import { runLookupBench } from './lookup';
import { runConversionBench } from './conversion.bench';
import { runPdfBench } from './pdf.bench';
import { runPhoneBench } from './phone.bench';
import { runQueueBench } from './queue.bench';
import { runRequestCpuBench } from './requestCpu';
import { runRuntimeBench } from './runtime.bench';
import { runStaffListingBench } from './staffListing.bench';

const suites: [string, () => Promise<{ ok: boolean; lines: string[] }>][] = [
  ['runtime (D14)', runRuntimeBench],
  ['autosave load', runAnswersBench],
  ['bundle size (D110)', runBundleBench],
  ['phone: slow 4G and a slow CPU (D84)', runPhoneBench],
  ['deadline load (D39)', runDeadlineBench],
  ['requestcpu: CPU and statements per request (D130)', runRequestCpuBench],
  ['lookup (D45)', runLookupBench],
  ['conversion', runConversionBench],
  ['application pdf (D124)', runPdfBench],
  ['staff listing (D108)', runStaffListingBench],
  ['queue: claims with a season of finished jobs (D136)', runQueueBench],
];

const only = process.argv[2];
let failed = false;
for (const [name, run] of suites.filter(([suite]) => !only || suite.includes(only))) {
  const { ok, lines } = await run();
  console.log(`\n## ${name}: ${ok ? 'targets met' : 'TARGET MISSED'}`);
  for (const line of lines) console.log(`  ${line}`);
  if (!ok) failed = true;
}
process.exitCode = failed ? 1 : 0;
