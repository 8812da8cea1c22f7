import { PassThrough } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARGON2_PRODUCTION, configFromEnv } from '../../server/config';
import { COMMON_PASSWORD_COUNT, isCommonPassword, PasswordHasher } from '../../server/passwords';
import { PASSWORD, registeredClient, startServer, type TestServer } from './harness';

describe('what the server writes to its log', () => {
  let server: TestServer;
  const lines: string[] = [];

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) =>
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
    );
    server = await startServer({
      // Production refuses an http: origin off this machine (D132).
      env: { NODE_ENV: 'production', LOG_LEVEL: 'info', PUBLIC_ORIGIN: 'http://localhost' },
      logStream: stream,
    });
  });
  afterAll(async () => server?.close());

  it('never holds passwords, codes, session ids, tokens, SSNs or answer maps', async () => {
    const email = 'logs@example.com';
    const client = await registeredClient(server, email);
    const code = /(\d{6})/.exec(
      (await server.mail(email, 'confirmation code')).text,
    )?.[1] as string;
    await client.put('/api/answer', {
      ssn: '123-45-6789',
      first_name: 'Unmistakable-Name',
      conviction_comment: 'secret essay text',
    });
    const tmp = await server.client().post('/public/tmp', { answers: { first_name: 'Tmp-Name' } });
    await server.client().get(`/public/tmp?token=${tmp.body.token as string}`);
    await server.client().post('/public/forgot-password', { username: email });
    const resetMail = await server.mail(email, 'reset your password');
    const resetId = new URL(/(http\S+)/.exec(resetMail.text)?.[1] as string).searchParams.get(
      'id',
    ) as string;
    await new Promise((resolve) => setTimeout(resolve, 100));

    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const secret of [
      PASSWORD,
      code,
      client.cookies.get('session') as string,
      tmp.body.token as string,
      resetId,
      '123-45-6789',
      'Unmistakable-Name',
      'secret essay text',
    ]) {
      expect(log, secret).not.toContain(secret);
    }
    expect(log).toContain('/public/tmp?token=***');
  });
});

describe('mail over SMTP', () => {
  it('delivers the confirmation code through the configured SMTP server', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    const server = await startServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    try {
      await server
        .client()
        .post('/public/signup', { username: 'smtp@example.com', password: PASSWORD });
      // Sent by the job worker (D138).
      await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('To: smtp@example.com');
      expect(received[0]).toMatch(/Your confirmation code is \d{6}\./);
      expect(await server.outbox()).toEqual([]);
    } finally {
      await server.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});

describe('password storage', () => {
  it('uses Argon2id with m = 19 MiB, t = 2, p = 1 by default', async () => {
    expect(configFromEnv({}).argon2).toEqual(ARGON2_PRODUCTION);
    const hash = await new PasswordHasher(ARGON2_PRODUCTION).hash('Abcdefghij1!');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('knows at least 3000 common passwords, and their dressed-up forms', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThanOrEqual(3000);
    expect(isCommonPassword('password')).toBe(true);
    expect(isCommonPassword('Password123!')).toBe(true);
    expect(isCommonPassword('Qwerty2026!!')).toBe(true);
    expect(isCommonPassword('Correct-Horse-42')).toBe(false);
  });
});

describe('configuration', () => {
  it('refuses to start with a bad value, naming it', () => {
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => configFromEnv({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });

  it('treats an empty variable as unset', () => {
    expect(configFromEnv({ DATABASE_URL: '', SMTP_URL: '', PORT: '' })).toMatchObject({
      databaseUrl: undefined,
      smtpUrl: undefined,
      port: 3000,
    });
  });

  it('makes cookies Secure when the public origin is https', () => {
    expect(configFromEnv({ PUBLIC_ORIGIN: 'https://apply.example.edu' }).secureCookies).toBe(true);
    expect(configFromEnv({}).secureCookies).toBe(false);
  });

  it('refuses production on an http: origin off this machine, naming PUBLIC_ORIGIN (D132)', () => {
    const production = (origin?: string) =>
      configFromEnv({ NODE_ENV: 'production', PUBLIC_ORIGIN: origin });
    for (const origin of ['http://apply.example.edu', 'http://10.0.0.5:3000', 'http://[fe80::1]'])
      expect(() => production(origin), origin).toThrow(/PUBLIC_ORIGIN: .*https.*got http:/);
    // Behind a TLS proxy the origin is https:; the production build tried on this machine is not.
    expect(production('https://apply.example.edu').secureCookies).toBe(true);
    for (const origin of [
      undefined,
      'http://localhost:8080',
      'http://127.0.0.1',
      'http://[::1]:3000',
    ])
      expect(production(origin).secureCookies, origin).toBe(false);
    // Outside production an http: origin anywhere is still a developer's choice.
    expect(configFromEnv({ PUBLIC_ORIGIN: 'http://apply.example.edu' }).publicOrigin).toBe(
      'http://apply.example.edu',
    );
  });

  it('listens on this machine alone unless HOST says otherwise or production serves https (D132)', () => {
    expect(configFromEnv({}).host).toBe('localhost');
    expect(configFromEnv({ NODE_ENV: 'test' }).host).toBe('localhost');
    expect(configFromEnv({ NODE_ENV: 'production' }).host).toBe('localhost');
    expect(
      configFromEnv({ NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://apply.example.edu' }).host,
    ).toBe('0.0.0.0');
    expect(configFromEnv({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(
      configFromEnv({ NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://a.edu', HOST: '10.0.0.2' })
        .host,
    ).toBe('10.0.0.2');
  });

  it('builds links on the port the server listens on when no public origin is set', () => {
    expect(configFromEnv({ PORT: '3910' }).publicOrigin).toBe('http://localhost:3910');
    expect(configFromEnv({}).publicOrigin).toBe('http://localhost:3000');
    expect(
      configFromEnv({ PORT: '3910', PUBLIC_ORIGIN: 'https://apply.example.edu/' }).publicOrigin,
    ).toBe('https://apply.example.edu');
  });
});
