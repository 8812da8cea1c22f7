import type { Node, Page, YearsSpec } from '../../runtime';
import { institutionConfig } from '../config';
import { messages } from '../messages';
import { email, eq, inSlot, notIn, required, score } from '../rules';

const recentYears: YearsSpec = { length: 6, direction: 'descending' };
const comingYears: YearsSpec = { length: 3, direction: 'ascending' };

const plans: Node = {
  kind: 'section',
  id: 'plans',
  title: 'Your Plans',
  children: [
    {
      kind: 'select',
      key: 'entry_term',
      label: 'When do you plan to enroll?',
      options: 'entryTerms',
      rules: [required(messages.entryTerm)],
    },
    { kind: 'select', key: 'applied_major', label: 'Intended Major', options: 'majors' },
    {
      kind: 'select',
      key: 'applied_concentration',
      label: 'Concentration',
      options: [],
      conditional: {
        category: 'displayAndOptions',
        control: { valueKey: 'applied_major' },
        optionsByValue: {
          BUS: 'businessConcentrations',
          BIO: 'biologyConcentrations',
          CS: 'computingConcentrations',
        },
      },
    },
    { kind: 'select', key: 'applied_minor', label: 'Intended Minor', options: 'minors' },
    {
      kind: 'radio',
      key: 'housing_plans',
      label: 'Where do you plan to live?',
      options: 'housing',
    },
  ],
};

const highSchool: Node = {
  kind: 'section',
  id: 'high_school',
  title: 'High School',
  children: [
    {
      kind: 'lookup',
      key: 'hs_name',
      label: 'Search for Your School',
      help: 'Type the name of your high school, then choose it from the list.',
      category: 'hs_ceeb',
      prefix: 'hs_',
      fills: ['ceeb', 'name', 'address_line_1', 'city', 'state', 'zip', 'country'],
      rules: [required(messages.school)],
    },
    { kind: 'text', key: 'hs_address_line_1', label: 'School Address' },
    { kind: 'text', key: 'hs_city', label: 'City' },
    { kind: 'select', key: 'hs_country', label: 'Country', options: 'countries' },
    {
      kind: 'select',
      key: 'hs_state',
      label: 'State/Province',
      options: 'stateAndProvince',
      conditional: {
        category: 'displayAndOptions',
        control: { valueKey: 'hs_country' },
        optionsByValue: { USA: 'usStates', CAN: 'canadianProvinces' },
      },
    },
    { kind: 'text', key: 'hs_zip', label: 'ZIP/Postal Code', maxLength: 10 },
    {
      kind: 'monthYear',
      key: 'grad_month',
      yearKey: 'grad_year',
      label: 'Graduation Date',
      years: { start: { offset: 4 }, length: 30, direction: 'descending' },
    },
    { kind: 'checkbox', key: 'home_schooled', label: 'I am home-schooled.' },
    {
      kind: 'checkbox',
      key: 'ged',
      label: 'I have earned, or will earn, a GED or other high school equivalency.',
    },
    { kind: 'text', key: 'hs_gpa', label: 'Cumulative GPA', inputMode: 'decimal', maxLength: 6 },
    { kind: 'text', key: 'counselor_first_name', label: 'Counselor First Name' },
    { kind: 'text', key: 'counselor_last_name', label: 'Counselor Last Name' },
    {
      kind: 'text',
      key: 'counselor_email_address',
      label: 'Counselor Email Address',
      inputMode: 'email',
      maxLength: 254,
      rules: [email(messages.counselorEmail)],
    },
  ],
};

