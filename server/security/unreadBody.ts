/**
 * A response sent before the request's body was read (the cheap refusals of D72: no session,
 * cross-site, a bad query, a declared length over the route's limit) first reads and discards what
 * the client is still sending, within a bound (D119). Closing on a client that is still uploading
 * resets the connection, and the client may then never see the refusal; waiting without a bound
 * would let an anonymous client keep the server reading for ever.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** A few times the largest body any route takes (1 MiB): an honest overshoot still gets the answer. */
export const UNREAD_BODY_DRAIN_BYTES = 4 * 1024 * 1024;
/** How long a refusal waits for the rest of the body before it is sent and the connection closed. */
export const UNREAD_BODY_DRAIN_MS = 5_000;
/**
 * Past a bound, how long the connection still reads and drops what arrives after the answer and its
 * end: closing with bytes unread sends a reset, which can reach the client before it reads the answer.
 */
export const UNREAD_BODY_LINGER_MS = 2_000;

/** True when the request still has body bytes on the way that nothing has started to read. */
function hasUnreadBody(raw: IncomingMessage): boolean {
  return !raw.complete && raw.readableFlowing === null;
}

/**
 * Reads and discards the rest of the body; false when it is over the byte bound (declared or
 * counted) or still arriving after the time bound, and then reading stops.
 */
function discardRest(raw: IncomingMessage): Promise<boolean> {
  if (Number(raw.headers['content-length']) > UNREAD_BODY_DRAIN_BYTES)
    return Promise.resolve(false);
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      raw.removeListener('data', onData);
      raw.removeListener('end', onEnd);
      raw.removeListener('error', onError);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > UNREAD_BODY_DRAIN_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const timer = setTimeout(() => finish(false), UNREAD_BODY_DRAIN_MS);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onError);
  });
}

/**
 * Node closes a `connection: close` socket as soon as the answer is written (`destroySoon`). Here it
 * ends its side instead and keeps dropping what the client still sends, until the client closes or
 * `UNREAD_BODY_LINGER_MS` passes: the close is then an end the client reads after the answer.
 */
function lingerAfterAnswer(raw: IncomingMessage): void {
  const socket: Socket = raw.socket;
  raw.resume();
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), UNREAD_BODY_LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
  };
}

export function registerUnreadBodyDrain(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!hasUnreadBody(request.raw)) return payload;
    // Past the bound the connection cannot carry another request: it ends after this answer.
    if (!(await discardRest(request.raw))) {
      void reply.header('connection', 'close');
      lingerAfterAnswer(request.raw);
    }
    return payload;
  });
}
