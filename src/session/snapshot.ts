/** SPEC 3.1: the client snapshot, derived in one place from the profile, the cookie and this session. */
import { deriveWebStatus, type WebStatus } from '../../contract';
import type { ProfileResponse } from '../../contract';

export interface ClientSnapshot {
  readonly web_status: WebStatus | null;
  readonly last_page: string | null;
  readonly is_logged_in: boolean;
  readonly username: string | null;
  readonly is_service_user: boolean;
  readonly num_logins: number | null;
  readonly has_changed_page: boolean;
}

export function clientSnapshot(input: {
  readonly profile: ProfileResponse | null;
  readonly loggedIn: boolean;
  readonly hasChangedPage: boolean;
  /** A status set locally ahead of the server (SPEC 4.1). */
  readonly webStatus?: WebStatus | null;
  readonly serviceUser?: boolean;
}): ClientSnapshot {
  const { profile, loggedIn } = input;
  return {
    web_status:
      input.webStatus !== undefined
        ? input.webStatus
        : profile
          ? deriveWebStatus(profile.web_status)
          : null,
    last_page: profile?.last_page ?? null,
    is_logged_in: loggedIn,
    username: profile?.username ?? null,
    is_service_user: input.serviceUser ?? false,
    num_logins: profile ? Math.max(1, profile.successful_login.length) : null,
    has_changed_page: input.hasChangedPage,
  };
}

/** SPEC 2.3: the banner shows when submitted, when logged out, or before any page change while num_logins < 3. */
export function showsWelcomeBanner(snapshot: ClientSnapshot): boolean {
  return (
    snapshot.web_status === 'submitted' ||
    !snapshot.is_logged_in ||
    (!snapshot.has_changed_page && (snapshot.num_logins ?? 0) < 3)
  );
}
