import { describe, expect, it } from 'vitest';
import {
  applyClearing,
  isVisible,
  keysToClear,
  visiblePage,
  visibleView,
  type PageView,
  type ViewNode,
} from '../../runtime';
import { applicationDefinition } from '../../definitions';
import { miniDefinition } from '../fixtures/miniDefinition';

/** Every question key in a resolved page, in order. */
function keysOf(nodes: readonly ViewNode[]): string[] {
  return nodes.flatMap((node): string[] => {
    switch (node.kind) {
      case 'question':
        return [node.key, ...(node.questionKind === 'radio' ? keysOf(node.content) : [])];
      case 'checkboxTrigger':
        return [node.checkbox.key, ...keysOf(node.children)];
      case 'repeat':
        return node.instances.flatMap((instance) => keysOf(instance.children));
      case 'paragraph':
        return [];
      default:
        return keysOf(node.children);
    }
  });
}
const pageKeys = (page: PageView | null) => (page ? keysOf(page.children) : []);

describe('sections', () => {
  it('hide while their hideWhen holds and show otherwise', () => {
    expect(pageKeys(visiblePage(miniDefinition, {}, 'one'))).not.toContain('pet_name');
    expect(pageKeys(visiblePage(miniDefinition, { has_pets: 'Y' }, 'one'))).toEqual(
      expect.arrayContaining(['pet_name', 'pet_age']),
    );
  });

  it('clear only their listed keys when hidden', () => {
    expect(
      keysToClear(miniDefinition, {}, { has_pets: 'N', pet_name: 'Rex', pet_age: '3' }),
    ).toEqual(['pet_name']);
  });
});

describe('radio-driven content', () => {
  it('shows the content of the chosen value only', () => {
    const page = visiblePage(miniDefinition, { travel: 'Y' }, 'one');
    const travel = page?.children.find((node) => node.kind === 'question' && node.key === 'travel');
    expect(
      travel?.kind === 'question' && travel.questionKind === 'radio' ? keysOf(travel.content) : [],
    ).toEqual(['destination']);
    expect(pageKeys(visiblePage(miniDefinition, { travel: 'N' }, 'one'))).not.toContain(
      'destination',
    );
  });

  it('clears the content of a value no longer chosen', () => {
    expect(keysToClear(miniDefinition, {}, { travel: 'N', destination: 'Paris' })).toEqual([
      'destination',
    ]);
  });
});

describe('mutually exclusive groups', () => {
  it('keep the keys of the first case that holds and clear the others', () => {
    const answers = { kind: 'a', shared: 's', only_a: 'a', only_b: 'b' };
    expect(keysToClear(miniDefinition, {}, answers)).toEqual(['only_b']);
    expect(pageKeys(visiblePage(miniDefinition, answers, 'one'))).toEqual(
      expect.arrayContaining(['shared', 'only_a']),
    );
  });

  it('keep a key shared by the winning case even when a losing case lists it too', () => {
    expect(
      keysToClear(miniDefinition, {}, { kind: 'b', shared: 's', only_a: 'a', only_b: 'b' }),
    ).toEqual(['only_a']);
  });

  it('clear every case when none holds', () => {
    expect(
      keysToClear(miniDefinition, {}, { kind: 'z', shared: 's', only_a: 'a', only_b: 'b' }).sort(),
    ).toEqual(['only_a', 'only_b', 'shared']);
  });
});

describe('conditional selects', () => {
  it('displayAndOptions offers the list keyed by the controlling answer', () => {
    const page = visiblePage(miniDefinition, { colour: 'R' }, 'one');
    const shade = page?.children.find((node) => node.kind === 'question' && node.key === 'shade');
    expect(
      shade?.kind === 'question' && shade.questionKind === 'select'
        ? shade.options.map((o) => o.value)
        : null,
    ).toEqual(['--', 'CRIMSON']);
  });

  it('displayAndOptions hides the question when the list offers nothing', () => {
    expect(isVisible(miniDefinition, { colour: 'G' }, 'shade')).toBe(false);
    expect(isVisible(miniDefinition, {}, 'shade')).toBe(false);
  });

  it('clears the dependent answer and its _desc when the controlling answer changes', () => {
    const before = { colour: 'R', shade: 'CRIMSON', shade_desc: 'Crimson' };
    expect(keysToClear(miniDefinition, before, { ...before, colour: 'G' }).sort()).toEqual([
      'shade',
      'shade_desc',
    ]);
  });

  it('keeps the dependent answer while the controlling answer is unchanged', () => {
    const answers = { colour: 'R', shade: 'CRIMSON', shade_desc: 'Crimson' };
    expect(keysToClear(miniDefinition, answers, answers)).toEqual([]);
  });

  it('displayOnly shows the question only while its condition holds (institution: degree per college)', () => {
    expect(
      isVisible(
        applicationDefinition,
        { attend_college: 'Y', college_credit_earned: 'Y' },
        'college_degree_earned',
      ),
    ).toBe(true);
    expect(
      isVisible(
        applicationDefinition,
        { attend_college: 'Y', college_credit_earned: 'N' },
        'college_degree_earned',
      ),
    ).toBe(false);
    expect(
      keysToClear(
        applicationDefinition,
        {},
        { attend_college: 'Y', college_credit_earned: 'N', college_degree_earned: 'BACH' },
      ),
    ).toEqual(['college_degree_earned']);
  });
});

