/**
 * Password reset by mail, end to end through a real SMTP server on loopback: the request answers
 * the same for every address, the mail carries a single-use link that lives 30 minutes on the
 * service clock and is voided by a newer request, and confirming sets the password, ends device
 * logins and older session tokens, and signs in. Without SMTP_URL the feature says it is off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_RESET_LINK, MAIL_NOT_CONFIGURED } from '../../src/api/auth/password-reset.js';
import { linkIn, startMailServer, type TestMailServer } from '../support/mail-server.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { MINUTE, SECOND, TestClock, bearer, call, createPersonalAccessToken } from '../support/access.js';

const PUBLIC_URL = 'https://sightline.test';
const OLD_PASSWORD = 'correct horse battery';

describe('password reset', () => {
  const clock = new TestClock();
  let mail: TestMailServer;
  let service: TestService;
  let addresses = 0;

  beforeAll(async () => {
    mail = await startMailServer();
    service = await startTestService({ PUBLIC_URL, SMTP_URL: mail.url }, { now: clock.now });
  });
  afterAll(async () => {
    await service?.close();
    await mail?.close();
  });

  // Each request from its own address: the 5-a-minute limit is tested in rate-limits.test.ts.
  const ask = (email: string) =>
    call(service.app, {
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email },
      remoteAddress: `198.51.100.${++addresses}`,
    });
  const confirm = (token: string, password: string) =>
    call(service.app, { method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password } });
  const login = (email: string, password: string) =>
    call(service.app, { method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const me = (token: string) => call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) });

  /** Asks for a reset of `email` and returns the token of the link that arrives. */
  async function resetToken(email: string): Promise<string> {
    expect(await ask(email)).toMatchObject({ status: 202, body: { status: 'sent' } });
    const message = await mail.next();
    expect(message.to).toMatchObject({ value: [{ address: email }] });
    return linkIn(message, `${PUBLIC_URL}/reset-password?token=`).searchParams.get('token')!;
  }

  it('mails a link; the link sets a new password and signs in; the old password stops working', async () => {
    const user = await registerUser(service.app);
    expect(await ask(user.user.email.toUpperCase())).toMatchObject({ status: 202, body: { status: 'sent' } });
    const message = await mail.next();
    expect(message.subject).toBe('Reset your Sightline password');
    expect(message.from?.value).toEqual([{ name: 'Sightline', address: 'no-reply@sightline.test' }]);
    expect(message.text).toContain('within 30 minutes');
    const link = linkIn(message, `${PUBLIC_URL}/reset-password?token=`);
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const confirmed = await confirm(token, 'a brand new passphrase');
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers['cache-control']).toBe('no-store');
    expect(confirmed.body).toMatchObject({ user: { id: user.user.id, email: user.user.email } });
    expect(Date.parse(confirmed.body!.expiresAt)).toBeGreaterThan(clock.now());
    expect((await me(confirmed.body!.token)).status).toBe(200);
    expect((await login(user.user.email, 'a brand new passphrase')).status).toBe(200);
    expect(await login(user.user.email, OLD_PASSWORD)).toMatchObject({ status: 401, raw: '' });
  });

  it('ends device logins and older session and CLI tokens; personal access tokens stay', async () => {
    const user = await registerUser(service.app);
    const cli = (
      await call(service.app, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.user.email, password: OLD_PASSWORD, clientId: 'sightline-cli' },
      })
    ).body!.token;
    const pat = await createPersonalAccessToken(service.app, user.token, 'ci');
    const started = (
      await call(service.app, {
        method: 'POST',
        url: '/api/auth/device/authorize',
        payload: {},
        remoteAddress: '198.51.100.200',
      })
    ).body!;
    await call(service.app, {
      method: 'POST',
      url: '/api/device/approve',
      headers: bearer(user.token),
      payload: { user_code: started.user_code },
    });
    const device = (
      await call(service.app, {
        method: 'POST',
        url: '/api/auth/device/token',
        payload: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code },
      })
    ).body!;
    expect((await me(device.access_token)).status).toBe(200);

    // Tokens carry their issue time in whole seconds: the reset comes a while after them.
    clock.advance(5 * SECOND);
    const confirmed = await confirm(await resetToken(user.user.email), 'another new passphrase');
    expect(confirmed.status).toBe(200);

    for (const [label, token] of [
      ['session', user.token],
      ['cli', cli],
      ['device', device.access_token],
    ] as const) {
      expect(await me(token), label).toMatchObject({ status: 401, raw: '' });
    }
    const refreshed = await call(service.app, {
      method: 'POST',
      url: '/api/auth/device/token',
      payload: { grant_type: 'refresh_token', refresh_token: device.refresh_token },
    });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await me(pat)).status).toBe(200);
    expect((await me(confirmed.body!.token)).status).toBe(200);
  });

  it('answers an unknown address exactly like a known one, and mails nothing', async () => {
    const before = mail.messages.length;
    const unknown = await ask('nobody-here@example.com');
    expect(unknown).toMatchObject({ status: 202, body: { status: 'sent' } });
    // A known address afterwards: its mail arrives, and it is the only one.
    const user = await registerUser(service.app);
    const known = await ask(user.user.email);
    expect(known.raw).toBe(unknown.raw);
    await mail.next();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mail.messages.slice(before).map((m) => m.to)).toEqual([
      expect.objectContaining({ value: [expect.objectContaining({ address: user.user.email })] }),
    ]);
  });

  it('a link works once', async () => {
    const user = await registerUser(service.app);
    const token = await resetToken(user.user.email);
    expect((await confirm(token, 'first new passphrase')).status).toBe(200);
    expect(await confirm(token, 'second new passphrase')).toMatchObject({
      status: 422,
      body: { error: INVALID_RESET_LINK },
    });
    expect((await login(user.user.email, 'first new passphrase')).status).toBe(200);
  });

  it('a link lives 30 minutes on the service clock', async () => {
    const user = await registerUser(service.app);
    const fresh = await resetToken(user.user.email);
    clock.advance(29 * MINUTE);
    expect((await confirm(fresh, 'in time passphrase')).status).toBe(200);

    const late = await resetToken(user.user.email);
    clock.advance(30 * MINUTE + SECOND);
    expect(await confirm(late, 'too late passphrase')).toMatchObject({
      status: 422,
      body: { error: INVALID_RESET_LINK },
    });
    expect((await login(user.user.email, 'in time passphrase')).status).toBe(200);
  });

  it('a newer request voids the link of an older one', async () => {
    const user = await registerUser(service.app);
    const older = await resetToken(user.user.email);
    const newer = await resetToken(user.user.email);
    expect(newer).not.toBe(older);
    expect(await confirm(older, 'older link passphrase')).toMatchObject({
      status: 422,
      body: { error: INVALID_RESET_LINK },
    });
    expect((await confirm(newer, 'newer link passphrase')).status).toBe(200);
  });

  it('applies the password rules and names them; refuses unknown links; 400 for a malformed body', async () => {
    const user = await registerUser(service.app);
    const token = await resetToken(user.user.email);
    expect(await confirm(token, 'short')).toMatchObject({
      status: 422,
      body: { error: 'password must be 10 to 256 characters' },
    });
    expect(await confirm(token, 'x'.repeat(257))).toMatchObject({
      status: 422,
      body: { error: 'password must be 10 to 256 characters' },
    });
    for (const unknown of ['A'.repeat(43), 'not a token', '']) {
      expect(await confirm(unknown, 'a fine passphrase'), unknown).toMatchObject({
        status: 422,
        body: { error: INVALID_RESET_LINK },
      });
    }
    // The refused attempts did not use the link.
    expect((await confirm(token, 'a fine passphrase')).status).toBe(200);

    const missing = await call(service.app, {
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token },
    });
    expect(missing.status).toBe(400);
    expect(missing.body!.error).toMatch(/password/);
    expect(
      (
        await call(service.app, {
          method: 'POST',
          url: '/api/auth/password-reset',
          payload: {},
          remoteAddress: '198.51.100.250',
        })
      ).status,
    ).toBe(400);
  });

  it('GET /api/auth/providers says password reset is available', async () => {
    const answer = await call(service.app, { method: 'GET', url: '/api/auth/providers' });
    expect(answer).toMatchObject({ status: 200, body: { passwordSignIn: true, passwordReset: true, providers: [] } });
  });
});

describe('password reset without a mail server', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service?.close());

  it('answers 422 naming the missing setting, whether or not the address has an account', async () => {
    const user = await registerUser(service.app);
    for (const email of [user.user.email, 'nobody-here@example.com']) {
      const answer = await call(service.app, { method: 'POST', url: '/api/auth/password-reset', payload: { email } });
      expect(answer).toMatchObject({ status: 422, body: { error: MAIL_NOT_CONFIGURED } });
    }
    expect((await call(service.app, { method: 'GET', url: '/api/auth/providers' })).body).toMatchObject({
      passwordReset: false,
    });
  });
});
