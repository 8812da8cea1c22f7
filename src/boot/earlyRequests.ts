/**
 * The calls a logged-in form page waits for (profile, add-another counts, tabs; SPEC 2.2) start from
 * a few lines inside index.html, before the app's JavaScript has arrived (D84): on a slow phone
 * that JavaScript takes seconds. The app's first GET of each takes its response over instead of
 * asking again; later ones fetch as usual.
 */
import { FIRST_LOAD_PATHS, INDICATOR_COOKIE } from '../../contract/firstLoad.ts';
import { JSON_REQUEST_HEADERS } from '../api/headers.ts';

/** Where the page keeps the early responses until the app takes them. */
const EARLY_KEY = '__earlyRequests';
/** An early response older than this is not used: the app fetches afresh. */
const EARLY_MAX_AGE_MS = 15_000;

interface EarlyRequests {
  readonly at: number;
  readonly responses: Record<string, Promise<Response>>;
}

/**
 * The inline script index.html carries (with the page's CSP nonce): when the indicator cookie says
 * the visitor is logged in, it starts the same requests the app's API client would make. The empty
 * catch marks a failure as handled while nobody has taken the response yet; the app's own await
 * still sees it.
 */
export function earlyRequestsScript(): string {
  const cookie = new RegExp(`(?:^|;\\s*)${INDICATOR_COOKIE}=1(?:;|$)`).source;
  return (
    `(function(){if(!/${cookie}/.test(document.cookie))return;var s={};` +
    `${JSON.stringify(FIRST_LOAD_PATHS)}.forEach(function(p){var r=fetch(p,{credentials:'same-origin',` +
    `headers:${JSON.stringify(JSON_REQUEST_HEADERS)}});r.catch(function(){});s[p]=r});` +
    `window.${EARLY_KEY}={at:performance.now(),responses:s}})()`
  );
}

/** The early response for a GET of `path`, once, while it is fresh; otherwise undefined. */
export function takeEarlyResponse(
  path: string,
  scope: Record<string, unknown> = globalThis as unknown as Record<string, unknown>,
  now: number = typeof performance === 'undefined' ? Infinity : performance.now(),
): Promise<Response> | undefined {
  const early = scope[EARLY_KEY] as EarlyRequests | undefined;
  const response = early?.responses[path];
  if (!early || !response) return undefined;
  delete early.responses[path];
  if (now - early.at > EARLY_MAX_AGE_MS) {
    // Too old to trust; its body is dropped so the connection is not held.
    void response.then((r) => r.body?.cancel()).catch(() => undefined);
    return undefined;
  }
  return response;
}
