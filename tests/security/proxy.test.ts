/**
 * D76: proxies are trusted exactly. TRUST_PROXY is a hop count or the proxies' addresses;
 * "trust any X-Forwarded-For" does not start. Rate limits and logs use the address the trusted
 * proxy saw: addresses a client writes into X-Forwarded-For itself change nothing.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { databaseKinds, startServer, type TestServer } from '../server/harness';

const BURST = 50;
const LIMIT = 5;

describe('D76 TRUST_PROXY configuration', () => {
  const parse = (value: string) => configFromEnv({ TRUST_PROXY: value }).trustProxy;

  it('takes false, a hop count, or addresses and CIDR ranges', () => {
    expect(configFromEnv({}).trustProxy).toBe(false);
    expect(parse('false')).toBe(false);
    expect(parse('2')).toBe(2);
    expect(parse('10.0.0.0/8, 192.168.1.7,2001:db8::/32 ,loopback')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '2001:db8::/32',
      'loopback',
    ]);
  });

  it.each(['true', 'yes', '10.0.0.1/33', '10.0.0.300', '10.0.0.1,proxy.example.com', ','])(
    'refuses %j with a message naming TRUST_PROXY',
    (value) => {
      expect(() => parse(value)).toThrow(/TRUST_PROXY: expected false, a number of proxy hops/);
    },
  );
});

describe.each(databaseKinds)('D76 the address the trusted proxy saw, on %s', (database) => {
  const servers: TestServer[] = [];
  const lines: string[] = [];
  const start = async (trustProxy: string, logged = false) => {
    const stream = new PassThrough();
    if (logged)
      stream.on('data', (chunk: Buffer) =>
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
      );
    const server = await startServer({
      database,
      env: { TRUST_PROXY: trustProxy, LOG_LEVEL: 'info' },
      config: { publicRateLimit: LIMIT },
      logStream: stream,
    });
    servers.push(server);
    return server;
  };
  let proxied: TestServer;

  beforeAll(async () => {
    // The test client connects over loopback: 127.0.0.1 plays the proxy in front.
    proxied = await start('127.0.0.1', true);
  });
  afterAll(async () => Promise.all(servers.map((server) => server.close())));

  /** A burst of `GET /public/tmp` (rate-limited, cheap) with the X-Forwarded-For of request i. */
  const burst = (server: TestServer, forwardedFor: (i: number) => string) =>
    Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        server
          .client()
          .request('GET', `/public/tmp?token=${'t'.repeat(32)}`, undefined, {
            'x-forwarded-for': forwardedFor(i),
          })
          .then((response) => response.status),
      ),
    );
  const limited = (statuses: number[]) => statuses.filter((status) => status === 429).length;

  it(`${BURST} parallel requests from one client, each with a different forged address in front of it, share one limit of ${LIMIT}`, async () => {
    const statuses = await burst(proxied, (i) => `198.51.100.${i}, 203.0.113.10`);
    expect(limited(statuses)).toBe(BURST - LIMIT);
    // Another client behind the same proxy has its own limit.
    expect(limited(await burst(proxied, () => '203.0.113.11'))).toBe(BURST - LIMIT);
  });

  it('the log and the security events carry the address the proxy saw, never a forged one', async () => {
    const entries = lines.map((line) => JSON.parse(line) as Record<string, any>);
    const addresses = new Set(
      entries.map((entry) => entry.req?.remoteAddress ?? entry.ip).filter(Boolean),
    );
    expect(addresses).toEqual(new Set(['203.0.113.10', '203.0.113.11']));
    expect(entries.filter((entry) => entry.event === 'rate_limit.hit')).toHaveLength(
      2 * (BURST - LIMIT),
    );
    expect(lines.join('\n')).not.toContain('198.51.100.');
  });

  it('X-Forwarded-For from an address that is not the configured proxy is ignored', async () => {
    const server = await start('10.9.9.9');
    expect(limited(await burst(server, (i) => `198.51.100.${i}`))).toBe(BURST - LIMIT);
  });

  it('a hop count of 1 trusts the one proxy in front: the rightmost address is the client', async () => {
    const server = await start('1');
    expect(limited(await burst(server, (i) => `198.51.100.${i}, 203.0.113.20`))).toBe(
      BURST - LIMIT,
    );
    expect(limited(await burst(server, (i) => `203.0.113.${100 + i}`))).toBe(0);
  });
});
