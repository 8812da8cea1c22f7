/**
 * The example's own check, run after `npm run build` against the installed packages: what an
 * integrator would notice if the packages broke. Prints one line per check; exits non-zero if any
 * failed. (No Node types: the app type-checks against the packages' declarations and React's only.)
 */
import { applyClearing, validateAnswers } from '@admission-platform/form-runtime';
import { renderApplicationHtml } from '@admission-platform/form-renderers/print/render';
import { definition } from './definition.js';
import { renderOwnerPage } from './page.js';

const assert = {
  deepEqual(actual: unknown, expected: unknown) {
    const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
    if (a !== e) throw new Error(`expected ${e}, got ${a}`);
  },
  equal(actual: unknown, expected: unknown) {
    if (actual !== expected) throw new Error(`expected ${String(expected)}, got ${String(actual)}`);
  },
  match(text: string, pattern: RegExp) {
    if (!pattern.test(text)) throw new Error(`expected ${String(pattern)} in ${text}`);
  },
  doesNotMatch(text: string, pattern: RegExp) {
    if (pattern.test(text)) throw new Error(`did not expect ${String(pattern)} in ${text}`);
  },
};

const checks: [string, () => void][] = [
  [
    'a missing required answer gives the definition’s message, drawn by the app’s renderers',
    () => {
      const { errors } = validateAnswers(definition, {});
      assert.deepEqual(errors, { first_name: ['Please tell us your first name.'] });
      const html = renderOwnerPage({}, errors);
      assert.match(
        html,
        /<p id="[^"]+" class="pet-error" role="alert">Please tell us your first name\.<\/p>/,
      );
      assert.match(html, /<input id="first_name" aria-invalid="true" name="first_name"/);
    },
  ],
  [
    'a hidden question is not drawn and not required',
    () => {
      const answers = { first_name: 'Ada', has_pets: 'N' };
      assert.doesNotMatch(renderOwnerPage(answers), /Pet name/);
      assert.deepEqual(validateAnswers(definition, answers).errors, {});
    },
  ],
  [
    'a shown question is drawn and validated',
    () => {
      const answers = { first_name: 'Ada', has_pets: 'Y' };
      assert.match(
        renderOwnerPage(answers),
        /<legend>Your pet<\/legend>.*<label for="pet_name">Pet name \*<\/label>/,
      );
      assert.deepEqual(validateAnswers(definition, answers).errors, {
        pet_name: ["Please tell us your pet's name."],
      });
    },
  ],
  [
    'hiding a section clears the answers it lists',
    () => {
      const before = { first_name: 'Ada', has_pets: 'Y', pet_name: 'Babbage' };
      const { answers, cleared } = applyClearing(definition, before, { ...before, has_pets: 'N' });
      assert.deepEqual(cleared, ['pet_name']);
      assert.equal(answers.pet_name, '');
    },
  ],
  [
    'the print set renders the answers as text',
    () => {
      const html = renderApplicationHtml({
        definition,
        answers: { first_name: 'Ada', has_pets: 'N', has_pets_desc: 'No' },
        now: new Date('2026-01-15T12:00:00Z'),
      });
      assert.match(html, /^<!doctype html>/);
      assert.match(html, /<title>Pet registration – Ada<\/title>/);
      assert.match(html, /First name.*Ada/s);
      assert.doesNotMatch(html, /<input/);
    },
  ],
];

let failed = 0;
for (const [name, check] of checks) {
  try {
    check();
    console.log(`ok - ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`not ok - ${name}\n${String(error)}`);
  }
}
if (failed > 0) throw new Error(`${failed} of ${checks.length} checks failed`);
