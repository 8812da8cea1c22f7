import { describe, expect, it } from 'vitest';
import { ConfigurationError, loadDefinition, MAX_COMPONENTS_MESSAGE } from '../../runtime';
import { miniDefinition } from '../fixtures/miniDefinition';

/** A deep copy of the mini definition with one change applied. */
function variant(change: (definition: any) => void): unknown {
  const copy = structuredClone(miniDefinition) as any;
  change(copy);
  return copy;
}

function loadError(data: unknown): ConfigurationError {
  try {
    loadDefinition(data);
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('loadDefinition', () => {
  it('accepts a valid definition and returns it', () => {
    expect(loadDefinition(miniDefinition).id).toBe('mini');
  });

  it('survives a JSON round trip (the definition is plain data)', () => {
    const copy = JSON.parse(JSON.stringify(miniDefinition));
    expect(loadDefinition(copy).pages).toHaveLength(2);
  });

  it('names the path of an unknown question kind', () => {
    const error = loadError(variant((d) => (d.pages[0].children[0].kind = 'slider')));
    expect(error.message).toContain('Unknown kind "slider"');
    expect(error.path).toBe('pages[0].children[0].kind');
  });

  it('names the path of an unknown operator', () => {
    const error = loadError(
      variant((d) => (d.pages[0].children[3].hideWhen.operator = 'contains')),
    );
    expect(error.message).toContain('Unknown condition operator "contains"');
    expect(error.path).toContain('pages[0].children[3].hideWhen');
  });

  it("names the path of a target of the wrong shape, with the compiler's wording", () => {
    const error = loadError(
      variant((d) => {
        d.pages[0].children[3].hideWhen.operator = 'in';
        d.pages[0].children[3].hideWhen.target = 'USA';
      }),
    );
    expect(error.message).toContain('Invalid definition: Operator "in" needs a list as its target');
    expect(error.path).toContain('pages[0].children[3].hideWhen');
  });

  it('rejects unknown properties (typos fail loudly)', () => {
    const error = loadError(variant((d) => (d.pages[0].children[0].lable = 'Name')));
    expect(error.path).toContain('pages[0].children[0]');
  });

  it('rejects an add-another group over 10 instances with the spec message', () => {
    const error = loadError(variant((d) => (d.pages[1].children[1].instances.max = 11)));
    expect(error.message).toContain(MAX_COMPONENTS_MESSAGE);
    expect(MAX_COMPONENTS_MESSAGE).toBe('The maxNumberOfComponents cannot exceed 10');
  });

  it('accepts exactly 10 add-another instances', () => {
    expect(() =>
      loadDefinition(variant((d) => (d.pages[1].children[1].instances.max = 10))),
    ).not.toThrow();
  });

  it('rejects a default tab that is not one of the tabs', () => {
    const error = loadError(variant((d) => (d.pages[1].children[5].defaultTab = 'fax')));
    expect(error.message).toContain('Default tab "fax"');
    expect(error.path).toBe('pages[1].children[5]');
  });

  it('rejects an unknown option list', () => {
    expect(
      loadError(variant((d) => (d.pages[0].children[1].options = 'flavours'))).message,
    ).toContain('Unknown option list "flavours"');
  });

  it('rejects slot-scoped conditions outside a repeat', () => {
    const error = loadError(variant((d) => (d.pages[0].children[3].hideWhen.scope = 'slot')));
    expect(error.message).toContain('scope "slot" outside a repeat');
  });

  it('rejects a repeat inside a repeat', () => {
    const error = loadError(
      variant((d) => d.pages[1].children[0].children.push(structuredClone(d.pages[1].children[1]))),
    );
    expect(error.message).toContain('A repeat may not sit inside another repeat');
  });

  it('rejects an invalid regular expression in a pattern rule', () => {
    const error = loadError(variant((d) => (d.pages[1].children[2].rules[1].pattern = '(')));
    expect(error.message).toContain('valid regular expression');
  });

  it('rejects suffix instances without an add-another button', () => {
    const error = loadError(variant((d) => delete d.pages[1].children[1].addAnother));
    expect(error.message).toContain('needs an addAnother button');
  });
});
