/**
 * Secrets stay where they belong. The service runs as an operator runs it (a child process,
 * logging at the most verbose level) while every kind of secret is created, used, refused and
 * rotated; then every log line is searched for every secret, and every API answer for each secret
 * other than the one that issued it (project tokens excepted: the spec shows them again).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildService, type ChildService } from '../support/child-service.js';
import { startOidcProvider, type TestOidcProvider } from '../support/identity-providers.js';
import { linkIn, startMailServer, type TestMailServer } from '../support/mail-server.js';

interface Answer {
  request: string;
  status: number;
  text: string;
}

const SMTP_PASSWORD = 'smtp-password-for-the-secrets-test';
const OIDC_CLIENT_SECRET = 'oidc-client-secret-for-the-secrets-test';

describe('secrets in logs and answers', () => {
  let service: ChildService;
  let mail: TestMailServer;
  let provider: TestOidcProvider;
  let dataDir: string;
  const answers: Answer[] = [];
  /** Each secret with the request whose answer issued it. */
  const secrets = new Map<string, string>();
  /** Secrets the spec shows again (project ingest, upload and source-map tokens): never in logs, allowed in answers. */
  const shownAgain = new Set<string>();

  async function send(
    method: string,
    url: string,
    options: { token?: string; json?: unknown; form?: Record<string, string> } = {},
  ) {
    const response = await fetch(`${service.url}${url}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body:
        options.json !== undefined
          ? JSON.stringify(options.json)
          : options.form
            ? new URLSearchParams(options.form).toString()
            : undefined,
    });
    const text = await response.text();
    const request = `${method} ${url} #${answers.length}`;
    answers.push({ request, status: response.status, text });
    return { request, status: response.status, body: text === '' ? null : (JSON.parse(text) as Record<string, any>) };
  }
  const issued = (request: string, ...values: string[]) =>
    values.forEach((value) => {
      secrets.set(value, request);
    });

  /** A browser request that does not follow redirects: the answer's Location and cookie. */
  async function navigate(url: string, cookie?: string) {
    const response = await fetch(`${service.url}${url}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    const text = await response.text();
    answers.push({ request: `GET ${url.split('?')[0]} #${answers.length}`, status: response.status, text });
    return {
      status: response.status,
      location: new URL(response.headers.get('location') ?? 'about:blank'),
      cookie: (response.headers.get('set-cookie') ?? '').split(';')[0]!,
    };
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-secrets-'));
    mail = await startMailServer({ login: { user: 'sightline', password: SMTP_PASSWORD }, refuse: /^bounce@/ });
    provider = await startOidcProvider();
    secrets.set(SMTP_PASSWORD, 'none');
    secrets.set(OIDC_CLIENT_SECRET, 'none');
    service = await startChildService({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'trace',
      SMTP_URL: mail.url,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'sightline',
      OIDC_CLIENT_SECRET,
    });

    const password = 'correct horse battery staple';
    secrets.set(password, 'none');
    const registered = await send('POST', '/api/auth/register', {
      json: { email: 'owner@example.com', password, name: 'Owner' },
    });
    const session: string = registered.body!.token;
    issued(registered.request, session);
    shownAgain.add(registered.body!.project.token);
    const projectId: string = registered.body!.project.id;
    const organizationId: string = registered.body!.organization.id;

    await send('POST', '/api/auth/login', { json: { email: 'owner@example.com', password: 'wrong password here' } });
    const login = await send('POST', '/api/auth/login', {
      json: { email: 'owner@example.com', password, clientId: 'sightline-cli' },
    });
    issued(login.request, login.body!.token);

    const pat = await send('POST', '/api/personal-access-tokens', { token: session, json: { name: 'ci' } });
    issued(pat.request, pat.body!.token);
    await send('GET', '/api/me', { token: pat.body!.token });
    await send('GET', '/api/personal-access-tokens', { token: session });
    await send('DELETE', `/api/personal-access-tokens/${pat.body!.id}`, { token: session });
    await send('GET', '/api/me', { token: pat.body!.token });
    await send('POST', '/api/report', {
      token: pat.body!.token,
      json: { collectionFrames: [], appVersion: '', serverName: '' },
    });

    const started = await send('POST', '/api/auth/device/authorize', { form: { client_id: 'sightline-cli' } });
    issued(started.request, started.body!.device_code);
    await send('POST', '/api/auth/device/token', {
      form: { grant_type: 'device_code', device_code: started.body!.device_code },
    });
    await send('GET', `/api/device?user_code=${started.body!.user_code}`, { token: session });
    await send('POST', '/api/device/approve', { token: session, json: { user_code: started.body!.user_code } });
    await new Promise((resolve) => setTimeout(resolve, 5_000)); // the poll interval, on the real clock
    const tokens = await send('POST', '/api/auth/device/token', {
      form: { grant_type: 'device_code', device_code: started.body!.device_code },
    });
    issued(tokens.request, tokens.body!.access_token, tokens.body!.refresh_token);
    await send('POST', '/api/auth/device/token', {
      form: { grant_type: 'device_code', device_code: started.body!.device_code },
    });
    const rotated = await send('POST', '/api/auth/device/token', {
      form: { grant_type: 'refresh_token', refresh_token: tokens.body!.refresh_token },
    });
    issued(rotated.request, rotated.body!.access_token, rotated.body!.refresh_token);
    await send('POST', '/api/auth/device/token', {
      form: { grant_type: 'refresh_token', refresh_token: tokens.body!.refresh_token },
    });
    await send('GET', '/api/me', { token: rotated.body!.access_token });
    await send('POST', '/api/auth/logout', { json: { refresh_token: rotated.body!.refresh_token } });

    const invitation = await send('POST', `/api/organizations/${organizationId}/invitations`, {
      token: session,
      json: { email: 'new@example.com', role: 'write' },
    });
    issued(invitation.request, invitation.body!.token);
    await send('GET', `/api/organizations/${organizationId}/invitations`, { token: session });
    const joined = await send('POST', '/api/auth/register', {
      json: {
        email: 'new@example.com',
        password: 'another long passphrase',
        name: 'New',
        invitationToken: invitation.body!.token,
      },
    });
    issued(joined.request, joined.body!.token);
    secrets.set('another long passphrase', 'none');
    await send('POST', '/api/auth/register', {
      json: { email: 'late@example.com', password, name: 'Late', invitationToken: invitation.body!.token },
    });

    const connection = await send('GET', `/api/projects/connection?projectId=${projectId}`, { token: session });
    const sourceMap = await send('POST', `/api/projects/source-map-token?projectId=${projectId}`, { token: session });
    const upload = await send('POST', `/api/projects/upload-token?projectId=${projectId}`, { token: session });
    for (const token of [
      connection.body!.uploadToken,
      connection.body!.sourceMapToken,
      sourceMap.body!.sourceMapToken,
      upload.body!.uploadToken,
    ]) {
      shownAgain.add(token);
    }
    await send('GET', '/api/projects', { token: login.body!.token });
    await send('GET', '/api/projects', { token: joined.body!.token });
    await send('GET', '/api/me', { token: registered.body!.project.token });

    // Mail: an invitation the mail server refuses (logged as a warning), and a password reset.
    const bounced = await send('POST', `/api/organizations/${organizationId}/invitations`, {
      token: session,
      json: { email: 'bounce@example.com', role: 'write' },
    });
    issued(bounced.request, bounced.body!.token);
    await mail.next(); // the first invitation's mail
    await send('POST', '/api/auth/password-reset', { json: { email: 'nobody@example.com' } });
    await send('POST', '/api/auth/password-reset', { json: { email: 'owner@example.com' } });
    const resetToken = linkIn(await mail.next(), 'http://localhost').searchParams.get('token')!;
    secrets.set(resetToken, 'none');
    await send('POST', '/api/auth/password-reset/confirm', { json: { token: resetToken, password: 'short' } });
    const newPassword = 'a new password after the reset';
    secrets.set(newPassword, 'none');
    const reset = await send('POST', '/api/auth/password-reset/confirm', {
      json: { token: resetToken, password: newPassword },
    });
    issued(reset.request, reset.body!.token);
    await send('POST', '/api/auth/password-reset/confirm', { json: { token: resetToken, password: newPassword } });
    await send('GET', '/api/me', { token: session });

    // Social sign-in: the code, the session in the final fragment and the client secret stay out of logs.
    provider.profile = { sub: 'owner-at-sso', email: 'owner@example.com', email_verified: true };
    const start = await navigate('/api/auth/oauth/oidc/start');
    // The provider's own answer is not the service's: not recorded.
    const atProvider = new URL((await fetch(start.location.href, { redirect: 'manual' })).headers.get('location')!);
    secrets.set(atProvider.searchParams.get('code')!, 'none');
    const callback = `${atProvider.pathname}${atProvider.search}`;
    const signedIn = await navigate(callback, start.cookie);
    const socialSession = new URLSearchParams(signedIn.location.hash.slice(1)).get('token')!;
    secrets.set(socialSession, 'none');
    await send('GET', '/api/me', { token: socialSession });
    await navigate(callback, start.cookie); // replayed: refused
    // A wait for the background mail failure to be logged.
    for (let i = 0; i < 100 && !service.output().includes('the invitation mail was not sent'); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }, 120_000);

  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await mail?.close();
    await provider?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the flows ran (refusals included) and the service logged them', () => {
    expect(answers.filter((a) => a.status >= 400).length).toBeGreaterThan(5);
    expect(secrets.size + shownAgain.size).toBeGreaterThan(15);
    expect(service.output()).toMatch(/"level":/);
    expect(service.output()).toMatch(/request refused/);
    expect(service.output()).toMatch(/the invitation mail was not sent/);
    expect(
      answers.filter((a) => a.request.startsWith('POST /api/auth/password-reset/confirm')).map((a) => a.status),
    ).toEqual([422, 200, 422]);
    expect(
      answers.filter((a) => a.request.startsWith('GET /api/auth/oauth/oidc/callback')).map((a) => a.status),
    ).toEqual([302, 302]);
  });

  it('no log line holds a secret', () => {
    const output = service.output();
    const leaks = [...secrets.keys(), ...shownAgain].filter((secret) => output.includes(secret));
    expect(leaks).toEqual([]);
  });

  it('no answer holds a secret it did not issue', () => {
    const leaks: string[] = [];
    for (const [secret, issuer] of secrets) {
      for (const answer of answers)
        if (answer.request !== issuer && answer.text.includes(secret))
          leaks.push(`${answer.request} shows a secret of ${issuer}`);
    }
    expect(leaks).toEqual([]);
  });
});
