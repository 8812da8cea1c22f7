/** The `<option>` list of a native select: the blank entry shows as '--' with a readable name. */
import type { OptionEntry } from '../../runtime';
import { BLANK } from '../../runtime';
import { BLANK_OPTION_NAME, withBlank } from './choices';

export function Options({ options }: { options: readonly OptionEntry[] }) {
  return withBlank(options).map((option, index) =>
    option.value === BLANK ? (
      <option key={`${index}:${option.value}`} value={BLANK} aria-label={BLANK_OPTION_NAME}>
        {option.label || BLANK}
      </option>
    ) : (
      <option key={`${index}:${option.value}`} value={option.value}>
        {option.label}
      </option>
    ),
  );
}
