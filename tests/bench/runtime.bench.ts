/**
 * Runtime benchmark (D14): full validation of a realistic half-filled application and of
 * an error-heavy one against a hand-written loop of the same checks, and the cost of one field's re-validation (a keystroke),
 * all measured in the same run. Run with `npm run bench`.
 */
import { isDeepStrictEqual } from 'node:util';
import { Bench } from 'tinybench';
import * as runtime from '../../runtime';
import * as definitions from '../../definitions';
import { errorHeavyApplication, errorHeavyState } from './errorHeavy';
import { halfFilledApplication, halfFilledState } from './halfFilled';
import { handWrittenValidate } from './handWritten';

// Bound to locals: the TypeScript loader turns imported bindings into getters, a harness cost that
// would weigh more on the small operations than on the large ones.
const { compile, validateAnswers, validateField, visiblePage } = runtime;
const { applicationDefinition, applicationDefinitionData } = definitions;
const now = new Date(2026, 5, 15);
const options = { now, ...halfFilledState };
const heavyOptions = { now, ...errorHeavyState };

export async function runRuntimeBench(): Promise<{ ok: boolean; lines: string[] }> {
  const ours = validateAnswers(applicationDefinition, halfFilledApplication, options).errors;
  const baseline = handWrittenValidate(halfFilledApplication, now, halfFilledState.addAnother);
  if (!isDeepStrictEqual(ours, baseline)) {
    return {
      ok: false,
      lines: [
        'The hand-written baseline and the runtime disagree:',
        JSON.stringify({ ours, baseline }, null, 1),
      ],
    };
  }

  const heavy = validateAnswers(applicationDefinition, errorHeavyApplication, heavyOptions).errors;
  const heavyBaseline = handWrittenValidate(errorHeavyApplication, now, errorHeavyState.addAnother);
  if (!isDeepStrictEqual(heavy, heavyBaseline)) {
    return {
      ok: false,
      lines: [
        'The hand-written baseline and the runtime disagree on the error-heavy application:',
        JSON.stringify({ ours: heavy, baseline: heavyBaseline }, null, 1),
      ],
    };
  }

  const coldStart = performance.now();
  compile(structuredClone(applicationDefinitionData));
  const coldMs = performance.now() - coldStart;

  // Each task runs BATCH calls per timed iteration, so the harness's own timing overhead (about
  // 0.1 µs per iteration) does not swamp sub-microsecond operations; means are divided back.
  const BATCH = 50;
  const ruleKeys = [
    ...new Set(compile(applicationDefinition).checked.map((instance) => instance.key)),
  ];
  const allKeys = runtime.dataModelKeys(applicationDefinition);
  let sink = 0;
  const bench = new Bench({ time: 1500, warmupTime: 300 });
  bench
    .add('hand-written loop (baseline)', () => {
      for (let i = 0; i < BATCH; i++)
        sink += Object.keys(
          handWrittenValidate(halfFilledApplication, now, halfFilledState.addAnother),
        ).length;
    })
    .add('runtime validateAnswers (full)', () => {
      for (let i = 0; i < BATCH; i++)
        sink += Object.keys(
          validateAnswers(applicationDefinition, halfFilledApplication, options).errors,
        ).length;
    })
    .add('hand-written loop (error-heavy)', () => {
      for (let i = 0; i < BATCH; i++)
        sink += Object.keys(
          handWrittenValidate(errorHeavyApplication, now, errorHeavyState.addAnother),
        ).length;
    })
    .add('runtime validateAnswers (error-heavy)', () => {
      for (let i = 0; i < BATCH; i++)
        sink += Object.keys(
          validateAnswers(applicationDefinition, errorHeavyApplication, heavyOptions).errors,
        ).length;
    })
    .add('runtime validateField (one keystroke)', () => {
      for (let i = 0; i < BATCH; i++)
        sink += validateField(
          applicationDefinition,
          halfFilledApplication,
          'phone_mobile',
          options,
        ).length;
    })
    .add('runtime validateField (every field with rules)', () => {
      for (const key of ruleKeys)
        sink += validateField(applicationDefinition, halfFilledApplication, key, options).length;
    })
    .add('runtime validateField (every answer key)', () => {
      for (const key of allKeys)
        sink += validateField(applicationDefinition, halfFilledApplication, key, options).length;
    })
    .add('runtime visiblePage (largest page)', () => {
      for (let i = 0; i < BATCH; i++)
        sink +=
          visiblePage(applicationDefinition, halfFilledApplication, 'about', options)?.children
            .length ?? 0;
    });
  await bench.run();

  const mean = (name: string) => {
    const task = bench.tasks.find((t) => t.name === name);
    const result = task?.result as { latency?: { mean?: number }; mean?: number } | undefined;
    return (result?.latency?.mean ?? result?.mean ?? Number.NaN) / BATCH;
  };
  const baselineMs = mean('hand-written loop (baseline)');
  const fullMs = mean('runtime validateAnswers (full)');
  const heavyBaselineMs = mean('hand-written loop (error-heavy)');
  const heavyMs = mean('runtime validateAnswers (error-heavy)');
  const heavyRatio = heavyMs / heavyBaselineMs;
  const fieldMs = mean('runtime validateField (one keystroke)');
  const everyFieldMs =
    (mean('runtime validateField (every field with rules)') * BATCH) / ruleKeys.length;
  const keystrokeMs = (mean('runtime validateField (every answer key)') * BATCH) / allKeys.length;
  const keystrokeShare = keystrokeMs / fullMs;
  const pageMs = mean('runtime visiblePage (largest page)');
  const fullRatio = fullMs / baselineMs;
  const fieldShare = fieldMs / fullMs;
  const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;
  const lines = [
    `errors in the half-filled application: ${Object.keys(ours).length} keys (identical in both)`,
    `hand-written loop:            ${us(baselineMs)} per validation`,
    `runtime full validation:      ${us(fullMs)} per validation  → ${fullRatio.toFixed(2)}x the hand-written loop (target ≤ 3x)`,
    `error-heavy application: ${Object.keys(heavy).length} keys in error (identical in both)`,
    `hand-written loop, error-heavy: ${us(heavyBaselineMs)} per validation`,
    `runtime full validation, error-heavy: ${us(heavyMs)} per validation  → ${heavyRatio.toFixed(2)}x the hand-written loop (target ≤ 1.3x)`,
    `runtime one-field validation: ${us(fieldMs)} for phone_mobile (2 rules: pattern, conditional required) → ${(fieldShare * 100).toFixed(2)}% of a full validation`,
    `runtime one-field validation, mean over the ${ruleKeys.length} fields with rules: ${us(everyFieldMs)} → ${((everyFieldMs / fullMs) * 100).toFixed(2)}% of a full validation (floor for an average rule-bearing field: 1/${ruleKeys.length} = ${(100 / ruleKeys.length).toFixed(2)}%)`,
    `runtime keystroke, mean over all ${allKeys.length} answer keys: ${us(keystrokeMs)} → ${(keystrokeShare * 100).toFixed(2)}% of a full validation (target < 2%)`,
    `runtime view of About You:    ${us(pageMs)}`,
    `compiling the definition once (cold): ${coldMs.toFixed(1)} ms`,
  ];
  if (sink < 0) lines.push(String(sink));
  return { ok: fullRatio <= 3 && heavyRatio <= 1.3 && keystrokeShare < 0.02, lines };
}
