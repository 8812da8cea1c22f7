/**
 * A problem in a definition or its configuration: developer-facing, never shown to applicants.
 * `path` names where in the definition the problem is (for example `pages[1].children[3].rules[0]`).
 */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
  readonly path: string | undefined;

  constructor(message: string, path?: string) {
    super(path ? `${message} (at ${path})` : message);
    this.path = path;
  }
}

/** SPEC 8: the add-another maximum may never exceed 10. */
export const MAX_COMPONENTS_MESSAGE = 'The maxNumberOfComponents cannot exceed 10';
export const MAX_ADD_ANOTHER = 10;
