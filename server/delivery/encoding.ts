/**
 * Content encoding of what the server sends (D84). The hashed assets are compressed once, at
 * build time (vite-plugin-compression2 writes `.br` and `.gz` siblings that @fastify/static serves
 * with `preCompressed`); index.html carries a fresh CSP nonce per response, so it is compressed here,
 * per response, at a quality that costs well under a millisecond for its size.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Encodings in the server's order of preference; identity when the request accepts neither. */
export const PAGE_ENCODINGS = ['br', 'gzip'] as const;
type PageEncoding = (typeof PAGE_ENCODINGS)[number];

const negotiator = new Negotiator<PageEncoding | 'identity'>({
  supportedValues: [...PAGE_ENCODINGS, 'identity'],
});

const encoders: Record<PageEncoding, (body: Buffer) => Buffer> = {
  br: (body) =>
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => gzipSync(body, { level: 6 }),
};

/** The best encoding `Accept-Encoding` allows, or null for identity. */
export function pageEncoding(acceptEncoding: string | undefined): PageEncoding | null {
  const chosen = acceptEncoding ? negotiator.negotiate(acceptEncoding) : null;
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/** Sends a text body compressed with the best encoding the request accepts (Vary either way). */
export function sendEncoded(request: FastifyRequest, reply: FastifyReply, body: string) {
  reply.header('Vary', 'Accept-Encoding');
  const encoding = pageEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(body);
  return reply.header('Content-Encoding', encoding).send(encoders[encoding](Buffer.from(body)));
}
