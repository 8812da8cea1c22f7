import { ConfigurationError, MAX_ADD_ANOTHER, MAX_COMPONENTS_MESSAGE } from './errors';

/** SPEC 4.8: an add-another group's maximum, never above 10. */
export function assertMaxComponents(max: number): number {
  if (!Number.isInteger(max) || max < 1)
    throw new ConfigurationError('maxNumberOfComponents must be a whole number of at least 1');
  if (max > MAX_ADD_ANOTHER) throw new ConfigurationError(MAX_COMPONENTS_MESSAGE);
  return max;
}

/** SPEC 4.8: the button shows while the user is logged in and fewer than `max` instances are shown. */
export function canAddAnother(shown: number, max: number, loggedIn: boolean): boolean {
  return loggedIn && shown < assertMaxComponents(max);
}
