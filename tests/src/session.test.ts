// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GENERIC_ERROR_MESSAGE, profileResponse } from '../../contract';
import { applicationDefinition } from '../../definitions';
import { sensitiveKeys } from '../../runtime';
import { apiRequest, UnauthorizedError } from '../../src/api/client';
import { activeAlerts } from '../../src/chrome/DatedAlert';
import {
  anonymousAnswers,
  forgetAnonymousAnswers,
  hasAnyAnswer,
  keepAnonymousAnswers,
} from '../../src/session/anonymousAnswers';
import { hasIndicatorCookie } from '../../src/session/cookies';
import { clientSnapshot, showsWelcomeBanner } from '../../src/session/snapshot';

const profile = (logins: number, statuses: string[] = []) => ({
  answer: {},
  document_answer: {},
  username: 'a@example.com',
  last_page: null,
  successful_login: Array.from({ length: logins }, () => ({ at: '2026-11-01T00:00:00Z' })),
  web_status: statuses.map((web_status) => ({ web_status })),
});

describe('client snapshot (SPEC 3.1)', () => {
  it('derives status, logins and login state in one place', () => {
    expect(
      clientSnapshot({
        profile: profile(2, ['started', 'validating']),
        loggedIn: true,
        hasChangedPage: false,
      }),
    ).toEqual({
      web_status: 'validating',
      last_page: null,
      is_logged_in: true,
      username: 'a@example.com',
      is_service_user: false,
      num_logins: 2,
      has_changed_page: false,
    });
    expect(
      clientSnapshot({ profile: null, loggedIn: false, hasChangedPage: false }).num_logins,
    ).toBeNull();
    expect(
      clientSnapshot({ profile: profile(0), loggedIn: true, hasChangedPage: false }).num_logins,
    ).toBe(1);
  });

  it('reads is_logged_in from the indicator cookie', () => {
    expect(hasIndicatorCookie('a=1; signed_in=1')).toBe(true);
    expect(hasIndicatorCookie('signed_in=0')).toBe(false);
    expect(hasIndicatorCookie('')).toBe(false);
  });
});

describe('welcome banner show rule (SPEC 2.3)', () => {
  const snap = (
    logins: number,
    changed: boolean,
    statuses: string[] = ['started'],
    loggedIn = true,
  ) =>
    clientSnapshot({
      profile: loggedIn ? profile(logins, statuses) : null,
      loggedIn,
      hasChangedPage: changed,
    });
  it('shows when submitted, when logged out, or before a page change while num_logins < 3', () => {
    expect(showsWelcomeBanner(snap(5, true, ['started', 'validating', 'submitted']))).toBe(true);
    expect(showsWelcomeBanner(snap(0, true, [], false))).toBe(true);
    expect(showsWelcomeBanner(snap(1, false))).toBe(true);
    expect(showsWelcomeBanner(snap(2, false))).toBe(true);
    expect(showsWelcomeBanner(snap(3, false))).toBe(false);
    expect(showsWelcomeBanner(snap(1, true))).toBe(false);
  });
});

describe('anonymous answers (SECURITY.md: sensitive answers never in web storage)', () => {
  beforeEach(() => {
    forgetAnonymousAnswers();
    sessionStorage.clear();
  });

  it('keeps answers in sessionStorage except SSN, citizenship and felony answers, which stay in memory', () => {
    keepAnonymousAnswers(
      {
        first_name: 'Ada',
        ssn: '123-45-6789',
        citizenship: 'MEX',
        conviction: 'Y',
        conviction_comment: 'x',
      },
      sensitiveKeys(applicationDefinition),
    );
    const stored = sessionStorage.getItem('admission.anonymousAnswers') ?? '';
    expect(stored).toContain('Ada');
    for (const secret of ['123-45-6789', 'MEX', 'conviction']) expect(stored).not.toContain(secret);
    expect(anonymousAnswers()).toMatchObject({
      first_name: 'Ada',
      ssn: '123-45-6789',
      conviction: 'Y',
    });
    // The definition marks them (one source of truth for the app and the server).
    const sensitive = sensitiveKeys(applicationDefinition);
    for (const key of ['ssn', 'citizenship_type', 'citizenship_desc', 'suspended_comment'])
      expect(sensitive.has(key), key).toBe(true);
    expect(sensitive.has('first_name')).toBe(false);
  });

  it('tells whether any answer holds something', () => {
    expect(hasAnyAnswer({ a: '', b: null, c: false, d: '--' })).toBe(false);
    expect(hasAnyAnswer({ a: 'x' })).toBe(true);
  });
});

describe('API client (SPEC 7.1)', () => {
  afterEach(() => vi.unstubAllGlobals());
  const respond = (status: number, body: string, type = 'application/json') =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(body, { status, headers: { 'content-type': type } })),
    );

  it('parses a good response with its contract schema', async () => {
    respond(200, JSON.stringify({ ...profile(1) }));
    await expect(apiRequest('GET', '/api/profile', profileResponse)).resolves.toMatchObject({
      username: 'a@example.com',
    });
  });

  it('turns a response that is not JSON into the generic message', async () => {
    respond(502, '<html>Bad gateway</html>', 'text/html');
    await expect(apiRequest('GET', '/api/profile', profileResponse)).rejects.toMatchObject({
      message: GENERIC_ERROR_MESSAGE,
    });
  });

  it("uses a failure's message, or the generic one when it has none", async () => {
    respond(400, JSON.stringify({ message: 'Incorrect email address or password.' }));
    await expect(apiRequest('GET', '/x', profileResponse)).rejects.toMatchObject({
      name: 'ServerError',
      message: 'Incorrect email address or password.',
      status: 400,
    });
    respond(409, JSON.stringify({ message: 'Changed.', code: 'CONFLICT', version: 3 }));
    await expect(apiRequest('PUT', '/x', profileResponse)).rejects.toMatchObject({
      status: 409,
      code: 'CONFLICT',
      body: { version: 3 },
    });
    respond(500, JSON.stringify({}));
    await expect(apiRequest('GET', '/x', profileResponse)).rejects.toMatchObject({
      message: GENERIC_ERROR_MESSAGE,
    });
  });

  it('raises an unauthorized error on 401', async () => {
    respond(401, JSON.stringify({ message: 'x' }));
    await expect(apiRequest('GET', '/api/profile', profileResponse)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });

  it('refuses a response that does not match its contract (never casts)', async () => {
    respond(200, JSON.stringify({ username: 42 }));
    await expect(apiRequest('GET', '/api/profile', profileResponse)).rejects.toMatchObject({
      message: GENERIC_ERROR_MESSAGE,
    });
  });
});

describe('date-windowed alerts (SPEC 2.7)', () => {
  const alerts = [
    { id: 'a', start: '2026-11-15T00:00:00Z', end: '2027-01-16T00:00:00Z', text: 'Deadline soon' },
  ];
  it('shows an alert from its start (inclusive) until its end (exclusive)', () => {
    expect(activeAlerts(new Date('2026-11-14T23:59:59Z'), alerts)).toEqual([]);
    expect(activeAlerts(new Date('2026-11-15T00:00:00Z'), alerts)).toHaveLength(1);
    expect(activeAlerts(new Date('2027-01-16T00:00:00Z'), alerts)).toEqual([]);
  });
});
