/**
 * Security events (issue 15.10, ASVS 16.3): refusals an operator alerts on, logged as one warn line
 * each with a stable `event` name, the tenant, route and client address, and the account as an id or
 * a hash of its address. Never the password, code, token or address itself.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { HttpError } from '../errors';
import { sha256 } from '../secrets';

export const SECURITY_EVENTS = [
  'auth.login_failed',
  'auth.lockout',
  'auth.hard_stop',
  'auth.confirm_failed',
  'auth.staff_key_refused',
  'staff.role_refused',
  'token.reset_refused',
  'token.service_refused',
  'token.download_refused',
  'token.tmp_refused',
  'token.upload_refused',
  'csrf.refused',
  'rate_limit.hit',
  'metrics.token_refused',
] as const;
export type SecurityEvent = (typeof SECURITY_EVENTS)[number];

/** Who the event is about: the account id when known, else the address it was tried with. */
export interface EventSubject {
  readonly account?: string;
  readonly address?: unknown;
}

/** The log line's text: every event shares it, the `event` field tells them apart. */
export const SECURITY_EVENT_MESSAGE = 'security event';

/** A stable pseudonym of an address: the same address gives the same hash, for correlation. */
export function addressHash(address: string): string {
  return sha256(`address:${address.trim().toLowerCase()}`).slice(0, 16);
}

type EventSource = Pick<FastifyRequest, 'ip' | 'routeOptions'> & {
  readonly log: FastifyBaseLogger;
  readonly tenant?: { readonly id: string } | null;
};

export function securityEvent(
  request: EventSource,
  event: SecurityEvent,
  subject: EventSubject = {},
): void {
  request.log.warn(
    {
      event,
      tenant: request.tenant?.id,
      route: request.routeOptions.url,
      ip: request.ip,
      ...(subject.account ? { account: subject.account } : {}),
      ...(typeof subject.address === 'string' ? { addressHash: addressHash(subject.address) } : {}),
    },
    SECURITY_EVENT_MESSAGE,
  );
}

/**
 * A rejection handler: a refusal (HttpError) that `classify` names is logged as that event, then
 * rethrown unchanged. `promise.catch(refusals(request, classify, subject))`.
 */
export function refusals(
  request: EventSource,
  classify: (error: HttpError) => SecurityEvent | null,
  subject: EventSubject = {},
): (error: unknown) => never {
  return (error) => {
    if (error instanceof HttpError) {
      const event = classify(error);
      if (event) securityEvent(request, event, subject);
    }
    throw error;
  };
}
