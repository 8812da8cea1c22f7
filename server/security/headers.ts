/**
 * Response headers of every answer (SECURITY.md ASVS 3.4.1–3.4.6, 14.3.2): a strict CSP,
 * nosniff, no-referrer, frame denial and the cross-origin isolation headers through @fastify/helmet
 * (docs/decisions/ D50); HSTS only on requests that arrived over https (trust-proxy aware);
 * `Cache-Control: no-store` on everything except the content-hashed assets.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';
import { sendEncoded } from '../delivery/encoding';
import type { Tenant } from '../tenant';
import { CSP_NONCE_PLACEHOLDER, cspDirectives, cspHeader, type CspDirectives } from './csp';
import { tenantPage } from './tenantPage';

/** Vite's content-hashed build output: the name changes with the content, so it may be kept. */
export const IMMUTABLE_PREFIX = '/assets/';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: ServerConfig,
): Promise<CspDirectives> {
  const directives = cspDirectives({ upgradeInsecureRequests: config.secureCookies });
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives },
    // Sent below, and only over https: over plain http it would be ignored or, behind a
    // misconfigured proxy, pin a host that has no certificate.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });

  app.addHook('onRequest', async (request, reply) => {
    // request.protocol reads X-Forwarded-Proto only when TRUST_PROXY is set.
    if (config.hstsMaxAge > 0 && request.protocol === 'https')
      reply.header('Strict-Transport-Security', `max-age=${config.hstsMaxAge}; includeSubDomains`);
  });

  app.addHook('onSend', async (request, reply) => {
    // Anything reached through a token in the address stays out of search indexes (SECURITY.md).
    if (TOKEN_PAGE.test(request.url)) reply.header('X-Robots-Tag', 'noindex');
    if (reply.hasHeader('Cache-Control')) return;
    const hashedAsset =
      request.method === 'GET' &&
      reply.statusCode === 200 &&
      request.url.startsWith(IMMUTABLE_PREFIX);
    reply.header('Cache-Control', hashedAsset ? IMMUTABLE_CACHE : 'no-store');
  });
  return directives;
}

/** Query parameters that carry a token (SPEC 2.2 `token`, 2.9 `service_token`, the reset link `id`). */
const TOKEN_PAGE = /^\/reset(\/|\?|$)|[?&](token|service_token|id)=/;

/**
 * Serves the app's index.html with its tenant's title, description and data (D143) and a fresh CSP
 * nonce per response (Vite's html.cspNonce placeholder, replaced here), compressed per response;
 * never cached, since the nonce must not be reused. The tenant's page is written once per tenant
 * object: the directory makes a new one when its institution file or definition version changes.
 */
export function indexPageSender(clientDir: string, directives: CspDirectives) {
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const pages = new WeakMap<Tenant, string>();
  const pageOf = (tenant: Tenant) => {
    let page = pages.get(tenant);
    if (page === undefined) {
      page = tenantPage(html, {
        institution: tenant.institution,
        definition: tenant.definition,
        definitionVersion: tenant.definitionVersion,
      });
      pages.set(tenant, page);
    }
    return page;
  };
  return (request: FastifyRequest, reply: FastifyReply) => {
    const nonce = randomBytes(18).toString('base64');
    reply.header('Content-Security-Policy', cspHeader(directives, nonce));
    reply.header('Cache-Control', 'no-store');
    // Pages reached through a token are kept out of search indexes (SECURITY.md, URL tokens).
    if (TOKEN_PAGE.test(request.url)) reply.header('X-Robots-Tag', 'noindex');
    reply.type('text/html; charset=utf-8');
    return sendEncoded(
      request,
      reply,
      pageOf(request.tenant).replaceAll(CSP_NONCE_PLACEHOLDER, nonce),
    );
  };
}
