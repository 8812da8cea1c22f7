/**
 * SECURITY.md 7.3, 7.5, 7.6 and 7.8, their timing half (D53, D193): a registered or known address
 * answers no faster or slower than a new or unknown one. Over 200 interleaved pairs (after 20
 * warm-up pairs) the Mann–Whitney U test does not tell the two apart at p < 0.01, and the shift
 * between them (Hodges–Lehmann) is under 1 ms; a sample that fails is taken once more, and the case
 * fails if that one fails too.
 *
 * The requests are timed from a process of their own (`TimingClient`), as a script outside the
 * server would time them, with the job worker stopped; the jobs they queue are run between pairs.
 * What is timed is the answer alone: the work a request leaves to the worker is off its path (D193).
 * Apart from the other account cases (`accounts.test.ts`) because a time in milliseconds needs the
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
import { RETENTION_JOB, scheduleRetentionSweep } from '../../server/retention';
import { pairedTimings, TimingClient, type PairedTimings, type TimedReply } from './helpers';
import { hodgesLehmann, mannWhitneyU, median } from './statistics';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Pairs of requests a sample holds (after 20 warm-up pairs). */
const TIMING_PAIRS = 200;
/**
 * The shift between a sample's two halves (Hodges–Lehmann: the median of every difference) is
 * below this. Not the difference of the two medians: the times have two modes (the first request
 * of a pair is the slower), and a median jumps between them by a millisecond or two from one sample
 * of identical halves to the next (D193).
 */
const SHIFT_BOUND_MS = 1;
/** Below this p-value the Mann–Whitney U test separates the two halves. */
const SEPARATED_BELOW_P = 0.01;
/**
 * Samples a case may take: a second only when the first failed. Two identical halves fail a sample
 * about 1 time in 100 by chance, two samples in a row 1 in 10,000; a real gap fails both.
 */
const SAMPLES = 2;

interface Verdict {
  /** The medians, for the record. */
  readonly known: number;
  readonly unknown: number;
  /** How much slower the known address is (negative: faster). */
  readonly shift: number;
  readonly p: number;
  readonly passed: boolean;
}

function verdictOf(timings: PairedTimings): Verdict {
  const shift = hodgesLehmann(timings.a, timings.b);
  const { p } = mannWhitneyU(timings.a, timings.b);
  return {
    known: median(timings.a),
    unknown: median(timings.b),
    shift,
    p,
    passed: Math.abs(shift) < SHIFT_BOUND_MS && p >= SEPARATED_BELOW_P,
  };
}

/**
 * Takes samples (the known address's requests first, the unknown's second) until one passes or
 * `SAMPLES` have been taken; every answer of a pair must be byte-identical to its partner's.
 */
async function expectIndistinguishable(
  label: string,
  take: () => Promise<PairedTimings>,
): Promise<void> {
  let verdict: Verdict | undefined;
  for (let sample = 1; sample <= SAMPLES && !verdict?.passed; sample++) {
    const timings = await take();
    for (const [known, unknown] of timings.replies) {
      expect(known.status).toBe(unknown.status);
      expect(known.text).toBe(unknown.text);
    }
    verdict = verdictOf(timings);
    console.info(
      `${label}, sample ${sample}: medians known ${verdict.known.toFixed(2)} ms, ` +
        `unknown ${verdict.unknown.toFixed(2)} ms; shift ${verdict.shift.toFixed(2)} ms; ` +
        `Mann–Whitney p = ${verdict.p.toPrecision(2)}`,
    );
  }
  const { shift, p } = verdict as Verdict;
  expect(p, `${label}: Mann–Whitney separates the two`).toBeGreaterThanOrEqual(SEPARATED_BELOW_P);
  expect(Math.abs(shift), `${label}: the shift`).toBeLessThan(SHIFT_BOUND_MS);
}

