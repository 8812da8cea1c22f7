/**
 * Staff of a test server: added through the command line's call, joined from the mailed invitation,
 * enrolled with the code an authenticator app would show (the test's clock), signed in.
 */
import { expect } from 'vitest';
import type { StaffRole } from '../../contract/staff';
import { cliKey } from '../../server/serviceView/serviceTokens';
import { codeAt } from '../../server/staff/totp';
import { PASSWORD, registeredClient, type Client, type TestServer } from './harness';

/** A second college on the same server, for the console's tenant isolation. */
export const SOUTH_HOST = 'south.test';
export const SOUTHFIELD = {
  id: 'southfield',
  name: 'Southfield',
  definitionId: 'northfield-undergraduate',
  hosts: [SOUTH_HOST],
};

/** How many responses of a burst ended with each status. */
export const statusCounts = (responses: { status: number }[]) =>
  responses.reduce<Record<number, number>>((counts, { status }) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

export interface SignedInStaff {
  readonly client: Client;
  readonly secret: string;
  readonly recoveryCodes: string[];
}

/** The invitation token in the newest invitation mail to `email`. */
export async function invitationToken(server: TestServer, email: string): Promise<string> {
  const mail = await server.mail(email, 'staff console invitation');
  const token = /\/staff\/join\?token=([A-Za-z0-9_%-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error('no invitation link in the mail');
  return decodeURIComponent(token);
}

/** Adds a staff member as `npm run staff -- add` does, through the running server. */
export async function addStaffByCli(
  server: TestServer,
  email: string,
  role: StaffRole,
  host?: string,
): Promise<void> {
  const response = await server
    .client(host)
    .request(
      'POST',
      '/staff/api/cli/staff',
      { email, role },
      { authorization: `Bearer ${cliKey(server.built.context.config)}` },
    );
  expect(response.status).toBe(200);
}

/** Joins from the invitation, signs in with the password, enrols a new authenticator. */
export async function enrolledStaff(
  server: TestServer,
  email: string,
  role: StaffRole,
  host?: string,
): Promise<SignedInStaff> {
  await addStaffByCli(server, email, role, host);
  const client = server.client(host);
  const joined = await client.post('/staff/api/join', {
    token: await invitationToken(server, email),
    password: PASSWORD,
  });
  expect(joined.status).toBe(200);
  const login = await client.post('/staff/api/login', { email, password: PASSWORD });
  expect(login.body).toEqual({ email, role, stage: 'enrol' });
  const enrolment = await client.get('/staff/api/enrolment');
  const secret = enrolment.body.secret as string;
  const enrolled = await client.post('/staff/api/enrolment', {
    code: codeAt(secret, server.clock.now()),
  });
  expect(enrolled.status).toBe(200);
  return { client, secret, recoveryCodes: enrolled.body.recovery_codes as string[] };
}

/** A fresh sign-in of an enrolled staff member, with the code of the next 30-second step. */
export async function signIn(
  server: TestServer,
  email: string,
  secret: string,
  host?: string,
): Promise<Client> {
  const client = server.client(host);
  const login = await client.post('/staff/api/login', { email, password: PASSWORD });
  expect(login.body.stage).toBe('verify');
  server.clock.advance(30_000);
  const verified = await client.post('/staff/api/verify', {
    code: codeAt(secret, server.clock.now()),
  });
  expect(verified.status).toBe(200);
  return client;
}

/**
 * An enrolled admin and one applicant who has saved a name: the console's list then holds a row,
 * the applicant's, whose id comes back.
 */
export async function adminWithApplicant(
  server: TestServer,
  adminEmail: string,
  applicantEmail: string,
): Promise<{ admin: SignedInStaff; applicant: Client; applicantId: string }> {
  const admin = await enrolledStaff(server, adminEmail, 'admin');
  const applicant = await registeredClient(server, applicantEmail);
  await applicant.put('/api/answer', { first_name: 'Ada', last_name: 'Lovelace' });
  const list = await admin.client.get('/staff/api/applications');
  return { admin, applicant, applicantId: list.body.rows[0].id as string };
}
