/** The form fields' own words: the password field's show/hide toggle. */
export const formText = {
  showPassword: 'Show password',
  hidePassword: 'Hide password',
} as const;