const colleges: Node = {
  kind: 'repeat',
  id: 'colleges',
  title: 'College {n}',
  instances: { kind: 'prefix', prefixes: ['college_', 'college_2_', 'college_3_'] },
  addAnother: { buttonId: 'college', label: 'Add Another College' },
  children: [
    {
      kind: 'lookup',
      key: 'name',
      label: 'Search for Your College',
      category: 'college_ceeb',
      prefix: '',
      fills: ['ceeb', 'name', 'address_line_1', 'city', 'state', 'zip', 'country'],
    },
    { kind: 'text', key: 'address_line_1', label: 'College Address' },
    { kind: 'text', key: 'city', label: 'City' },
    { kind: 'select', key: 'country', label: 'Country', options: 'countries' },
    {
      kind: 'select',
      key: 'state',
      label: 'State/Province',
      options: 'stateAndProvince',
      conditional: {
        category: 'displayAndOptions',
        control: { valueKey: 'country', scope: 'slot' },
        optionsByValue: { USA: 'usStates', CAN: 'canadianProvinces' },
      },
    },
    { kind: 'text', key: 'zip', label: 'ZIP/Postal Code', maxLength: 10 },
    {
      kind: 'monthYear',
      key: 'attend_from_month',
      yearKey: 'attend_from_year',
      label: 'Attended From',
      years: { length: 8, direction: 'descending' },
    },
    {
      kind: 'monthYear',
      key: 'attend_to_month',
      yearKey: 'attend_to_year',
      label: 'Attended To',
      years: { start: { offset: 2 }, length: 10, direction: 'descending' },
    },
    {
      kind: 'radio',
      key: 'credit_earned',
      label: 'Did you earn college credit?',
      options: 'yesNo',
    },
    {
      kind: 'select',
      key: 'degree_earned',
      label: 'Degree Earned',
      options: 'collegeDegrees',
      conditional: { category: 'displayOnly', when: inSlot(eq('credit_earned', 'Y')) },
    },
  ],
};

const college: Node = {
  kind: 'section',
  id: 'college',
  title: 'College Experience',
  children: [
    {
      kind: 'radio',
      key: 'attend_college',
      label: 'Have you taken college courses, including dual enrollment?',
      options: 'yesNo',
      content: { Y: [colleges] },
    },
    {
      kind: 'radio',
      key: 'prev_enrolled',
      label: `Have you ever been enrolled at ${institutionConfig.partner_name}?`,
      options: 'yesNo',
    },
    {
      kind: 'radio',
      key: 'visit_college',
      label: 'Have you visited our campus?',
      options: 'yesNo',
      content: {
        Y: [
          {
            kind: 'monthYear',
            key: 'visit_college_month',
            yearKey: 'visit_college_year',
            label: 'When did you visit?',
            years: recentYears,
          },
        ],
      },
    },
    {
      kind: 'select',
      key: 'hear_about',
      label: 'How did you hear about us?',
      options: 'hearAbout',
    },
  ],
};

const actScores: Node[] = (
  [
    ['act_score_englih', 'English'],
    ['act_score_math', 'Math'],
    ['act_score_reading', 'Reading'],
    ['act_score_science', 'Science Reasoning'],
    ['act_score_composite', 'Composite'],
  ] as const
).map(([key, section]) => ({
  kind: 'number',
  key,
  label: `ACT ${section}`,
  min: 1,
  max: 36,
  step: 1,
  rules: [score(1, 36, messages.act(section))],
}));

const satScores: Node[] = [
  {
    kind: 'number',
    key: 'sat_score_reading_writing',
    label: 'SAT Evidence-Based Reading and Writing',
    min: 200,
    max: 800,
    step: 10,
    rules: [score(200, 800, messages.satSection('Evidence-Based Reading and Writing'), 10)],
  },
  {
    kind: 'number',
    key: 'sat_score_math',
    label: 'SAT Math',
    min: 200,
    max: 800,
    step: 10,
    rules: [score(200, 800, messages.satSection('Math'), 10)],
  },
  {
    kind: 'number',
    key: 'sat_score_composite',
    label: 'SAT Combined Score',
    min: 400,
    max: 1600,
    step: 10,
    rules: [score(400, 1600, messages.satTotal)],
  },
];

