/**
 * Where a college's links lead (D196): every link a mail or a service link carries starts with its
 * tenant's origin, made here and nowhere else, never from a request's `Host` header.
 */
import type { ServerConfig } from './config';
import type { MailCollege } from './mail/templates';
import type { Tenant } from './tenant';

export type OriginConfig = Pick<ServerConfig, 'publicOrigin' | 'defaultTenant'>;

/**
 * PUBLIC_ORIGIN's scheme and port with the tenant's first host, so a college's links open that
 * college. The default tenant, a tenant with no host and an unknown one keep PUBLIC_ORIGIN. Link
 * builders reach it as `ServiceContext.originOf`; none reads PUBLIC_ORIGIN itself.
 */
export function tenantOrigin(
  tenant: Pick<Tenant, 'id' | 'hosts'> | undefined,
  config: OriginConfig,
): string {
  const host = tenant?.hosts[0];
  if (!tenant || !host || tenant.id === config.defaultTenant) return config.publicOrigin;
  const origin = new URL(config.publicOrigin);
  origin.hostname = host;
  return origin.href.replace(/\/$/, '');
}

/** What a tenant's mails speak with (its configuration and completion steps) and link to. */
export function collegeOf(
  tenant: Pick<Tenant, 'id' | 'hosts' | 'institution'>,
  config: OriginConfig,
): MailCollege {
  return {
    config: tenant.institution.config,
    completion: tenant.institution.completion,
    origin: tenantOrigin(tenant, config),
  };
}
