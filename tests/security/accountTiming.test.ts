/**
 * SECURITY.md 7.3, 7.6 and 7.8, their timing half (D53): a registered or known address answers no
 * faster or slower than a new or unknown one, medians over 200 interleaved pairs within 10 ms. Apart
 * from the other account cases (`accounts.test.ts`) because a median in milliseconds needs the
 * machine to itself (`TIMED_SUITES`, D203); the cases keep their names (docs/security.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  PASSWORD,
  registeredClient,
  startServer,
  type TestServer,
} from '../server/harness';
import { pairedMedians } from './helpers';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** SECURITY.md 7.3, 7.6, 7.8: medians of known and unknown accounts within 10 ms over 200 tries. */
const TIMING_TRIES = 200;
const TIMING_BOUND_MS = 10;

describe.each(databaseKinds)('SECURITY.md 7 account timing on %s', (database) => {
  let server: TestServer;
  let n = 0;
  const email = (label: string) => `${label}.${++n}@example.com`;
  const post = (path: string, body: unknown) => server.client().post(path, body);
  const login = (username: string, password = PASSWORD) =>
    post('/public/login', { username, password });

  beforeAll(async () => {
    server = await startServer({ database, config: { publicRateLimit: 100_000 } });
  });
  afterAll(async () => server?.close());

  describe('7.3 sign-up with an already registered e-mail', () => {
    it('7.3 timing: median latency of a registered and a new address within 10 ms over 200 sign-ups each', async () => {
      const owner = email('timing-owner');
      await registeredClient(server, owner);
      const result = await pairedMedians(
        TIMING_TRIES,
        () => post('/public/signup', { username: owner, password: 'Other-Pass-99!' }),
        (i) =>
          post('/public/signup', { username: `new.${i}.${++n}@example.com`, password: PASSWORD }),
      );
      for (const [known, unknown] of result.responses) expect(known.text).toBe(unknown.text);
      console.info(
        `7.3 sign-up medians on ${database}: registered ${result.a.toFixed(2)} ms, new ${result.b.toFixed(2)} ms`,
      );
      expect(Math.abs(result.a - result.b)).toBeLessThan(TIMING_BOUND_MS);
    }, 120_000);
  });

  describe('7.6 login enumeration', () => {
    it('7.6 timing: medians of a known address with a wrong password and an unknown address within 10 ms (N=200)', async () => {
      // Five accounts in turn, so none reaches the hard stop of 100 consecutive failures.
      const known = Array.from({ length: 5 }, () => email('timing-known'));
      for (const address of known) await registeredClient(server, address);
      const result = await pairedMedians(
        TIMING_TRIES,
        (i) => login(known[i % known.length] as string, 'Wrong-Pass-123'),
        (i) => login(`nobody.${i}@example.com`, 'Wrong-Pass-123'),
        // Past the 15-minute quiet period: every try runs the full check, none hits a lockout.
        () => server.clock.advance(16 * MINUTE),
      );
      for (const [a, b] of result.responses) expect(a.text).toBe(b.text);
      console.info(
        `7.6 login medians on ${database}: known ${result.a.toFixed(2)} ms, unknown ${result.b.toFixed(2)} ms`,
      );
      expect(Math.abs(result.a - result.b)).toBeLessThan(TIMING_BOUND_MS);
    }, 120_000);
  });

  describe('7.8 forgot password', () => {
    it('7.8 timing: medians of known and unknown addresses within 10 ms (N=200)', async () => {
      const known = email('forgot-timing');
      await registeredClient(server, known);
      const result = await pairedMedians(
        TIMING_TRIES,
        () => post('/public/forgot-password', { username: known }),
        (i) => post('/public/forgot-password', { username: `nobody.forgot.${i}@example.com` }),
        // Past the 5-per-hour limit: every known request issues a link.
        () => server.clock.advance(HOUR + SECOND),
      );
      for (const [a, b] of result.responses) expect(a.text).toBe(b.text);
      console.info(
        `7.8 forgot medians on ${database}: known ${result.a.toFixed(2)} ms, unknown ${result.b.toFixed(2)} ms`,
      );
      expect(Math.abs(result.a - result.b)).toBeLessThan(TIMING_BOUND_MS);
    }, 120_000);
  });
});
