/**
 * The session cookie (HttpOnly, SameSite=Lax; Secure with the __Host- prefix over https) and the
 * readable indicator cookie the client derives `is_logged_in` from (SPEC 3.1).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INDICATOR_COOKIE } from '../contract/firstLoad';
import type { ServerConfig } from './config';

export { INDICATOR_COOKIE };

/** What a logout, an applicant's or staff's, asks the browser to forget of the site (SECURITY.md 7.11). */
export const CLEAR_SITE_DATA = '"cache", "cookies", "storage"';

export function sessionCookieName(config: ServerConfig): string {
  return config.secureCookies ? '__Host-session' : 'session';
}

const sharedOptions = (config: ServerConfig) => ({
  path: '/',
  sameSite: 'lax' as const,
  secure: config.secureCookies,
});

export function setSessionCookies(
  reply: FastifyReply,
  config: ServerConfig,
  sessionId: string,
): void {
  const common = sharedOptions(config);
  reply.setCookie(sessionCookieName(config), sessionId, { ...common, httpOnly: true });
  reply.setCookie(INDICATOR_COOKIE, '1', { ...common, httpOnly: false });
}

export function clearSessionCookies(reply: FastifyReply, config: ServerConfig): void {
  const common = sharedOptions(config);
  reply.clearCookie(sessionCookieName(config), { ...common, httpOnly: true });
  reply.clearCookie(INDICATOR_COOKIE, common);
}

/**
 * A 401's answer clears only the cookies its request carried. A request sent without them (from a
 * tab another tab logged out) may be answered after a new login in that browser, and clearing then
 * would end the new session under the applicant.
 */
export function clearCarriedSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  config: ServerConfig,
): void {
  const common = sharedOptions(config);
  if (sessionCookie(request, config) !== undefined)
    reply.clearCookie(sessionCookieName(config), { ...common, httpOnly: true });
  if (request.cookies[INDICATOR_COOKIE] !== undefined) reply.clearCookie(INDICATOR_COOKIE, common);
}

export function sessionCookie(request: FastifyRequest, config: ServerConfig): string | undefined {
  return request.cookies[sessionCookieName(config)];
}
