/** A repeat instance: slot `index` 0 is the first; `prefix` for prefix slots, none for suffix instances. */
export interface Slot {
  readonly repeatId: string;
  readonly index: number;
  readonly prefix: string | null;
}

/** The answer key of a local key in a slot: `parent_2_` + `first_name`, or `name` + `_2` (SPEC 3.3). */
export function slotKey(slot: Slot | null, local: string): string {
  if (!slot) return local;
  if (slot.prefix !== null) return slot.prefix + local;
  return slot.index === 0 ? local : `${local}_${slot.index + 1}`;
}

/** SPEC 3.3: select-style and radio questions also store `<key>_desc`. */
export function descKey(key: string): string {
  return `${key}_desc`;
}

/** The key of add-another instance `n` (1-based): the first has no suffix. */
export function addAnotherKey(key: string, n: number): string {
  return n <= 1 ? key : `${key}_${n}`;
}
