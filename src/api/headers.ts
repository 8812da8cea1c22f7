/** The headers of every JSON call (SPEC 7.1), shared by the API client and the page's early request. */
export const JSON_REQUEST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json',
} as const;
