/**
 * The profile request starts from a few lines inside index.html, before the app's JavaScript has
 * arrived (issue 14): on a slow phone that JavaScript takes seconds, and a logged-in applicant's
 * first page waits for the profile (SPEC 2.2). The app's first GET of the profile takes that
 * response over instead of asking again; later ones fetch as usual.
 */
import { INDICATOR_COOKIE, PROFILE_PATH } from '../../contract/cookies.ts';
import { JSON_REQUEST_HEADERS } from '../api/headers.ts';

/** Where the page keeps the early response until the app takes it. */
const EARLY_KEY = '__earlyProfile';
/** An early response older than this is not used: the app fetches afresh. */
const EARLY_MAX_AGE_MS = 15_000;

interface EarlyRequest {
  readonly path: string;
  readonly at: number;
  readonly response: Promise<Response>;
}

/**
 * The inline script index.html carries (with the page's CSP nonce): when the indicator cookie says
 * the visitor is logged in, it starts the same request the app's API client would make.
 */
export function earlyProfileScript(): string {
  const cookie = new RegExp(`(?:^|;\\s*)${INDICATOR_COOKIE}=1(?:;|$)`).source;
  // The empty catch marks a failure as handled while nobody has taken the response yet; the app's
  // own await still sees it.
  return (
    `(function(){if(!/${cookie}/.test(document.cookie))return;var r=fetch(${JSON.stringify(PROFILE_PATH)},` +
    `{credentials:'same-origin',headers:${JSON.stringify(JSON_REQUEST_HEADERS)}});r.catch(function(){});` +
    `window.${EARLY_KEY}={path:${JSON.stringify(PROFILE_PATH)},at:performance.now(),response:r}})()`
  );
}

/** The early response for a GET of `path`, once, while it is fresh; otherwise undefined. */
export function takeEarlyResponse(
  path: string,
  scope: Record<string, unknown> = globalThis as unknown as Record<string, unknown>,
  now: number = typeof performance === 'undefined' ? Infinity : performance.now(),
): Promise<Response> | undefined {
  const early = scope[EARLY_KEY] as EarlyRequest | undefined;
  if (!early || early.path !== path) return undefined;
  delete scope[EARLY_KEY];
  if (now - early.at > EARLY_MAX_AGE_MS) {
    // Too old to trust; still read it, so the connection is not left holding an unread body.
    void early.response.then((response) => response.body?.cancel()).catch(() => undefined);
    return undefined;
  }
  return early.response;
}
