/**
 * D125: the parts of a bounded stop (server/shutdown.ts) on a real Fastify instance. A
 * step added `atStart` begins when the close does, while a request is still running; a plain
 * `onClose` hook (also one a plugin adds) that never resolves is named, by where it was added, in
 * what the bound reports as pending; hooks that finish are not.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ClosingSteps, closeWithin } from '../../server/shutdown';

const quiet = { info: () => undefined, error: () => undefined, warn: () => undefined };

describe('closing steps', () => {
  it('starts an atStart step as soon as the close begins, before the request in flight ends, and runs it once', async () => {
    const app = Fastify();
    const closing = new ClosingSteps();
    closing.trackRequests(app);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    app.get('/slow', async () => {
      await held;
      return { ok: true };
    });
    let runs = 0;
    closing.add(app, 'job worker', async () => (runs += 1), 1000, { atStart: true });
    const order: string[] = [];
    closing.add(app, 'database', async () => order.push('database'));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address() as { port: number };
    const answer = fetch(`http://127.0.0.1:${address.port}/slow`);
    await expect.poll(() => closing.stillPending()).toContain('request GET /slow ×1');

    const closed = app.close();
    await expect.poll(() => runs).toBe(1);
    // The request still runs, and the later steps wait for it.
    expect(closing.stillPending()).toContain('request GET /slow ×1');
    expect(order).toEqual([]);
    release();
    expect((await answer).status).toBe(200);
    await closed;
    expect(runs).toBe(1);
    expect(order).toEqual(['database']);
    await expect.poll(() => closing.stillPending()).toEqual([]);
  });

  it('names a plain onClose hook that never resolves by where it was added, a plugin’s too, and not the ones that finished', async () => {
    const app = Fastify();
    const closing = new ClosingSteps();
    closing.nameCloseHooks(app);
    let callbackHookRan = false;
    app.addHook('onClose', (_instance, done) => {
      callbackHookRan = true;
      done();
    });
    app.addHook('onClose', async () => undefined);
    await app.register(async (plugin) => {
      plugin.addHook('onClose', () => new Promise(() => {}));
    });
    await app.ready();
    const logged: unknown[] = [];
    const log = { info: () => undefined, error: (fields: unknown) => logged.push(fields) };
    const codes: number[] = [];
    const code = await closeWithin(
      () => app.close(),
      closing,
      log,
      (c) => codes.push(c),
      300,
    );
    expect(code).toBe(1);
    expect(codes).toEqual([1]);
    expect(logged).toEqual([
      {
        pending: [
          expect.stringMatching(/^onClose hook \(tests\/server\/shutdownSteps\.test\.ts:\d+\)$/),
        ],
        boundMs: 300,
      },
    ]);
    // Fastify runs onClose hooks last-added first: the plugin's hangs, and the others never start.
    expect(callbackHookRan).toBe(false);
  });

  it('lets a callback-style and a promise onClose hook finish, the close resolving with nothing pending', async () => {
    const app = Fastify();
    const closing = new ClosingSteps();
    closing.nameCloseHooks(app);
    const ran: string[] = [];
    app.addHook('onClose', (_instance, done) => {
      ran.push('callback');
      setTimeout(done, 10);
    });
    app.addHook('onClose', async () => {
      ran.push('promise');
    });
    await app.ready();
    const codes: number[] = [];
    expect(
      await closeWithin(
        () => app.close(),
        closing,
        quiet,
        (c) => codes.push(c),
        2000,
      ),
    ).toBe(0);
    expect(ran.sort()).toEqual(['callback', 'promise']);
    expect(closing.stillPending()).toEqual([]);
  });
});
