/**
 * D119: a refusal sent before the body is read (no session, here) waits for the client to finish
 * sending, within a bound, so the client reads the refusal instead of a connection reset; past the
 * bound the server stops reading and closes.
 */
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract';
import {
  UNREAD_BODY_DRAIN_BYTES,
  UNREAD_BODY_DRAIN_MS,
  UNREAD_BODY_LINGER_MS,
} from '../../server/security/unreadBody';
import { databaseKinds, startServer, type TestServer } from '../server/harness';

const MB = 1000 * 1000;
const ONE_MB_OF_JSON = `{"first_name":"${'a'.repeat(MB - 20)}"}`;
const BURST = 20;

/** What a raw connection saw: the bytes the server sent, and how the connection ended. */
interface Seen {
  readonly received: string;
  readonly ended: 'closed' | 'reset';
  readonly sentBytes: number;
  readonly ms: number;
}

/**
 * Opens a connection, sends `head`, then writes `body` chunks while the server takes them, `paceMs`
 * apart (an upload over a network slower than the loopback; a generator that never ends is an
 * endless upload), reading nothing before `readAfterMs`, and waits until the connection ends.
 */
function rawExchange(
  server: TestServer,
  head: string,
  body: Iterable<Buffer>,
  paceMs = 0,
  readAfterMs = 0,
): Promise<Seen> {
  const url = new URL(server.url);
  const started = Date.now();
  const socket = net.connect(Number(url.port), url.hostname);
  // A client busy elsewhere: what the server sends waits unread while it goes on writing.
  if (readAfterMs) {
    socket.pause();
    setTimeout(() => socket.resume(), readAfterMs);
  }
  let received = '';
  let ended: Seen['ended'] = 'closed';
  let sentBytes = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => (ended = 'reset'));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const pump = async () => {
    socket.write(head);
    for (const chunk of body) {
      if (socket.destroyed) return;
      sentBytes += chunk.length;
      if (!socket.write(chunk))
        // A reset rejects `once`: the connection's end is what the caller looks at.
        await Promise.race([once(socket, 'drain').catch(() => undefined), closed]);
      if (paceMs) await delay(paceMs);
    }
  };
  return Promise.all([pump(), closed]).then(() => ({
    received,
    ended,
    sentBytes,
    ms: Date.now() - started,
  }));
}

function* repeated(chunk: Buffer, times = Infinity): Generator<Buffer> {
  for (let i = 0; i < times; i++) yield chunk;
}

describe.each(databaseKinds)('D119 a refusal before the body is read, on %s', (database) => {
  let server: TestServer;
  let host: string;

  beforeAll(async () => {
    server = await startServer({ database });
    host = new URL(server.url).host;
  }, 120_000);
  afterAll(async () => server?.close());

  const refused = { status: 401, body: { message: serverMessages.sessionRequired } };

  it('a client sending 1 MB without a session gets the 401 and its message, asking to close or not', async () => {
    const client = server.client();
    for (const connection of ['close', 'keep-alive'])
      expect(
        await client.request('PUT', '/api/answer', ONE_MB_OF_JSON, { connection }),
        connection,
      ).toMatchObject(refused);
  });

  /** 1 MB in 16 pieces 50 ms apart: the refusal leaves before the upload has finished. */
  const pacedUpload = () =>
    rawExchange(
      server,
      `PUT /api/answer HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${ONE_MB_OF_JSON.length}\r\nConnection: close\r\n\r\n`,
      Array.from({ length: 16 }, (_, i) =>
        Buffer.from(ONE_MB_OF_JSON.slice((i * MB) / 16, ((i + 1) * MB) / 16)),
      ),
      50,
    );

  it('a slower 1 MB upload without a session ends with the 401 and a clean close, not a reset', async () => {
    const seen = await pacedUpload();
    expect(seen.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(seen.received).toContain(serverMessages.sessionRequired);
    expect(seen).toMatchObject({ ended: 'closed', sentBytes: ONE_MB_OF_JSON.length });
  });

  it(`${BURST} such uploads at once all end with the 401 and a clean close`, async () => {
    const seen = await Promise.all(Array.from({ length: BURST }, pacedUpload));
    expect(seen.map((one) => [one.received.slice(0, 12), one.ended, one.sentBytes])).toEqual(
      Array.from({ length: BURST }, () => ['HTTP/1.1 401', 'closed', ONE_MB_OF_JSON.length]),
    );
  }, 60_000);

  it('a chunked 1 MB body without a session is read to its end, and the connection stays usable', async () => {
    const chunk = Buffer.from(ONE_MB_OF_JSON.slice(0, 50_000));
    const chunked = [...repeated(chunk, 20)].map((piece) =>
      Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]),
    );
    const seen = await rawExchange(
      server,
      `PUT /api/answer HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      [
        ...chunked,
        Buffer.from('0\r\n\r\n'),
        // A second request on the same connection, answered too: nothing of the first was left.
        Buffer.from(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      ],
    );
    expect(seen.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(seen.received).toContain(serverMessages.sessionRequired);
    expect(seen.received).toMatch(/HTTP\/1\.1 200 [^]*$/);
  });

  it('a declared length over the bound is not read: the 401 comes at once, then the server closes', async () => {
    const seen = await rawExchange(
      server,
      `PUT /api/answer HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${64 * UNREAD_BODY_DRAIN_BYTES}\r\n\r\n`,
      repeated(Buffer.alloc(64 * 1024, 0x20)),
    );
    expect(seen.received).toMatch(/^HTTP\/1\.1 401 [^]*connection: close/i);
    expect(seen.ms).toBeLessThan(UNREAD_BODY_DRAIN_MS);
    expect(seen.sentBytes).toBeLessThan(64 * UNREAD_BODY_DRAIN_BYTES);
  }, 60_000);

  /** 64 KiB chunks for ever, without a session; the client reads nothing before `readAfterMs`. */
  const endlessChunkedUpload = (readAfterMs = 0) => {
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const chunk = Buffer.concat([Buffer.from('10000\r\n'), piece, Buffer.from('\r\n')]);
    return rawExchange(
      server,
      `PUT /api/answer HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      repeated(chunk),
      0,
      readAfterMs,
    );
  };

  it('an endless chunked body is read no further than the bound, then answered and closed', async () => {
    const seen = await endlessChunkedUpload();
    expect(seen.received).toMatch(/^HTTP\/1\.1 401 [^]*connection: close/i);
    expect(seen.ms).toBeLessThan(UNREAD_BODY_DRAIN_MS + 10_000);
  }, 60_000);

  it('an endless upload from a client slow to read still reads the answer, not a reset', async () => {
    const seen = await endlessChunkedUpload(UNREAD_BODY_LINGER_MS / 2);
    expect(seen.received).toMatch(/^HTTP\/1\.1 401 [^]*connection: close/i);
    expect(seen.received).toContain(serverMessages.sessionRequired);
    expect(seen.ms).toBeLessThan(UNREAD_BODY_DRAIN_MS + UNREAD_BODY_LINGER_MS + 10_000);
  }, 60_000);

  it(`a body that stalls is waited for ${UNREAD_BODY_DRAIN_MS} ms, then answered and closed`, async () => {
    const seen = await rawExchange(
      server,
      `PUT /api/answer HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
      [Buffer.from('{"first_name":"')],
    );
    expect(seen.received).toMatch(/^HTTP\/1\.1 401 [^]*connection: close/i);
    expect(seen.received).toContain(serverMessages.sessionRequired);
    expect(seen.ms).toBeGreaterThanOrEqual(UNREAD_BODY_DRAIN_MS - 100);
  }, 60_000);
});
