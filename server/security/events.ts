/**
 * Security events (ASVS 16.3): refusals an operator alerts on, logged as one warn line
 * each with a stable `event` name, the tenant, route and client address, and the account as an id or
 * a hash of its address. Never the password, code, token or address itself.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';
import { HttpError } from '../errors';
import { hmac, secretFile } from '../secrets';

declare module 'fastify' {
  interface FastifyInstance {
    /** The HMAC key of the log's address pseudonyms (D151). */
    logPseudonymKey: string;
  }
}

/** The file in DATA_DIR holding the generated pseudonym key when none is configured. */
export const LOG_PSEUDONYM_KEY_FILE = 'log-pseudonym.key';

/** LOG_PSEUDONYM_SECRET, else a random key kept in DATA_DIR (mode 600). */
export function logPseudonymKey(config: Pick<ServerConfig, 'logPseudonymSecret' | 'dataDir'>) {
  return config.logPseudonymSecret ?? secretFile(config.dataDir, LOG_PSEUDONYM_KEY_FILE);
}

/** Gives the server its pseudonym key: every log line naming an address reads it from there. */
export function registerLogPseudonyms(app: FastifyInstance, config: ServerConfig): void {
  app.decorate('logPseudonymKey', logPseudonymKey(config));
}

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

/**
 * A stable pseudonym of an address: the same address gives the same one, for correlation; keyed
 * (D151), so a list of addresses does not reverse it without the key.
 */
export function addressHash(key: string, address: string): string {
  return hmac(key, `address:${address.trim().toLowerCase()}`).slice(0, 22);
}

/** A staff member as the log names them: an address by its pseudonym, a key's id as it is. */
export function staffLogId(key: string, staffId: string): string {
  return staffId.includes('@') ? `address:${addressHash(key, staffId)}` : staffId;
}

type EventSource = Pick<FastifyRequest, 'ip' | 'routeOptions'> & {
  readonly server: Pick<FastifyInstance, 'logPseudonymKey'>;
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
      ...(typeof subject.address === 'string'
        ? { addressHash: addressHash(request.server.logPseudonymKey, subject.address) }
        : {}),
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
