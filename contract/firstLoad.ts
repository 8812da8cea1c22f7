/**
 * What a page load needs first (SPEC 2.2, 3.1, 3.2): the readable cookie the server sets at login,
 * from which the client derives `is_logged_in`, and the calls a logged-in form waits for, which the
 * page starts before the app's JavaScript has arrived (src/boot/earlyRequests.ts).
 */
export const INDICATOR_COOKIE = 'signed_in';

export const PROFILE_PATH = '/api/profile';
export const ADD_ANOTHER_PATH = '/api/add-another';
export const TABS_PATH = '/api/tabs';

/** The GETs a logged-in form page waits for before it shows. */
export const FIRST_LOAD_PATHS = [PROFILE_PATH, ADD_ANOTHER_PATH, TABS_PATH] as const;

/**
 * The id of the `<script type="application/json">` element the server inlines into every page: the
 * tenant's institution file and definition (definitions/institutionFile.ts TenantPageData; D143).
 */
export const TENANT_DATA_ELEMENT_ID = 'tenant-data';