const cltScores: Node[] = [
  ...(
    [
      ['clt_verbal', 'Verbal Reasoning'],
      ['clt_grammar', 'Grammar/Writing'],
      ['clt_reasoning', 'Quantitative Reasoning'],
    ] as const
  ).map(([key, section]): Node => ({
    kind: 'number',
    key,
    label: `CLT ${section}`,
    min: 0,
    max: 40,
    step: 1,
    rules: [score(0, 40, messages.cltSection(section))],
  })),
  {
    kind: 'number',
    key: 'clt_score',
    label: 'CLT Total Score',
    min: 0,
    max: 120,
    step: 1,
    rules: [score(0, 120, messages.cltTotal)],
  },
];

function testBlock(test: 'act' | 'sat' | 'clt', name: string, scores: Node[]): Node {
  return {
    kind: 'radio',
    key: `${test}_taken`,
    label: `Have you taken the ${name}?`,
    options: `${test}Plans`,
    content: {
      Y: [
        {
          kind: 'monthYear',
          key: `${test}_taken_month`,
          yearKey: `${test}_taken_year`,
          label: `When did you last take the ${name}?`,
          years: recentYears,
        },
        ...scores,
      ],
      P: [
        {
          kind: 'monthYear',
          key: `${test}_test_month`,
          yearKey: `${test}_test_year`,
          label: `When do you plan to take the ${name}?`,
          years: comingYears,
        },
      ],
    },
  };
}

const tests: Node = {
  kind: 'section',
  id: 'tests',
  title: 'Test Scores',
  description:
    'Submitting test scores is optional. Report your best scores if you would like us to consider them.',
  children: [
    testBlock('act', 'ACT', actScores),
    testBlock('sat', 'SAT', satScores),
    testBlock('clt', 'CLT', cltScores),
    {
      kind: 'radio',
      key: 'retake_act_sat',
      label: 'Do you plan to take the ACT or SAT again?',
      options: 'yesNo',
      content: {
        Y: [
          {
            kind: 'monthYear',
            key: 'retake_test_month',
            yearKey: 'retake_test_year',
            label: 'When do you plan to test again?',
            years: comingYears,
          },
        ],
      },
    },
  ],
};

const yearCheckboxes = (keys: readonly string[]): Node[] =>
  keys.map((key) => ({
    kind: 'checkbox',
    key,
    label:
      {
        freshman: '9th grade',
        sophomore: '10th grade',
        junior: '11th grade',
        senior: '12th grade',
      }[key] ?? key,
  }));

/** SPEC 4.7: activities are shown and kept only when gender is "M" or "F". */
const activities: Node = {
  kind: 'section',
  id: 'activities',
  title: 'Activities',
  hideWhen: notIn('gender', ['M', 'F']),
  clears: 'all',
  children: [
    {
      kind: 'repeat',
      id: 'activities',
      title: 'Activity {n}',
      instances: {
        kind: 'prefix',
        prefixes: ['activity_', 'activity_2_', 'activity_3_', 'activity_4_'],
      },
      addAnother: { buttonId: 'activity', label: 'Add Another Activity' },
      children: [
        { kind: 'select', key: 'name_select', label: 'Type of Activity', options: 'activityTypes' },
        { kind: 'text', key: 'name', label: 'Activity Name' },
        ...yearCheckboxes(['freshman', 'sophomore', 'junior', 'senior']),
        {
          kind: 'checkbox',
          key: 'continue',
          label: 'I plan to continue this activity in college.',
        },
      ],
    },
  ],
};

const honors: Node = {
  kind: 'section',
  id: 'honors',
  title: 'Honors and Awards',
  children: [
    {
      kind: 'repeat',
      id: 'honors',
      title: 'Honor {n}',
      instances: { kind: 'prefix', prefixes: ['honors_', 'honors_2_', 'honors_3_', 'honors_4_'] },
      addAnother: { buttonId: 'honors', label: 'Add Another Honor' },
      children: [
        { kind: 'text', key: 'name', label: 'Honor or Award' },
        ...yearCheckboxes(['freshman', 'sophomore', 'junior', 'senior']),
      ],
    },
  ],
};

export const educationPage: Page = {
  id: 'education',
  path: '/education',
  title: 'Your Education',
  children: [plans, highSchool, college, tests, activities, honors],
};
