import { loadDefinition } from '@admission-platform/form-runtime';

/** The form is data: it could as well come from a JSON file or a database, so it is checked on load. */
export const definition = loadDefinition({
  id: 'pets',
  title: 'Pet registration',
  version: 1,
  defaultRoute: '/owner',
  optionLists: {
    yesNo: [
      { value: '--', label: '--' },
      { value: 'Y', label: 'Yes' },
      { value: 'N', label: 'No' },
    ],
  },
  pages: [
    {
      id: 'owner',
      path: '/owner',
      title: 'Owner',
      children: [
        {
          kind: 'text',
          key: 'first_name',
          label: 'First name',
          rules: [{ kind: 'required', message: 'Please tell us your first name.' }],
        },
        { kind: 'radio', key: 'has_pets', label: 'Do you have pets?', options: 'yesNo' },
        {
          kind: 'section',
          id: 'pets',
          title: 'Your pet',
          hideWhen: { valueKey: 'has_pets', operator: 'notEquals', target: 'Y' },
          clears: ['pet_name'],
          children: [
            {
              kind: 'text',
              key: 'pet_name',
              label: 'Pet name',
              rules: [{ kind: 'required', message: "Please tell us your pet's name." }],
            },
          ],
        },
      ],
    },
  ],
});
