/**
 * ASVS 16.3: refusals an operator alerts on are logged as named security events, one
 * line per refusal, even under a parallel burst, with the account as an id or a hash of its
 * address, and never the password, code, token, key or address that was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInTenant } from '../../server/db/tenantScope';
import { loginFailureStreaks } from '../../server/db/schema';
import {
  addressHash,
  SECURITY_EVENT_MESSAGE,
  SECURITY_EVENTS,
  type SecurityEvent,
} from '../../server/security/events';
import { HARD_STOP_AFTER } from '../../server/account/accounts';
import { enrolledStaff } from '../server/staffHelpers';
import {
  databaseKinds,
  registeredClient,
  startServer,
  type TestServer,
  logCollector,
} from '../server/harness';

const BURST = 50;
const STAFF_KEY = 'staff-key-0123456789abcdef0123456789abcdef';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789';
const LOOKUP_LIMIT = 10;

interface EventLine {
  event: SecurityEvent;
  tenant?: string;
  route?: string;
  ip?: string;
  account?: string;
  addressHash?: string;
}

describe.each(databaseKinds)('ASVS 16.3 security events on %s', (database) => {
  let server: TestServer;
  const lines: string[] = [];
  /** Every secret sent in this file: none may appear in any log line. */
  const secrets: string[] = [];
  const seen = new Set<SecurityEvent>();
  let n = 0;
  const email = (label: string) => `events.${label}.${database}.${++n}@example.com`;

  beforeAll(async () => {
    const stream = logCollector(lines);
    server = await startServer({
      database,
      env: {
        LOG_LEVEL: 'info',
        STAFF_API_KEYS: `northfield=${STAFF_KEY}`,
        METRICS_TOKEN,
      },
      config: { publicRateLimit: 100_000, lookupRateLimit: LOOKUP_LIMIT },
      logStream: stream,
    });
  });
  afterAll(async () => server?.close());

  /** The events logged from line `from` on (after the burst's answers are in). */
  const eventsSince = (from: number, event?: SecurityEvent): EventLine[] =>
    lines
      .slice(from)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === SECURITY_EVENT_MESSAGE)
      .map((entry) => entry as unknown as EventLine)
      .filter((entry) => event === undefined || entry.event === event)
      .map((entry) => (seen.add(entry.event), entry));

  it(`${BURST} parallel wrong passwords: one event per refusal (failures, then lockouts), each with the address's hash`, async () => {
    const address = email('login');
    await registeredClient(server, address);
    const wrong = 'Wrong-Password-9f3a';
    secrets.push(wrong, address);
    const from = lines.length;
    const responses = await Promise.all(
      Array.from({ length: BURST }, () =>
        server.client().post('/public/login', { username: address, password: wrong }),
      ),
    );
    expect(responses.every((response) => response.status === 400 || response.status === 429)).toBe(
      true,
    );
    const events = eventsSince(from).filter((e) => e.event.startsWith('auth.'));
    expect(events).toHaveLength(BURST);
    expect(events.filter((e) => e.event === 'auth.login_failed').length).toBe(
      responses.filter((r) => r.status === 400).length,
    );
    expect(events.filter((e) => e.event === 'auth.lockout').length).toBe(
      responses.filter((r) => r.status === 429).length,
    );
    for (const event of events)
      expect(event).toMatchObject({
        tenant: 'northfield',
        route: '/public/login',
        addressHash: addressHash(server.built.app.logPseudonymKey, address),
      });
    // Then one at a time until the account is locked out: each refusal is one event too (the
    // burst alone need not lock it until the counters are atomic, D67).
    const from2 = lines.length;
    const statuses: number[] = [];
    while (statuses.length < 10 && statuses.at(-1) !== 429)
      statuses.push(
        (await server.client().post('/public/login', { username: address, password: wrong }))
          .status,
      );
    expect(statuses.at(-1)).toBe(429);
    expect(eventsSince(from2, 'auth.lockout')).toHaveLength(
      statuses.filter((s) => s === 429).length,
    );
    expect(eventsSince(from2, 'auth.login_failed')).toHaveLength(
      statuses.filter((s) => s === 400).length,
    );
  });

  it('the hard stop after 100 consecutive failures is its own event', async () => {
    const address = email('stop');
    secrets.push(address);
    await runInTenant('northfield', () =>
      server.built.database.db.insert(loginFailureStreaks).values({
        tenantId: 'northfield',
        username: address,
        failures: HARD_STOP_AFTER,
        updatedAt: server.clock.now(),
      }),
    );
    const from = lines.length;
    expect(
      (await server.client().post('/public/login', { username: address, password: 'x' })).status,
    ).toBe(429);
    expect(eventsSince(from, 'auth.hard_stop')).toEqual([
      expect.objectContaining({
        addressHash: addressHash(server.built.app.logPseudonymKey, address),
      }),
    ]);
  });

  it(`${BURST} parallel wrong confirmation codes and reset links, ${BURST} forged service tokens, temporary-answer tokens and download grants: one event each`, async () => {
    const address = email('tokens');
    secrets.push(address);
    await server
      .client()
      .post('/public/signup', { username: address, password: 'Correct-Horse-42' });
    const user = await registeredClient(server, email('download'));
    const reader = await enrolledStaff(server, 'reader@northfield.edu', 'reader');
    const cases: [SecurityEvent, (i: number) => Promise<{ status: number }>][] = [
      ['staff.role_refused', () => reader.client.get('/staff/api/audit')],
      [
        'auth.confirm_failed',
        (i) =>
          server.client().post('/public/confirm', { username: address, code: String(100000 + i) }),
      ],
      [
        'token.reset_refused',
        (i) =>
          server.client().post('/public/reset-password', {
            username: address,
            id: `forged-reset-id-${i}-0123456789abcdef`,
            password: 'Brand-New-Pass-7',
            confirm_password: 'Brand-New-Pass-7',
          }),
      ],
      [
        'token.service_refused',
        (i) => server.client().get(`/service/tmp-pdf?service_token=forged-service-token-${i}`),
      ],
      [
        'token.tmp_refused',
        (i) => server.client().get(`/public/tmp?token=forged-tmp-token-${i}-0123456789abcdef`),
      ],
      ['token.download_refused', (i) => user.get(`/api/pdf/file?download=forged-grant-${i}`)],
      [
        'auth.staff_key_refused',
        (i) =>
          server
            .client()
            .request(
              'POST',
              '/service/tokens',
              { email: address },
              { authorization: `Bearer forged-staff-key-${i}` },
            ),
      ],
    ];
    for (let i = 0; i < BURST; i++)
      secrets.push(
        String(100000 + i),
        `forged-reset-id-${i}-`,
        `forged-service-token-${i}`,
        `forged-tmp-token-${i}`,
        `forged-grant-${i}`,
        `forged-staff-key-${i}`,
      );
    for (const [event, send] of cases) {
      const from = lines.length;
      const responses = await Promise.all(Array.from({ length: BURST }, (_, i) => send(i)));
      const refused = responses.filter(
        (response) => response.status >= 400 && response.status !== 429,
      );
      expect(refused.length, event).toBe(BURST);
      const events = eventsSince(from, event);
      expect(events, event).toHaveLength(BURST);
      for (const line of events) expect(line.tenant).toBe('northfield');
    }
  });

  it('a forged upload policy, cross-site requests and rate-limit hits are events', async () => {
    const boundary = 'x1x1x1';
    const multipart = [
      ['key', 'northfield/forged/key'],
      ['policy', 'forged-policy-value'],
      ['signature', 'forged-signature-value'],
    ]
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('')
      .concat(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNG\r\n--${boundary}--\r\n`,
      );
    secrets.push('forged-policy-value', 'forged-signature-value');
    let from = lines.length;
    const upload = await server.client().request('POST', '/api/uploads', multipart, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(upload.status).toBe(403);
    expect(eventsSince(from, 'token.upload_refused')).toHaveLength(1);

    from = lines.length;
    const crossSite = await Promise.all(
      Array.from({ length: BURST }, () =>
        server
          .client()
          .request(
            'POST',
            '/public/login',
            { username: 'a@b.co', password: 'x' },
            { origin: 'https://evil.example' },
          ),
      ),
    );
    expect(crossSite.every((response) => response.status === 403)).toBe(true);
    expect(eventsSince(from, 'csrf.refused')).toHaveLength(BURST);

    from = lines.length;
    const lookups = await Promise.all(
      Array.from({ length: BURST }, () =>
        server.client().get('/lookup/find?category=hs_ceeb&text=high'),
      ),
    );
    const limited = lookups.filter((response) => response.status === 429).length;
    expect(limited).toBe(BURST - LOOKUP_LIMIT);
    expect(eventsSince(from, 'rate_limit.hit')).toHaveLength(limited);

    from = lines.length;
    const wrongToken = `${METRICS_TOKEN}-guessed`;
    secrets.push(wrongToken);
    const scrapes = await Promise.all(
      Array.from({ length: BURST }, () =>
        server
          .client()
          .request('GET', '/metrics', undefined, { authorization: `Bearer ${wrongToken}` }),
      ),
    );
    expect(scrapes.every((response) => response.status === 401)).toBe(true);
    expect(eventsSince(from, 'metrics.token_refused')).toHaveLength(BURST);
  });

  it('every named event was seen, and no log line carries a password, code, token, key or address sent', () => {
    expect([...seen].sort()).toEqual([...SECURITY_EVENTS].sort());
    const log = lines.join('\n');
    for (const secret of [...secrets, STAFF_KEY, METRICS_TOKEN]) {
      // A six-digit code also occurs inside timestamps: it counts only standing alone.
      const found = /^\d+$/.test(secret)
        ? new RegExp(`(?<!\\d)${secret}(?!\\d)`).test(log)
        : log.includes(secret);
      expect(found, secret).toBe(false);
    }
  });
});
