/**
 * Every user-facing validation message of the form (SPEC 5.3 to 5.5), worded as the spec binds them.
 * Pages refer to these; components never hold message text.
 */
export const messages = {
  firstName: 'First Name',
  lastName: 'Last Name',
  gender: 'Gender',
  email: 'Please enter a valid email address.',
  phone: {
    validHome: 'Please enter a valid home phone number.',
    validMobile: 'Please enter a valid cell phone number.',
    optIn: 'A cell phone number is required to receive text message updates.',
    oneRequired: 'Please enter either a home phone, cell phone or international phone number',
  },
  internationalPhone: 'Please enter a valid international phone number.',
  birthDate: {
    required: 'Date of Birth',
    invalid: 'A valid date of birth is required.',
    tooOld: 'This date is not supported. Please contact help support for assistance.',
    tooYoung: 'You must be 13 years or older to apply.',
  },
  address: {
    line1: 'Address',
    city: 'City',
    country: 'Country',
    state: 'State/Province',
    zip: 'ZIP/Postal Code',
    zipLength: 'ZIP/Postal Code must be at least 5 characters.',
  },
  mailing: {
    same: 'Is your mailing address the same as your permanent address?',
    effectiveDate: 'Address Effective Until',
    invalidDate: 'Please enter a valid date.',
    minYear: 'The minimum supported year is {year}',
    maxYear: 'The maximum supported year is {year}',
  },
  citizenship: {
    type: 'Citizen Type',
    ssn: 'Please provide a valid Social Security number.',
    birthCountry: 'What is your country of birth?',
    citizenship: 'What is your country of citizenship?',
    visa: 'What is your anticipated visa type?',
    alienRegistration: 'Alien Registration Number',
  },
  parent: {
    email: [
      'Parent or Legal Guardian 1: Please enter a valid email address',
      'Parent or Legal Guardian 2: Please enter a valid email address.',
    ],
    phone: [
      'Parent or Legal Guardian 1: Please enter a valid phone number.',
      'Parent or Legal Guardian 2: Please enter a valid phone number.',
    ],
  },
  school: 'Search for Your School',
  counselorEmail: 'The counselor email address is invalid.',
  entryTerm: 'When do you plan to enroll?',
  act: (section: string) =>
    `Please provide a valid ACT ${section} Score. The score must be between 1 and 36.`,
  satSection: (section: string) =>
    `Please provide a valid SAT ${section} Score. The score must be between 200 and 800 in an increment of 10 (e.g., 570).`,
  satTotal: 'Please provide a valid SAT Combined Score. The score must be between 400 and 1600.',
  cltTotal: 'Please provide a valid CLT Score. The score must be between 0 to 120.',
  cltSection: (section: string) =>
    `Please provide a valid CLT ${section} Score. The score must be between 0 to 40.`,
  conviction: 'Have you been convicted of a felony?',
  convictionComment: 'You answered that you have been convicted of a felony. Please explain.',
  suspended: 'Have you been suspended from any school?',
  suspendedComment: 'You answered that you have been suspended from a school. Please explain.',
  waiver:
    'Do you waive your right to review the recommendation your school counselor submits on your behalf?',
  legalAgree:
    'I certify that the information on this application is complete and correct to the best of my knowledge.',
} as const;
