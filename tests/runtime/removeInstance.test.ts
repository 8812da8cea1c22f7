import { describe, expect, it } from 'vitest';
import {
  canRemoveInstance,
  ConfigurationError,
  evaluate,
  instanceAnswered,
  removeInstance,
  visiblePage,
} from '../../runtime';
import { applicationDefinition } from '../../definitions';
import { miniDefinition } from '../fixtures/miniDefinition';

const mini = miniDefinition;
const people = {
  person_email: 'a@example.com',
  person_works: 'Y',
  person_employer: 'Acme',
  person_2_email: 'b@example.com',
  person_2_works: 'N',
  person_3_email: 'c@example.com',
  person_3_works: 'Y',
  person_3_employer: 'Initech',
};

describe('removing an added instance (SPEC 4.8, D148)', () => {
  it('moves the later instances down one and empties the last', () => {
    const removal = removeInstance(mini, 'people', 2, people, { person: 3 });
    expect(removal).toEqual({
      buttonId: 'person',
      count: 2,
      answers: {
        person_2_email: 'c@example.com',
        person_2_works: 'Y',
        person_2_employer: 'Initech',
        person_3_email: '',
        person_3_works: '',
        person_3_employer: '',
      },
    });
    const after = { ...people, ...removal.answers };
    const shown = visiblePage(miniDefinition, after, 'two', { addAnother: { person: 2 } });
    const repeat = shown?.children.find((node) => node.kind === 'repeat' && node.id === 'people');
    expect(repeat?.kind === 'repeat' && repeat.instances.map((i) => i.number)).toEqual([1, 2]);
  });

  it('removing the last instance only empties it, and the count never drops below 1', () => {
    expect(removeInstance(mini, 'people', 3, people, { person: 3 }).answers).toEqual({
      person_3_email: '',
      person_3_works: '',
      person_3_employer: '',
    });
    expect(removeInstance(mini, 'people', 2, {}, { person: 2 })).toEqual({
      buttonId: 'person',
      count: 1,
      answers: {},
    });
  });

  it('counts an instance shown for its answers past the saved count', () => {
    // The saved count says 1, but instance 3 holds answers, so 3 are on screen: 2 remain.
    const removal = removeInstance(mini, 'people', 2, { person_3_email: 'c@example.com' }, {});
    expect(removal.count).toBe(2);
    expect(removal.answers).toEqual({ person_2_email: 'c@example.com', person_3_email: '' });
  });

  it('works for suffix instances (award, award_2, award_3)', () => {
    const answers = { award: 'A', award_2: 'B', award_3: 'C' };
    expect(removeInstance(mini, 'awards', 2, answers, { award: 3 })).toEqual({
      buttonId: 'award',
      count: 2,
      answers: { award_2: 'C', award_3: '' },
    });
  });

  it('empties check boxes as false, so the server takes the save (activities)', () => {
    const answers = {
      activity_2_name: 'Chess',
      activity_2_freshman: true,
      activity_3_name: 'Band',
      activity_3_senior: true,
    };
    const removal = removeInstance(applicationDefinition, 'activities', 2, answers, {
      activity: 3,
    });
    expect(removal.answers).toMatchObject({
      activity_2_name: 'Band',
      activity_2_freshman: false,
      activity_2_senior: true,
      activity_3_name: '',
      activity_3_senior: false,
    });
    // What remains validates like any other answers: nothing new is required of instance 3.
    const evaluation = evaluate(
      applicationDefinition,
      { ...answers, ...removal.answers },
      {
        addAnother: { activity: removal.count },
      },
    );
    expect(Object.keys(evaluation.errors).filter((key) => key.startsWith('activity_3_'))).toEqual(
      [],
    );
  });

  it('offers removal for added instances only, and says whether one holds answers', () => {
    expect(canRemoveInstance(mini, 'people', 1)).toBe(false);
    expect(canRemoveInstance(mini, 'people', 2)).toBe(true);
    expect(canRemoveInstance(mini, 'people', 4)).toBe(false);
    expect(canRemoveInstance(mini, 'nothing', 2)).toBe(false);
    expect(instanceAnswered(mini, 'people', 2, people)).toBe(true);
    expect(instanceAnswered(mini, 'people', 2, { person_2_works: '' })).toBe(false);
    expect(() => removeInstance(mini, 'people', 1, people, {})).toThrow(ConfigurationError);
  });
});
