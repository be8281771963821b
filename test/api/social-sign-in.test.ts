/**
 * Social sign-in end to end: a real OpenID Connect provider on loopback (oauth2-mock-server:
 * discovery, PKCE, signed ID tokens) and a minimal GitHub stand-in (test/support/identity-providers.ts
 * says why), driven as a browser does — the service's routes through inject, the provider over
 * real HTTP, following the provider's redirect back to the callback. Covers the sign-in options,
 * account creation and reuse, linking by verified e-mail, refusals (unverified e-mail, replayed,
 * unknown or foreign state, cancelled or failed at the provider), the registration policy with and
 * without an invitation, and return paths.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_CLOSED, createAccount } from '../../src/application/auth/accounts.js';
import { hashPassword } from '../../src/application/auth/passwords.js';
import { INVALID_STATE } from '../../src/api/auth/social/routes.js';
import {
  finishCallback,
  signInThrough,
  startGitHubFake,
  startOidcProvider,
  type TestGitHub,
  type TestOidcProvider,
} from '../support/identity-providers.js';
import { linkIn, startMailServer, type TestMailServer } from '../support/mail-server.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { bearer, call } from '../support/access.js';

const PUBLIC_URL = 'https://sightline.test';
const GITHUB_CLIENT = { id: 'github-client-id', secret: 'github-client-secret' };

describe('social sign-in', () => {
  let provider: TestOidcProvider;
  let github: TestGitHub;
  let mail: TestMailServer;
  let service: TestService;

  beforeAll(async () => {
    provider = await startOidcProvider();
    github = await startGitHubFake(GITHUB_CLIENT);
    mail = await startMailServer();
    service = await startTestService({
      PUBLIC_URL,
      SMTP_URL: mail.url,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'sightline',
      OIDC_CLIENT_SECRET: 'oidc-client-secret',
      OIDC_NAME: 'Acme SSO',
      GOOGLE_CLIENT_ID: 'google-client-id',
      GOOGLE_CLIENT_SECRET: 'google-client-secret',
      GITHUB_CLIENT_ID: GITHUB_CLIENT.id,
      GITHUB_CLIENT_SECRET: GITHUB_CLIENT.secret,
      GITHUB_URL: github.url,
    });
  });
  afterAll(async () => {
    await service?.close();
    await provider?.close();
    await github?.close();
    await mail?.close();
  });

  // Sign-ins come from many addresses: the 20-a-minute limit is tested in rate-limits.test.ts.
  let addresses = 0;
  const nextAddress = () => `203.0.113.${++addresses}`;
  const signIn = (startPath: string) => signInThrough(service.app, startPath, { remoteAddress: nextAddress() });
  const me = (token: string) => call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) });

  it('GET /api/auth/providers lists the sign-in options with their start URLs', async () => {
    const answer = await call(service.app, { method: 'GET', url: '/api/auth/providers' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      passwordSignIn: true,
      passwordReset: true,
      passwordMinLength: 10,
      registrationOpen: true,
      providers: [
        { id: 'google', name: 'Google', startUrl: `${PUBLIC_URL}/api/auth/oauth/google/start` },
        { id: 'github', name: 'GitHub', startUrl: `${PUBLIC_URL}/api/auth/oauth/github/start` },
        { id: 'oidc', name: 'Acme SSO', startUrl: `${PUBLIC_URL}/api/auth/oauth/oidc/start` },
      ],
    });
  });

  it('start sends the browser to the provider with PKCE, state and nonce, and binds the state to the browser', async () => {
    const start = await call(service.app, {
      method: 'GET',
      url: '/api/auth/oauth/oidc/start',
      remoteAddress: nextAddress(),
    });
    expect(start.status).toBe(302);
    const location = new URL(String(start.headers.location));
    expect(`${location.origin}/`).toBe(new URL('/', provider.issuer).href);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: 'sightline',
      response_type: 'code',
      redirect_uri: `${PUBLIC_URL}/api/auth/oauth/oidc/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(String(start.headers['set-cookie'])).toBe(
      `sightline_oauth_state=${location.searchParams.get('state')}; Path=/api/auth/oauth; Max-Age=600; HttpOnly; SameSite=Lax; Secure`,
    );
  });

  it('a new person gets an account with an organization and a first project; signing in again finds it', async () => {
    provider.profile = { sub: 'new-person', email: 'new.person@example.com', email_verified: true, name: 'New Person' };
    const first = await signIn('/api/auth/oauth/oidc/start');
    expect(first.error).toBeNull();
    expect(`${first.location.origin}${first.location.pathname}`).toBe(`${PUBLIC_URL}/auth/callback`);
    expect(first.cacheControl).toBe('no-store');
    const profile = await me(first.token!);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({
      user: { email: 'new.person@example.com', name: 'New Person' },
      organizations: [{ name: "New Person's organization", role: 'admin' }],
    });
    const projects = await call(service.app, { method: 'GET', url: '/api/projects', headers: bearer(first.token!) });
    expect(projects.body!.projects).toEqual([
      expect.objectContaining({ name: 'My first project', framework: 'opentelemetry' }),
    ]);

    const second = await signIn('/api/auth/oauth/oidc/start');
    const again = await me(second.token!);
    expect(again.body!.user.id).toBe(profile.body!.user.id);
    expect(again.body!.organizations).toHaveLength(1);

    // No password yet: password sign-in fails until a reset sets one.
    const refused = await call(service.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'new.person@example.com', password: 'any password at all' },
      remoteAddress: nextAddress(),
    });
    expect(refused).toMatchObject({ status: 401, raw: '' });
    await call(service.app, {
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: 'new.person@example.com' },
      remoteAddress: nextAddress(),
    });
    const token = linkIn(await mail.next(), `${PUBLIC_URL}/reset-password?token=`).searchParams.get('token')!;
    expect(
      (
        await call(service.app, {
          method: 'POST',
          url: '/api/auth/password-reset/confirm',
          payload: { token, password: 'a first password' },
        })
      ).status,
    ).toBe(200);
    const login = await call(service.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'new.person@example.com', password: 'a first password' },
      remoteAddress: nextAddress(),
    });
    expect(login.body!.user.id).toBe(profile.body!.user.id);
  });

  it('links the provider account to the password user with the same verified e-mail', async () => {
    const existing = await registerUser(service.app, {
      email: 'Linked.User@example.com',
      password: 'password of the user',
    });
    provider.profile = {
      sub: 'linked-subject',
      email: 'linked.user@EXAMPLE.com',
      email_verified: true,
      name: 'Someone Else',
    };
    const signedIn = await signIn('/api/auth/oauth/oidc/start');
    const profile = await me(signedIn.token!);
    expect(profile.body).toMatchObject({
      user: { id: existing.user.id, email: 'Linked.User@example.com' },
      organizations: [{ id: existing.organization.id }],
    });
    const rows = await service.services.meta.query(
      'SELECT issuer, subject, provider, user_id, email FROM user_identities WHERE user_id = $1',
      [existing.user.id],
    );
    expect(rows).toEqual([
      {
        issuer: provider.issuer,
        subject: 'linked-subject',
        provider: 'oidc',
        user_id: existing.user.id,
        email: 'linked.user@EXAMPLE.com',
      },
    ]);
    // The link holds by subject even when the provider's address changes later.
    provider.profile = { ...provider.profile, email: 'changed@example.com' };
    expect((await me((await signIn('/api/auth/oauth/oidc/start')).token!)).body!.user.id).toBe(existing.user.id);
    // The password still works.
    const login = await call(service.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'linked.user@example.com', password: 'password of the user' },
      remoteAddress: nextAddress(),
    });
    expect(login.status).toBe(200);
  });

  it('refuses an e-mail address the provider has not verified, and links nothing by it', async () => {
    const existing = await registerUser(service.app, { email: 'victim@example.com' });
    for (const profile of [
      { sub: 'unverified', email: 'victim@example.com', email_verified: false },
      { sub: 'no-claim', email: 'victim@example.com' },
      { sub: 'no-address', email_verified: true },
    ]) {
      provider.profile = profile;
      const refused = await signIn('/api/auth/oauth/oidc/start');
      expect(refused.token, profile.sub).toBeNull();
      expect(refused.error).toBe('your Acme SSO account has no verified e-mail address');
      expect(`${refused.location.origin}${refused.location.pathname}`).toBe(`${PUBLIC_URL}/login`);
    }
    expect(
      await service.services.meta.query('SELECT * FROM user_identities WHERE user_id = $1', [existing.user.id]),
    ).toEqual([]);
  });

  it('reads the e-mail from UserInfo when the ID token has none', async () => {
    provider.profile = { sub: 'userinfo-person', email: 'userinfo@example.com', email_verified: true };
    provider.claimsOnlyAtUserInfo = true;
    const signedIn = await signIn('/api/auth/oauth/oidc/start').finally(() => (provider.claimsOnlyAtUserInfo = false));
    expect((await me(signedIn.token!)).body!.user.email).toBe('userinfo@example.com');
  });

  it('uses a state once: a replayed callback, an unknown state, another browser or another provider are refused', async () => {
    provider.profile = { sub: 'replayer', email: 'replayer@example.com', email_verified: true };
    const done = await signIn('/api/auth/oauth/oidc/start');
    expect(done.token).not.toBeNull();
    const replayed = await finishCallback(service.app, done.callback, { remoteAddress: nextAddress() });
    expect(replayed).toMatchObject({ token: null, error: INVALID_STATE });

    const unknown = await finishCallback(service.app, {
      path: `/api/auth/oauth/oidc/callback?code=x&state=${'A'.repeat(43)}`,
      cookie: `sightline_oauth_state=${'A'.repeat(43)}`,
    });
    expect(unknown.error).toBe(INVALID_STATE);
    const none = await finishCallback(service.app, { path: '/api/auth/oauth/oidc/callback?code=x', cookie: '' });
    expect(none.error).toBe(INVALID_STATE);

    // A callback link sent to someone else's browser (no cookie of this sign-in): refused, and the state is spent.
    const start = await call(service.app, {
      method: 'GET',
      url: '/api/auth/oauth/oidc/start',
      remoteAddress: nextAddress(),
    });
    const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(atProvider.headers.get('location')!);
    const path = `${back.pathname}${back.search}`;
    expect((await finishCallback(service.app, { path, cookie: 'sightline_oauth_state=someone-else' })).error).toBe(
      INVALID_STATE,
    );
    expect(
      (await finishCallback(service.app, { path, cookie: String(start.headers['set-cookie']).split(';')[0]! })).error,
    ).toBe(INVALID_STATE);

    // A state issued for one provider does not complete another's callback.
    const github = await call(service.app, {
      method: 'GET',
      url: '/api/auth/oauth/github/start',
      remoteAddress: nextAddress(),
    });
    const githubState = new URL(String(github.headers.location)).searchParams.get('state')!;
    const crossed = await finishCallback(service.app, {
      path: `/api/auth/oauth/oidc/callback?code=x&state=${githubState}`,
      cookie: `sightline_oauth_state=${githubState}`,
    });
    expect(crossed.error).toBe(INVALID_STATE);
  });

  it('a sign-in cancelled or failed at the provider ends at the login page, never in a 500', async () => {
    provider.profile = { sub: 'cancelled', email: 'cancelled@example.com', email_verified: true };
    provider.server.service.once('beforeAuthorizeRedirect', (redirect) => {
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', 'access_denied');
    });
    expect((await signIn('/api/auth/oauth/oidc/start')).error).toBe('sign-in was cancelled at Acme SSO');

    provider.server.service.once('beforeResponse', (response) => {
      response.body = { error: 'invalid_grant' };
      response.statusCode = 400;
    });
    expect((await signIn('/api/auth/oauth/oidc/start')).error).toBe('sign-in with Acme SSO failed: try again');

    // ID tokens that fail validation: for another client, replayed into another sign-in (nonce), from another issuer, expired.
    for (const overrides of [
      { aud: 'another-client' },
      { nonce: 'another-nonce' },
      { iss: 'https://evil.example' },
      { exp: Math.floor(Date.now() / 1000) - 3600 },
    ]) {
      provider.idTokenOverrides = overrides;
      const refused = await signIn('/api/auth/oauth/oidc/start').finally(() => (provider.idTokenOverrides = null));
      expect(refused.error, JSON.stringify(overrides)).toBe('sign-in with Acme SSO failed: try again');
    }
    expect(await service.services.meta.query("SELECT * FROM users WHERE email = 'cancelled@example.com'")).toEqual([]);
  });

  it('returns to a path on this site when asked, and refuses anything else as the return path', async () => {
    provider.profile = { sub: 'returning', email: 'returning@example.com', email_verified: true };
    const back = await signIn(`/api/auth/oauth/oidc/start?redirect=${encodeURIComponent('/projects/42?tab=issues')}`);
    expect(`${back.location.origin}${back.location.pathname}${back.location.search}`).toBe(
      `${PUBLIC_URL}/projects/42?tab=issues`,
    );
    expect(back.token).not.toBeNull();
    for (const redirect of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'relative/path',
      '/with#fragment',
      '/with space',
    ]) {
      const refused = await call(service.app, {
        method: 'GET',
        url: `/api/auth/oauth/oidc/start?redirect=${encodeURIComponent(redirect)}`,
        remoteAddress: nextAddress(),
      });
      expect(refused.status, redirect).toBe(400);
      expect(refused.body!.error).toMatch(/redirect must be a path on this site/);
    }
  });

  it('an unknown or unconfigured provider is 404 on start and callback', async () => {
    for (const url of ['/api/auth/oauth/facebook/start', '/api/auth/oauth/facebook/callback?code=x&state=y']) {
      const answer = await call(service.app, { method: 'GET', url, remoteAddress: nextAddress() });
      expect(answer).toMatchObject({ status: 404, body: { error: 'no sign-in provider "facebook" is configured' } });
    }
  });

  describe('GitHub', () => {
    it('signs in with the verified primary address read from the API (GitHub Enterprise Server paths)', async () => {
      github.account = {
        id: 583231,
        login: 'octocat',
        name: null,
        emails: [
          { email: 'secondary@example.com', primary: false, verified: true, visibility: null },
          { email: 'octocat@example.com', primary: true, verified: true, visibility: 'public' },
        ],
      };
      github.requests.length = 0;
      const signedIn = await signIn('/api/auth/oauth/github/start');
      expect(signedIn.error).toBeNull();
      expect((await me(signedIn.token!)).body).toMatchObject({
        user: { email: 'octocat@example.com', name: 'octocat' },
      });
      expect(github.requests).toEqual([
        'GET /login/oauth/authorize',
        'POST /login/oauth/access_token',
        'GET /api/v3/user',
        'GET /api/v3/user/emails',
      ]);
      const rows = await service.services.meta.query(
        "SELECT issuer, subject FROM user_identities WHERE provider = 'github'",
      );
      expect(rows).toEqual([{ issuer: github.url, subject: '583231' }]);
    });

    it('refuses an account whose primary address is not verified', async () => {
      github.account = {
        id: 99,
        login: 'unverified',
        name: 'Unverified',
        emails: [
          { email: 'unverified@example.com', primary: true, verified: false, visibility: null },
          { email: 'other@example.com', primary: false, verified: true, visibility: null },
        ],
      };
      expect((await signIn('/api/auth/oauth/github/start')).error).toBe(
        'your GitHub account has no verified e-mail address',
      );
    });
  });
});

describe('social sign-in under the invite-only policy', () => {
  let provider: TestOidcProvider;
  let service: TestService;
  let admin: { token: string; organizationId: string };

  beforeAll(async () => {
    provider = await startOidcProvider();
    service = await startTestService({
      PUBLIC_URL,
      REGISTRATION: 'invite-only',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'sightline',
    });
    // Nobody can register under invite-only: the first admin is made directly.
    const passwordHash = await hashPassword('the admin password');
    const account = await service.services.meta.transaction((tx) =>
      createAccount(tx, { email: 'admin@example.com', name: 'Admin', passwordHash }, new Date()),
    );
    const login = await call(service.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@example.com', password: 'the admin password' },
    });
    admin = { token: login.body!.token, organizationId: account.organization.id };
  });
  afterAll(async () => {
    await service?.close();
    await provider?.close();
  });

  it('refuses a new person without an invitation', async () => {
    provider.profile = { sub: 'stranger', email: 'stranger@example.com', email_verified: true };
    const refused = await signInThrough(service.app, '/api/auth/oauth/oidc/start');
    expect(refused.error).toBe(REGISTRATION_CLOSED);
    expect(await service.services.meta.query("SELECT * FROM users WHERE email = 'stranger@example.com'")).toEqual([]);
  });

  it('admits a new person with an invitation into the inviting organization with its role, and no organization of their own', async () => {
    const invitation = await call(service.app, {
      method: 'POST',
      url: `/api/organizations/${admin.organizationId}/invitations`,
      headers: bearer(admin.token),
      payload: { email: 'invitee@example.com', role: 'write' },
    });
    expect(invitation.status).toBe(201);
    expect(invitation.body!.mailQueued).toBe(false);
    provider.profile = { sub: 'invitee', email: 'invitee@example.com', email_verified: true, name: 'Invitee' };
    const admitted = await signInThrough(
      service.app,
      `/api/auth/oauth/oidc/start?invitation=${invitation.body!.token}`,
    );
    expect(admitted.error).toBeNull();
    const profile = await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(admitted.token!) });
    expect(profile.body!.organizations).toEqual([expect.objectContaining({ id: admin.organizationId, role: 'write' })]);
    // The fragment names the organization joined, for the dashboard's landing (the invitation's page no longer opens).
    expect(new URLSearchParams(admitted.location.hash.slice(1)).get('joined')).toBe(admin.organizationId);

    // An existing account's invitation stays open, for its page to accept as after a password sign-in.
    const another = await call(service.app, {
      method: 'POST',
      url: `/api/organizations/${admin.organizationId}/invitations`,
      headers: bearer(admin.token),
      payload: { email: 'elsewhere@example.com', role: 'read-only' },
    });
    const again = await signInThrough(service.app, `/api/auth/oauth/oidc/start?invitation=${another.body!.token}`);
    expect(again.error).toBeNull();
    expect(new URLSearchParams(again.location.hash.slice(1)).get('joined')).toBeNull();
    const open = await call(service.app, {
      method: 'POST',
      url: '/api/invitations/preview',
      payload: { token: another.body!.token },
    });
    expect(open.status).toBe(200);

    // The invitation is spent: a second new person cannot use it.
    provider.profile = { sub: 'second', email: 'second@example.com', email_verified: true };
    const spent = await signInThrough(service.app, `/api/auth/oauth/oidc/start?invitation=${invitation.body!.token}`);
    expect(spent.error).toMatch(/no open invitation with this token/);
  });
});

// Its own service: one embedded ClickHouse per process, so services in a file run one after another.
describe('social sign-in with an unreachable provider', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ PUBLIC_URL, OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'sightline' });
  });
  afterAll(async () => service?.close());

  it('ends the start at the login page, and lists only the configured provider', async () => {
    const start = await call(service.app, { method: 'GET', url: '/api/auth/oauth/oidc/start' });
    expect(start.status).toBe(302);
    expect(new URL(String(start.headers.location)).searchParams.get('error')).toBe(
      'Single sign-on cannot be reached: try again later',
    );
    expect((await call(service.app, { method: 'GET', url: '/api/auth/oauth/github/start' })).status).toBe(404);
    expect((await call(service.app, { method: 'GET', url: '/api/auth/providers' })).body!.providers).toEqual([
      { id: 'oidc', name: 'Single sign-on', startUrl: `${PUBLIC_URL}/api/auth/oauth/oidc/start` },
    ]);
  });
});

describe('social sign-in after the OpenID Connect issuer changes', () => {
  let before: TestOidcProvider;
  let after: TestOidcProvider;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-issuer-'));
  beforeAll(async () => {
    [before, after] = await Promise.all([startOidcProvider(), startOidcProvider()]);
  });
  afterAll(async () => {
    await Promise.all([before?.close(), after?.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const signInAt = async (provider: TestOidcProvider, profile: TestOidcProvider['profile']) => {
    const service = await startTestService({
      DATA_DIR: dataDir,
      PUBLIC_URL,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'sightline',
    });
    try {
      provider.profile = profile;
      const signedIn = await signInThrough(service.app, '/api/auth/oauth/oidc/start');
      expect(signedIn.error).toBeNull();
      return (await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(signedIn.token!) })).body!
        .user as { id: string; email: string };
    } finally {
      await service.close();
    }
  };

  it('a subject the new issuer shares with the old one signs in its own person, not the old account', async () => {
    // Subjects are unique only within their issuer (OpenID Connect Core §2): both say "42".
    const first = await signInAt(before, { sub: '42', email: 'first@example.com', email_verified: true });
    const second = await signInAt(after, { sub: '42', email: 'second@example.com', email_verified: true });
    expect(second.email).toBe('second@example.com');
    expect(second.id).not.toBe(first.id);
    // The old issuer's account still finds its own person.
    expect((await signInAt(before, { sub: '42', email: 'first@example.com', email_verified: true })).id).toBe(first.id);
  });
});
