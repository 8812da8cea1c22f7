/**
 * The shared chrome's own words (SPEC 2.6, 2.7, 2.8). Institution-specific text comes from
 * `definitions/config.ts`; this is the text that is the same for every institution.
 */
export const chromeText = {
  close: 'Close',
  notifications: 'Notifications',
  opensInNewTab: '(opens in a new tab)',
  footer: {
    help: 'Help',
    privacy: 'Privacy Policy and Cookie Notice',
  },
  help: {
    title: 'Help',
    assistance: 'For technical assistance using this application, please email us at',
    subject: (partnerName: string) =>
      `Help ID: ${partnerName} Application (please keep this as your subject)`,
    pdfReaderIntro: 'To open the PDF copy of your application, you need a PDF reader.',
    pdfReaderLink: 'Download a free PDF reader',
    contactUs: 'Contact Us',
    office: 'Office of Admission',
    phone: 'Phone:',
  },
  privacy: {
    title: 'Privacy Policy and Cookie Notice',
    cookieHeading: 'Cookies',
    cookieText: [
      'This application uses two cookies, and only to make the application work.',
      'A session cookie keeps you signed in while you fill in your application. It cannot be read by the page itself and ends when you log out or stop using the application for a while.',
      'A sign-in indicator cookie only tells this page that you are signed in, so it can show the right screens. It holds no personal information.',
      'We do not use advertising, analytics or tracking cookies, and we do not share cookies with anyone else.',
    ],
    browserHeading: 'Managing cookies in your browser',
    browserIntro:
      'You can see, block or delete cookies in your browser settings. If you block these cookies, you will not be able to sign in. Help for common browsers:',
    browsers: [
      { name: 'Google Chrome', url: 'https://support.google.com/chrome/answer/95647' },
      {
        name: 'Mozilla Firefox',
        url: 'https://support.mozilla.org/kb/clear-cookies-and-site-data-firefox',
      },
      {
        name: 'Apple Safari',
        url: 'https://support.apple.com/guide/safari/manage-cookies-sfri11471/mac',
      },
      {
        name: 'Microsoft Edge',
        url: 'https://support.microsoft.com/microsoft-edge/delete-cookies-in-microsoft-edge-63947406-40ac-c3b8-57b9-2a946a29ae09',
      },
    ],
    policyHeading: 'Privacy policy',
    policyIntro: 'How we collect, use and protect your information is described in our',
    policyLink: 'privacy policy',
    copyright: (year: number, partnerName: string) => `© ${year} ${partnerName}`,
  },
  account: {
    trigger: 'Account',
    signedInAs: 'Signed in as',
    logOut: 'Log Out',
    logOutEverywhere: 'Log out of all devices',
    signIn: 'Sign In',
    createAccount: 'Create Account',
    /** The applicant's rights over their data (D152); the account feature's dialog names them too. */
    downloadData: 'Download my data',
    deleteAccount: 'Delete my account',
  },
  errorScreen: {
    heading: 'Something went wrong.',
    text: 'The issue that caused you to see this has been logged. We will get it fixed as soon as possible.',
  },
  fallback: {
    heading: 'Unexpected Application Error!',
    unknown: 'Unknown error',
    statusText: {
      400: 'Bad Request',
      404: 'Not Found',
      405: 'Method Not Allowed',
    } as Readonly<Record<number, string>>,
  },
  loading: 'Loading…',
} as const;
