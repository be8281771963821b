/**
 * Changing one's password while signed in (`POST /api/auth/password`): the current password is
 * checked (422 naming it when wrong), the new one follows the password rules, and the change ends
 * older session and CLI tokens like a reset does while answering a new session. An account made
 * through social sign-in has no password to change. The 10-a-minute limit is in rate-limits.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PASSWORD_YET, WRONG_CURRENT_PASSWORD } from '../../src/api/auth/routes.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { SECOND, TestClock, bearer, call, createPersonalAccessToken } from '../support/access.js';

const OLD_PASSWORD = 'correct horse battery';

describe('password change', () => {
  const clock = new TestClock();
  let service: TestService;
  let addresses = 0;

  beforeAll(async () => {
    service = await startTestService({}, { now: clock.now });
  });
  afterAll(async () => service?.close());

  // Each call from its own address, clear of the rate limit.
  const change = (token: string, payload: Record<string, unknown>) =>
    call(service.app, {
      method: 'POST',
      url: '/api/auth/password',
      headers: bearer(token),
      payload,
      remoteAddress: `198.51.100.${++addresses}`,
    });
  const login = (email: string, password: string, clientId?: string) =>
    call(service.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password, clientId },
      remoteAddress: `203.0.113.${++addresses}`,
    });
  const me = (token: string) => call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) });

  it('a wrong current password is 422 naming it, and nothing changes', async () => {
    const user = await registerUser(service.app);
    expect(
      await change(user.token, { currentPassword: 'not my password', newPassword: 'a brand new passphrase' }),
    ).toMatchObject({
      status: 422,
      body: { error: WRONG_CURRENT_PASSWORD },
    });
    expect((await login(user.user.email, OLD_PASSWORD)).status).toBe(200);
    expect((await me(user.token)).status).toBe(200);
  });

  it('a new password breaking the rules is 422 naming them', async () => {
    const user = await registerUser(service.app);
    expect(await change(user.token, { currentPassword: OLD_PASSWORD, newPassword: 'short' })).toMatchObject({
      status: 422,
      body: { error: 'password must be 10 to 256 characters' },
    });
    expect(await change(user.token, { currentPassword: OLD_PASSWORD, newPassword: 'x'.repeat(257) })).toMatchObject({
      status: 422,
    });
    expect((await login(user.user.email, OLD_PASSWORD)).status).toBe(200);
  });

  it('sets the new password: sign-in works with it and not with the old; older sessions end, PATs stay', async () => {
    const user = await registerUser(service.app);
    const cli = (await login(user.user.email, OLD_PASSWORD, 'sightline-cli')).body!.token;
    const pat = await createPersonalAccessToken(service.app, user.token, 'ci');
    // Tokens carry their issue time in whole seconds: the change comes a while after them.
    clock.advance(5 * SECOND);
    const changed = await change(user.token, { currentPassword: OLD_PASSWORD, newPassword: 'a brand new passphrase' });
    expect(changed.status).toBe(200);
    expect(changed.headers['cache-control']).toBe('no-store');
    expect(changed.body).toMatchObject({ user: { id: user.user.id, email: user.user.email } });
    expect((await me(changed.body!.token)).status).toBe(200);
    expect(await me(user.token)).toMatchObject({ status: 401, raw: '' });
    expect(await me(cli)).toMatchObject({ status: 401, raw: '' });
    expect((await me(pat)).status).toBe(200);
    expect((await login(user.user.email, 'a brand new passphrase')).status).toBe(200);
    expect(await login(user.user.email, OLD_PASSWORD)).toMatchObject({ status: 401, raw: '' });
  });

  it('works with a personal access token; a CLI token is refused', async () => {
    const user = await registerUser(service.app);
    const pat = await createPersonalAccessToken(service.app, user.token, 'ci');
    const cli = (await login(user.user.email, OLD_PASSWORD, 'sightline-cli')).body!.token;
    expect((await change(cli, { currentPassword: OLD_PASSWORD, newPassword: 'a brand new passphrase' })).status).toBe(
      403,
    );
    expect((await change(pat, { currentPassword: OLD_PASSWORD, newPassword: 'a brand new passphrase' })).status).toBe(
      200,
    );
    expect((await login(user.user.email, 'a brand new passphrase')).status).toBe(200);
  });

  it('an account with no password (social sign-in only) gets 422 saying how to set one', async () => {
    const user = await registerUser(service.app);
    await service.services.meta.query('UPDATE users SET password_hash = NULL WHERE id = $1', [user.user.id]);
    expect(
      await change(user.token, { currentPassword: OLD_PASSWORD, newPassword: 'a brand new passphrase' }),
    ).toMatchObject({
      status: 422,
      body: { error: NO_PASSWORD_YET },
    });
  });
});
