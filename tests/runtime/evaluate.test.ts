import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  applyClearing,
  dataModelKeys,
  evaluate,
  validateAnswers,
  visiblePage,
  type Evaluation,
  type ViewState,
} from '../../runtime';
import { compile, instrumentation } from '../../runtime/internal';
import { applicationDefinition } from '../../definitions';

const model = compile(applicationDefinition);
const now = new Date(2026, 5, 15);
const keys = dataModelKeys(applicationDefinition);
const value = fc.constantFrom(
  '',
  'Y',
  'N',
  'USA',
  'CAN',
  '1',
  '2',
  '3',
  'x',
  true,
  false,
  '2000-01-01',
);
const patch = fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 3 });
const states: ViewState[] = [
  {},
  { addAnother: { parent: 2, activity: 3 } },
  { tabs: { transcript: 'counselor' }, addAnother: { legacy: 2 } },
];

/** Counts walks and validated keys while `run` runs. */
function counting(run: () => void): { walks: number; validated: string[] } {
  const counts = { walks: 0, validated: [] as string[] };
  instrumentation.onWalk = () => (counts.walks += 1);
  instrumentation.onValidateKey = (key) => counts.validated.push(key);
  try {
    run();
  } finally {
    delete instrumentation.onWalk;
    delete instrumentation.onValidateKey;
  }
  return counts;
}

afterEach(() => {
  delete instrumentation.onWalk;
  delete instrumentation.onValidateKey;
});

describe('evaluate: one pass per change, the same results as the separate calls', () => {
  it('agrees with applyClearing, validateAnswers and visiblePage over random edit sequences', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(patch, fc.nat({ max: 9 })), { minLength: 1, maxLength: 12 }),
        (steps) => {
          let evaluation: Evaluation | null = null;
          let answers: Record<string, unknown> = {};
          let state: ViewState = {};
          for (const [change, pick] of steps) {
            if (pick < states.length) state = states[pick]!;
            const after = { ...answers, ...change };
            const expected = applyClearing(applicationDefinition, answers, after, state);
            evaluation = evaluate(applicationDefinition, after, state, {
              now,
              previous: evaluation,
            });
            expect(evaluation.answers).toEqual(expected.answers);
            expect(evaluation.errors).toEqual(
              validateAnswers(applicationDefinition, evaluation.answers, { ...state, now }).errors,
            );
            for (const page of ['about', 'education'])
              expect(evaluation.page(page)).toEqual(
                visiblePage(applicationDefinition, evaluation.answers, page, { ...state, now }),
              );
            answers = evaluation.answers as Record<string, unknown>;
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('typing into a field no condition reads costs no walk and re-validates that key only', () => {
    const state: ViewState = {};
    let evaluation = evaluate(applicationDefinition, {}, state, { now });
    const about = evaluation.page('about');
    const counts = counting(() => {
      for (const text of ['M', 'Ma', 'May']) {
        evaluation = evaluate(
          applicationDefinition,
          { ...evaluation.answers, first_name: text },
          state,
          {
            now,
            previous: evaluation,
          },
        );
      }
    });
    expect(counts).toEqual({ walks: 0, validated: ['first_name', 'first_name', 'first_name'] });
    expect(evaluation.page('about')).toBe(about);
    expect(evaluation.errors.first_name).toBeUndefined();
  });

  it('a change that can show or hide content costs one walk, and re-validates its dependants', () => {
    const state: ViewState = {};
    let evaluation = evaluate(applicationDefinition, {}, state, { now });
    expect(evaluation.errors.phone_home).toBeDefined();
    const counts = counting(() => {
      evaluation = evaluate(
        applicationDefinition,
        { ...evaluation.answers, phone_mobile: '(802) 555-0142' },
        state,
        { now, previous: evaluation },
      );
    });
    expect(counts.walks).toBe(1);
    expect(counts.validated).toContain('phone_home');
    expect(counts.validated.length).toBeLessThan(model.checked.length / 4);
    expect(evaluation.errors.phone_home).toBeUndefined();
  });

  it('a change that clears hidden answers walks once more per round of clearing', () => {
    const state: ViewState = {};
    const start = { country: 'USA', state: 'VT', zip: '05401' };
    let evaluation = evaluate(applicationDefinition, start, state, { now });
    const counts = counting(() => {
      evaluation = evaluate(applicationDefinition, { ...evaluation.answers, country: '' }, state, {
        now,
        previous: evaluation,
      });
    });
    const expected = applyClearing(applicationDefinition, start, { ...start, country: '' }, state);
    expect(evaluation.cleared).toEqual(expected.cleared);
    expect(counts.walks).toBe(expected.cleared.length > 0 ? 2 : 1);
  });
});

describe('facts on the view', () => {
  it("gives each question the limit the server holds its answer to (SPEC 5.7 defaults, the question's own)", async () => {
    const { questionsOf } = await import('../../runtime');
    const about = visiblePage(applicationDefinition, {}, 'about', { now })!;
    const views = questionsOf([about]);
    const limits = new Map(views.map((q) => [q.key, 'maxLength' in q ? q.maxLength : null]));
    expect(limits.get('first_name')).toBe(45);
    expect(limits.get('email_address')).toBe(254);
    // A date is held to its form (an ISO date), not a length; the field's mask bounds what is typed.
    expect(limits.get('birth_date')).toBeNull();
    // Typed answers carry their limit; a choice's answer is one of its options, so its view has none.
    const typed = ['text', 'textarea', 'phone', 'ssn', 'number', 'lookup'];
    for (const view of views) {
      const spec = model.keySpecs.get(view.key);
      if (typed.includes(view.questionKind))
        expect(limits.get(view.key)).toBe(spec?.type === 'text' ? spec.maxLength : 'no limit');
      else expect(view).not.toHaveProperty('maxLength');
    }
  });
});