describe('triggers', () => {
  it('a checkbox switches between before and after content and clears the hidden side', () => {
    expect(pageKeys(visiblePage(miniDefinition, {}, 'two'))).toContain('other_address');
    expect(pageKeys(visiblePage(miniDefinition, { same_address: true }, 'two'))).not.toContain(
      'other_address',
    );
    expect(
      keysToClear(miniDefinition, {}, { same_address: true, other_address: '1 Main St' }),
    ).toEqual(['other_address']);
  });

  it('a button reveals its content once clicked, and content holding answers stays revealed', () => {
    const trigger = (view: PageView | null) =>
      view?.children.find((node) => node.kind === 'buttonTrigger');
    expect(trigger(visiblePage(miniDefinition, {}, 'two'))).toMatchObject({
      revealed: false,
      children: [],
    });
    expect(
      trigger(visiblePage(miniDefinition, {}, 'two', { triggers: { extra: true } })),
    ).toMatchObject({ revealed: true });
    expect(trigger(visiblePage(miniDefinition, { note: 'hello' }, 'two'))).toMatchObject({
      revealed: true,
    });
  });

  it('an unclicked button never clears what it hides', () => {
    expect(keysToClear(miniDefinition, {}, { note: 'kept' })).toEqual([]);
  });
});

describe('tabs', () => {
  const tabs = (view: PageView | null) => view?.children.find((node) => node.kind === 'tabs');

  it('show the default tab until another is chosen', () => {
    expect(tabs(visiblePage(miniDefinition, {}, 'two'))).toMatchObject({
      chosen: 'upload',
      defaultTab: 'upload',
    });
    expect(pageKeys(visiblePage(miniDefinition, {}, 'two'))).toContain('proof_file');
    expect(pageKeys(visiblePage(miniDefinition, {}, 'two', { tabs: { proof: 'mail' } }))).toContain(
      'tracking',
    );
  });

  it('fall back to the default tab for an unknown choice', () => {
    expect(tabs(visiblePage(miniDefinition, {}, 'two', { tabs: { proof: 'fax' } }))).toMatchObject({
      chosen: 'upload',
    });
  });

  it("clear the left tab's listed keys", () => {
    expect(
      keysToClear(miniDefinition, {}, { proof_file: 'ANSWERED' }, { tabs: { proof: 'mail' } }),
    ).toEqual(['proof_file']);
  });
});

describe('add-another', () => {
  const repeat = (view: PageView | null, id: string) =>
    view?.children.find((node) => node.kind === 'repeat' && node.id === id);

  it('shows one instance by default, and the saved count otherwise', () => {
    expect(repeat(visiblePage(miniDefinition, {}, 'two'), 'people')).toMatchObject({
      instances: [{ number: 1, title: 'Person 1' }],
      addAnother: { buttonId: 'person', shown: 1, max: 3, canAdd: true },
    });
    const view = repeat(
      visiblePage(miniDefinition, {}, 'two', { addAnother: { person: 3 } }),
      'people',
    );
    expect(view).toMatchObject({ addAnother: { shown: 3, canAdd: false } });
    expect(view?.kind === 'repeat' ? keysOf(view.instances[2]!.children) : []).toEqual([
      'person_3_email',
      'person_3_works',
      'person_3_employer',
    ]);
  });

  it('uses the _N suffix for suffix instances', () => {
    const view = repeat(
      visiblePage(miniDefinition, {}, 'two', { addAnother: { award: 2 } }),
      'awards',
    );
    expect(
      view?.kind === 'repeat' ? view.instances.flatMap((i) => keysOf(i.children)) : [],
    ).toEqual(['award', 'award_2']);
  });

  it('clamps a saved count to the group maximum', () => {
    expect(
      repeat(visiblePage(miniDefinition, {}, 'two', { addAnother: { award: 99 } }), 'awards'),
    ).toMatchObject({
      addAnother: { shown: 3, canAdd: false },
    });
  });

  it('shows an instance that holds answers even when the count is lower', () => {
    expect(isVisible(miniDefinition, { award_3: 'Prize' }, 'award_3')).toBe(true);
    expect(isVisible(miniDefinition, {}, 'award_3')).toBe(false);
  });
});

describe('applyClearing', () => {
  it('clears in cascade until nothing more hides, with the empty value of each key', () => {
    const result = applyClearing(
      applicationDefinition,
      {},
      {
        attend_college: 'N',
        college_name: 'State U',
        college_credit_earned: 'Y',
        college_degree_earned: 'BACH',
        college_degree_earned_desc: "Bachelor's degree",
      },
    );
    expect(result.cleared.sort()).toEqual(
      [
        'college_credit_earned',
        'college_degree_earned',
        'college_degree_earned_desc',
        'college_name',
      ].sort(),
    );
    expect(result.answers.college_name).toBe('');
  });

  it('clears check boxes to false', () => {
    const result = applyClearing(
      applicationDefinition,
      { gender: 'M' },
      { gender: 'X', activity_senior: true },
    );
    expect(result.answers.activity_senior).toBe(false);
  });
});

