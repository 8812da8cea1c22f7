/**
 * The CSV's answer headers as a person reads them (D199): a question's label, a repeat's columns
 * after their instance ("Activity 2 – Type of Activity"), and where two columns would still read
 * alike, the section's title before them ("Mailing Address – Country"), then the page's, then a
 * number. Keys show only in the file for systems (`codes=1`), after the name.
 */
import { slotKey, type Definition, type Node, type Slot } from '../../runtime';

/** Where an answer key stands in the form. */
export interface KeyPlace {
  readonly page: string;
  readonly section: string | null;
  /** The repeat instance's title with its number ("Parent or Legal Guardian 2"), or null. */
  readonly instance: string | null;
  /** The question whose answer shows this one ("Have you been convicted of a felony?"), or null. */
  readonly asked: string | null;
  /** The name of a key no question asks: a lookup's filled code ("Search for Your School – CEEB"). */
  readonly label?: string;
}

const DASH = ' – ';

/** Every answer key of the definition (year, `_desc` and lookup keys too) with its place. */
export function keyPlaces(definition: Definition): Map<string, KeyPlace> {
  const places = new Map<string, KeyPlace>();
  const walk = (nodes: readonly Node[], place: KeyPlace, slot: Slot | null) => {
    for (const node of nodes) {
      switch (node.kind) {
        case 'paragraph':
          break;
        case 'section':
          walk(node.children, { ...place, section: node.title?.trim() || place.section }, slot);
          break;
        case 'repeat': {
          const { instances } = node;
          const count = instances.kind === 'prefix' ? instances.prefixes.length : instances.max;
          for (let index = 0; index < count; index++) {
            const title = (node.title ?? place.section ?? node.id).replace('{n}', '').trim();
            const instance = node.title?.includes('{n}')
              ? node.title.replace('{n}', String(index + 1))
              : `${title} ${index + 1}`;
            const prefix = instances.kind === 'prefix' ? (instances.prefixes[index] ?? '') : null;
            walk(node.children, { ...place, instance }, { repeatId: node.id, index, prefix });
          }
          break;
        }
        case 'tabs':
          for (const tab of node.tabs) walk(tab.children, place, slot);
          break;
        case 'trigger':
          if (node.mode === 'checkbox') places.set(slotKey(slot, node.key), place);
          walk([...(node.mode === 'checkbox' ? node.before : []), ...node.after], place, slot);
          break;
        case 'exclusive':
          for (const branch of node.cases) walk(branch.children, place, slot);
          break;
        default: {
          const own = [node.key];
          if (node.kind === 'monthYear') own.push(node.yearKey);
          for (const key of own) {
            places.set(slotKey(slot, key), place);
            places.set(`${slotKey(slot, key)}_desc`, place);
          }
          if (node.kind === 'lookup')
            for (const fill of node.fills) {
              // A filled key a question of its own also asks (the country) keeps that question's place.
              const key = slotKey(slot, node.prefix + fill);
              if (!places.has(key))
                places.set(key, { ...place, label: node.label + DASH + fillName(fill) });
            }
          if (node.kind === 'radio' && node.content)
            for (const content of Object.values(node.content))
              walk(content, { ...place, asked: node.label }, slot);
        }
      }
    }
  };
  for (const page of definition.pages)
    walk(page.children, { page: page.title, section: null, instance: null, asked: null }, null);
  return places;
}

export interface Named {
  readonly key: string;
  readonly label: string;
  readonly place: KeyPlace | undefined;
}

/**
 * Unique headers, in the columns' order: the label after its instance; alike ones after their
 * section's title, then their page's, then numbered; `[key]` after each when `codes`.
 */
export function headersOf(columns: readonly Named[], codes: boolean): string[] {
  const base = (column: Named) =>
    column.place?.instance ? column.place.instance + DASH + column.label : column.label;
  const before = (part: string | null | undefined, name: string) =>
    part && !name.startsWith(part + DASH) ? part + DASH + name : name;
  // Each way of telling alike names apart, tried in turn on the names still alike.
  const candidates: ((column: Named) => string)[] = [
    (column) => before(column.place?.section, base(column)),
    (column) => before(column.place?.asked, base(column)),
    (column) => before(column.place?.page, before(column.place?.section, base(column))),
  ];
  let names = columns.map(base);
  for (const candidate of candidates) {
    const alike = countOf(names);
    names = names.map((name, index) =>
      (alike.get(name) ?? 0) > 1 ? candidate(columns[index]!) : name,
    );
  }
  const alike = countOf(names);
  const seen = new Map<string, number>();
  names = names.map((name) => {
    if ((alike.get(name) ?? 0) < 2) return name;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name} (${n})`;
  });
  return codes ? names.map((name, index) => `${name} [${columns[index]!.key}]`) : names;
}

/** A lookup's filled key as read: `ceeb` → "CEEB", `address_line_1` → "Address line 1". */
function fillName(fill: string): string {
  const words = fill.replace(/_/g, ' ').trim();
  return words.length <= 4 ? words.toUpperCase() : words[0]!.toUpperCase() + words.slice(1);
}

function countOf(names: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}
