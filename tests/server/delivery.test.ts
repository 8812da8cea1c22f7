/**
 * D84: compressed, cacheable delivery of the built app by the real server. The hashed assets go
 * out as the build's Brotli or gzip siblings, whichever the request accepts best, index.html is
 * compressed per response (it carries a fresh nonce), and a request that accepts neither gets the
 * plain bytes. The page paints its loading state and starts the profile request before any script
 * file arrives.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LOAD_PATHS } from '../../contract';
import { buildClient } from '../e2e/harness';
import { startServer, type TestServer } from './harness';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ config: { clientDir: await buildClient() } });
}, 180_000);
afterAll(() => server?.close());

/** A raw GET (fetch would decode the body and hide what went over the wire). */
function get(
  path: string,
  acceptEncoding?: string,
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const req = request(
      url,
      { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const decode = (encoding: string | undefined, body: Buffer): Buffer =>
  encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

async function firstPageScript(): Promise<string> {
  const html = decode('br', (await get('/', 'br')).body).toString();
  const src = /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!src) throw new Error('index.html names no module script');
  return src;
}

describe('compressed delivery (D84)', () => {
  it('sends the first page script as Brotli, gzip or identity, as the request accepts', async () => {
    const script = await firstPageScript();
    const plain = await get(script);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accept, encoding] of [
      ['br, gzip, deflate', 'br'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['gzip', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
      ['', undefined],
    ] as const) {
      const response = await get(script, accept);
      expect(response.status, accept).toBe(200);
      expect(response.headers['content-encoding'], accept).toBe(encoding);
      expect(response.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(response.headers['content-type'], accept).toMatch(/javascript/);
      expect(response.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      expect(decode(encoding, response.body).equals(plain.body), accept).toBe(true);
      if (encoding) expect(response.body.length).toBeLessThan(plain.body.length / 3);
    }
  });

  it('compresses index.html per response, with a fresh nonce each time', async () => {
    const [a, b, plain] = await Promise.all([
      get('/about', 'gzip, deflate, br'),
      get('/education', 'gzip'),
      get('/about'),
    ]);
    expect(a.headers['content-encoding']).toBe('br');
    expect(b.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const response of [a, b, plain]) {
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('no-store');
    }
    const nonceOf = (html: string) => /<script nonce="([^"]+)">/.exec(html)?.[1];
    const htmlA = decode('br', a.body).toString();
    const htmlB = decode('gzip', b.body).toString();
    expect(nonceOf(htmlA)).toBeTruthy();
    expect(nonceOf(htmlA)).not.toBe(nonceOf(htmlB));
    expect(a.headers['content-security-policy']).toContain(`'nonce-${nonceOf(htmlA)}'`);
  });

  it('paints the loading state and starts the first calls from the page itself', async () => {
    const html = decode('br', (await get('/about', 'br')).body).toString();
    // SPEC 2.2's spinner, announced, inside #root (React replaces it).
    expect(html).toMatch(/<div id="root">\s*<div class="boot" role="status">/);
    expect(html).toContain('<span class="boot-hidden">Loading…</span>');
    expect(html).toMatch(/<style nonce="[^"]+">\.boot\{/);
    // The early requests of a logged-in page come before the app's script.
    const early = html.indexOf(JSON.stringify(FIRST_LOAD_PATHS));
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThan(html.indexOf('<script type="module"'));
  });

  it('never serves the compressed siblings by name', async () => {
    const script = await firstPageScript();
    for (const sibling of [`${script}.br`, `${script}.gz`])
      expect((await get(sibling, 'br')).status).toBe(404);
  });
});
