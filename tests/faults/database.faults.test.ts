/**
 * Faults between the server and PostgreSQL (SECURITY.md 4.3 and section 7 case 31): a TCP
 * fault proxy sits between them. Connections reset, slow, or silently dropped mid-request: the
 * server answers an error in bounded time (never hangs, never crashes), and once the database is
 * reachable again every save goes through and nothing acknowledged is lost. PostgreSQL only (PGlite
 * runs in the server's own process, with no connection to break); runs when TEST_DATABASE_URL is set.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_ERROR_MESSAGE } from '../../contract';
import { registeredClient, startServer, type TestServer } from '../server/harness';
import { onPostgres } from '../server/postgresOnly';
import { startFaultProxy, type FaultProxy } from './faultProxy';

const postgres = onPostgres('the server through a fault proxy to its database')
  ? (['postgres'] as const)
  : [];

/** The proxy itself, against a local echo server (so this file always proves its tool works). */
describe('the fault proxy', () => {
  let echo: net.Server;
  let proxy: FaultProxy;
  beforeAll(async () => {
    echo = net.createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    proxy = await startFaultProxy('127.0.0.1', (echo.address() as net.AddressInfo).port);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  const roundTrip = (text: string) =>
    new Promise<{ reply: string; ms: number; reset: boolean }>((resolve) => {
      const started = Date.now();
      const socket = net.connect(proxy.port, '127.0.0.1', () => socket.write(text));
      let reply = '';
      socket.on('data', (chunk) => {
        reply += chunk.toString();
        if (reply.length >= text.length) {
          socket.end();
          resolve({ reply, ms: Date.now() - started, reset: false });
        }
      });
      socket.on('error', () => resolve({ reply, ms: Date.now() - started, reset: true }));
      socket.on('close', () => resolve({ reply, ms: Date.now() - started, reset: reply === '' }));
    });

  it('passes bytes through, delays them under latency, and resets connections on command', async () => {
    expect((await roundTrip('hello')).reply).toBe('hello');
    proxy.set({ kind: 'latency', ms: 150 });
    const slow = await roundTrip('slow');
    expect(slow.reply).toBe('slow');
    expect(slow.ms).toBeGreaterThanOrEqual(290);
    proxy.set({ kind: 'reset' });
    const reset = await roundTrip('gone');
    expect(reset.reply).toBe('');
    expect(reset.reset).toBe(true);
    proxy.set({ kind: 'none' });
    expect((await roundTrip('back')).reply).toBe('back');
  });
});

describe.each(postgres)('server ↔ %s through a fault proxy', (database) => {
  let proxy: FaultProxy;
  let server: TestServer;
  beforeAll(async () => {
    const target = new URL(process.env.TEST_DATABASE_URL as string);
    proxy = await startFaultProxy(target.hostname, Number(target.port || 5432));
    server = await startServer({
      database,
      postgres: {
        queryTimeoutMs: 1_500,
        rewriteUrl: (url) => {
          const through = new URL(url);
          through.hostname = '127.0.0.1';
          through.port = String(proxy.port);
          return through;
        },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
  });

  const stored = async (client: Awaited<ReturnType<typeof registeredClient>>) =>
    (await client.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer;

  it('reset connections: the save fails with the generic message, then goes through, nothing lost', async () => {
    const client = await registeredClient(server, 'fault-reset@example.com');
    expect((await client.put('/api/answer', { first_name: 'Ada' })).status).toBe(200);

    proxy.set({ kind: 'reset' });
    const failed = await client.put('/api/answer', { last_name: 'Lovelace' });
    expect(failed.status).toBe(500);
    expect(failed.body.message).toBe(GENERIC_ERROR_MESSAGE);

    proxy.set({ kind: 'none' });
    let retried = await client.put('/api/answer', { last_name: 'Lovelace' });
    for (let i = 0; i < 5 && retried.status !== 200; i++)
      retried = await client.put('/api/answer', { last_name: 'Lovelace' });
    expect(retried.status).toBe(200);
    expect(await stored(client)).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
  });

  it('a connection dropped mid-request: an error within the query timeout, not a hang', async () => {
    const client = await registeredClient(server, 'fault-blackhole@example.com');
    expect((await client.put('/api/answer', { first_name: 'Ada' })).status).toBe(200);
    proxy.set({ kind: 'blackhole' });
    const started = Date.now();
    const failed = await client.put('/api/answer', { city: 'London' });
    expect(failed.status).toBe(500);
    expect(Date.now() - started).toBeLessThan(6_000);
    proxy.set({ kind: 'reset' }); // drop the stuck connections so the pool opens fresh ones
    proxy.set({ kind: 'none' });
    let retried = await client.put('/api/answer', { city: 'London' });
    for (let i = 0; i < 5 && retried.status !== 200; i++)
      retried = await client.put('/api/answer', { city: 'London' });
    expect(retried.status).toBe(200);
    expect(await stored(client)).toMatchObject({ first_name: 'Ada', city: 'London' });
  });

  it('300 ms of latency each way: slower, and every save acknowledged is stored', async () => {
    const client = await registeredClient(server, 'fault-latency@example.com');
    proxy.set({ kind: 'latency', ms: 300 });
    try {
      const keys = ['first_name', 'middle_name', 'last_name'] as const;
      const results = await Promise.all(
        keys.map((key) => client.put('/api/answer', { [key]: key })),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    } finally {
      proxy.set({ kind: 'none' });
    }
    expect(await stored(client)).toMatchObject({
      first_name: 'first_name',
      middle_name: 'middle_name',
      last_name: 'last_name',
    });
  });
});
