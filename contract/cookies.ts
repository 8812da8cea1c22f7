/** SPEC 3.1: the readable cookie the server sets at login; the client derives `is_logged_in` from it. */
export const INDICATOR_COOKIE = 'signed_in';

/** SPEC 3.2: the profile call, which the page starts before the app's JavaScript has arrived. */
export const PROFILE_PATH = '/api/profile';