describe('the institution definition (SPEC 4.7)', () => {
  it('shows and keeps the activities only when gender is M or F', () => {
    expect(isVisible(applicationDefinition, { gender: 'M' }, 'activity_name')).toBe(true);
    expect(isVisible(applicationDefinition, { gender: 'F' }, 'activity_name')).toBe(true);
    expect(isVisible(applicationDefinition, { gender: 'X' }, 'activity_name')).toBe(false);
    expect(isVisible(applicationDefinition, {}, 'activity_name')).toBe(false);
    const answers = {
      gender: 'N',
      activity_name: 'Chess',
      activity_2_name: 'Band',
      activity_2_senior: true,
    };
    expect(
      keysToClear(applicationDefinition, { gender: 'M' }, answers, {
        addAnother: { activity: 2 },
      }).sort(),
    ).toEqual(['activity_2_name', 'activity_2_senior', 'activity_name']);
  });

  it('asks citizenship details per citizen type and clears the others', () => {
    expect(isVisible(applicationDefinition, { citizenship_type: '1' }, 'ssn')).toBe(true);
    expect(
      isVisible(applicationDefinition, { citizenship_type: '2' }, 'alien_registration_number'),
    ).toBe(true);
    expect(
      isVisible(applicationDefinition, { citizenship_type: '3' }, 'citizenship_visa_status'),
    ).toBe(true);
    expect(isVisible(applicationDefinition, { citizenship_type: '3' }, 'ssn')).toBe(false);
    expect(
      keysToClear(
        applicationDefinition,
        {},
        { citizenship_type: '2', birth_country: 'MEX', citizenship: 'MEX', ssn: '123-45-6789' },
      ),
    ).toEqual(['citizenship']);
  });

  it('offers US states for USA, Canadian provinces for CAN, and no state elsewhere', () => {
    const state = (country: string) => {
      const about = visibleView(applicationDefinition, { country })[0]!;
      const section = about.children.find(
        (node) => node.kind === 'section' && node.id === 'permanent_address',
      );
      const question =
        section?.kind === 'section'
          ? section.children.find((n) => n.kind === 'question' && n.key === 'state')
          : undefined;
      return question?.kind === 'question' && question.questionKind === 'select'
        ? question.options
        : null;
    };
    expect(state('USA')?.map((o) => o.value)).toEqual(
      expect.arrayContaining(['--', 'Vermont', 'Armed Forces Europe']),
    );
    expect(state('USA')).toHaveLength(63);
    expect(state('CAN')?.map((o) => o.value)).toEqual(expect.arrayContaining(['Quebec', 'Yukon']));
    expect(state('FRA')).toBeNull();
  });

  it('keeps a parent address only while it is not the same as the permanent one', () => {
    expect(
      keysToClear(
        applicationDefinition,
        {},
        {
          parent_addr_same_as_perm_addr: true,
          parent_city: 'Boston',
          parent_address_line_1: '1 Elm',
        },
      ).sort(),
    ).toEqual(['parent_address_line_1', 'parent_city']);
  });
});

describe('required, resolved for the current answers', () => {
  const requiredOf = (answers: Record<string, unknown>, key: string) => {
    const find = (nodes: readonly ViewNode[]): boolean | undefined => {
      for (const node of nodes) {
        if (node.kind === 'question' && node.key === key) return node.required;
        const children =
          node.kind === 'repeat'
            ? node.instances.flatMap((i) => i.children)
            : 'children' in node
              ? node.children
              : [];
        const content =
          node.kind === 'question' && node.questionKind === 'radio' ? node.content : [];
        const inner = find([...children, ...content]);
        if (inner !== undefined) return inner;
      }
      return undefined;
    };
    return find(visibleView(applicationDefinition, answers).flatMap((page) => page.children));
  };

  it('marks always-required questions and leaves optional ones', () => {
    expect(requiredOf({}, 'first_name')).toBe(true);
    expect(requiredOf({}, 'middle_name')).toBe(false);
    expect(requiredOf({}, 'legal_agree')).toBe(true);
  });

  it('follows conditional rules: home phone is required only while no other number is given', () => {
    expect(requiredOf({}, 'phone_home')).toBe(true);
    expect(requiredOf({ phone_mobile: '(212) 555-0123' }, 'phone_home')).toBe(false);
    expect(requiredOf({}, 'phone_mobile')).toBe(false);
    expect(requiredOf({ optin_sms_ind: true }, 'phone_mobile')).toBe(true);
    expect(requiredOf({ country: 'USA' }, 'zip')).toBe(true);
    expect(requiredOf({ country: 'FRA' }, 'zip')).toBe(false);
  });
});