describe.each(databaseKinds)('SECURITY.md 7 account timing on %s', (database) => {
  let server: TestServer;
  let client: TimingClient;
  let n = 0;
  const email = (label: string) => `${label}.${++n}@example.com`;
  /** A timed request, sent from the timing client's process. */
  const post = (path: string, body: unknown) => client.post(path, body);
  const login = (username: string, password = PASSWORD) =>
    post('/public/login', { username, password });
  /** Past every hourly limit: each try of a pair takes the full path. */
  const pastLimits = () => server.clock.advance(HOUR + SECOND);

  /**
   * One sample of `known` against `unknown`, with the worker stopped. After each pair, untimed, the
   * clock moves (`advance`) and every job due is run here (both requests' account requests and
   * their mail): no job runs while a request is timed, and the first request of every pair, known
   * or unknown by turns, follows the same work. The hourly retention sweep, which the clock would
   * reach at every pair, waits until the sample is over.
   */
  async function sample(
    known: (i: number) => Promise<TimedReply>,
    unknown: (i: number) => Promise<TimedReply>,
    advance: () => void,
  ): Promise<PairedTimings> {
    const queue = server.built.documents.queue;
    const between = async () => {
      advance();
      await queue.cancel(RETENTION_JOB, {});
      while (await queue.runOnce());
    };
    await queue.stop();
    try {
      await between();
      return await pairedTimings(TIMING_PAIRS, known, unknown, { between });
    } finally {
      await scheduleRetentionSweep(queue, server.clock.now());
      queue.start();
    }
  }

  beforeAll(async () => {
    server = await startServer({ database, config: { publicRateLimit: 100_000 } });
    client = await TimingClient.start(server.url);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  describe('7.3 sign-up with an already registered e-mail', () => {
    it('7.3 timing: a registered and a new address cannot be told apart (200 pairs: Mann–Whitney p ≥ 0.01, shift under 1 ms)', async () => {
      const owner = email('timing-owner');
      await registeredClient(server, owner);
      await expectIndistinguishable(`7.3 sign-up on ${database}`, () =>
        sample(
          () => post('/public/signup', { username: owner, password: 'Other-Pass-99!' }),
          () => post('/public/signup', { username: email('timing-new'), password: PASSWORD }),
          // Past the owner's 5 codes an hour: every sign-up mails its owner.
          pastLimits,
        ),
      );
    }, 240_000);
  });

  describe('7.5 code expiry and resend', () => {
    it('7.5 timing: a resend for an unconfirmed account and for an unknown address cannot be told apart (200 pairs)', async () => {
      const pending = email('timing-pending');
      const unknown = email('nobody.resend');
      await server.client().post('/public/signup', { username: pending, password: PASSWORD });
      await expectIndistinguishable(`7.5 resend on ${database}`, () =>
        sample(
          () => post('/public/resend-confirm', { username: pending }),
          () => post('/public/resend-confirm', { username: unknown }),
          // Past the 5 codes an hour: every resend for the account issues a code.
          pastLimits,
        ),
      );
    }, 240_000);
  });

  describe('7.6 login enumeration', () => {
    it('7.6 timing: a known address with a wrong password and an unknown address cannot be told apart (200 pairs)', async () => {
      // Five accounts in turn, so none reaches the hard stop of 100 consecutive failures; five
      // unknown addresses in turn beside them, with the same history of failures.
      const known = Array.from({ length: 5 }, () => email('timing-known'));
      const unknown = Array.from({ length: 5 }, () => email('nobody.login'));
      for (const address of known) await registeredClient(server, address);
      await expectIndistinguishable(`7.6 login on ${database}`, () =>
        sample(
          (i) => login(known[i % known.length] as string, 'Wrong-Pass-123'),
          (i) => login(unknown[i % unknown.length] as string, 'Wrong-Pass-123'),
          // Past the 15-minute quiet period: every try runs the full check, none hits a lockout.
          () => server.clock.advance(16 * MINUTE),
        ),
      );
    }, 240_000);
  });

  describe('7.8 forgot password', () => {
    it('7.8 timing: a known and an unknown address cannot be told apart (200 pairs)', async () => {
      const known = email('forgot-timing');
      const unknown = email('nobody.forgot');
      await registeredClient(server, known);
      await expectIndistinguishable(`7.8 forgot on ${database}`, () =>
        sample(
          () => post('/public/forgot-password', { username: known }),
          () => post('/public/forgot-password', { username: unknown }),
          // Past the 5 requests an hour: every request for the account issues a link.
          pastLimits,
        ),
      );
    }, 240_000);
  });
});
