import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';

describe('accounts and application authentication', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service?.close());

  it('registers a user with an organization they administer and a first project', async () => {
    const registered = await registerUser(service.app, { email: 'Ada@Example.com' });
    expect(registered.token.split('.')).toHaveLength(3);
    expect(registered.project.token).toMatch(/^[0-9a-f]{32}$/);
    const me = await service.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${registered.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      user: { email: 'Ada@Example.com' },
      organizations: [{ id: registered.organization.id, role: 'admin' }],
    });
  });

  it('refuses a second account with the same e-mail in another case', async () => {
    await registerUser(service.app, { email: 'grace@example.com' });
    const again = await service.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'GRACE@example.com', password: 'another long password', name: 'Grace' },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: 'an account with this e-mail address already exists' });
  });

  it('refuses a short password with 422 naming the rule', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'short@example.com', password: 'short', name: 'S' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatch(/password must be 10 to 256 characters/);
  });

  it('answers 400 naming the problem for a malformed body', async () => {
    const notJson = await service.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toMatch(/not valid JSON/);
    const missing = await service.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'x@example.com' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/password/);
  });

  it('logs in with the right password, and answers 401 with an empty body otherwise', async () => {
    await registerUser(service.app, { email: 'login@example.com', password: 'the right password' });
    const ok = await service.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'LOGIN@example.com', password: 'the right password' },
    });
    expect(ok.statusCode).toBe(200);
    const me = await service.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${ok.json().token}` },
    });
    expect(me.statusCode).toBe(200);
    for (const payload of [
      { email: 'login@example.com', password: 'the wrong password' },
      { email: 'nobody@example.com', password: 'the right password' },
    ]) {
      const refused = await service.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toBe('');
    }
  });

  it('answers 401 with an empty body for every malformed or foreign credential', async () => {
    const { token, project } = await registerUser(service.app);
    const forged = `${token.slice(0, -4)}AAAA`;
    const headers: Array<Record<string, string>> = [
      {},
      { authorization: token },
      { authorization: `bearer ${token}` },
      { authorization: `Bearer${token}` },
      { authorization: `Bearer  ${token}` },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      { authorization: 'Bearer ' },
      { authorization: `Bearer ${forged}` },
      { authorization: `Bearer ${project.token}` },
      { authorization: 'Bearer tpp_000000000000000000000000000000000000000000000000' },
    ];
    for (const h of headers) {
      const response = await service.app.inject({ method: 'GET', url: '/api/me', headers: h });
      expect(response.statusCode, JSON.stringify(h)).toBe(401);
      expect(response.body).toBe('');
    }
  });

  it('limits password sign-in to 10 a minute per client address, with the real wait', async () => {
    const attempt = (ip: string) =>
      service.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email: 'nobody@example.com', password: 'whatever password' },
      });
    for (let i = 0; i < 10; i++) expect((await attempt('198.51.100.7')).statusCode).toBe(401);
    const limited = await attempt('198.51.100.7');
    expect(limited.statusCode).toBe(429);
    const seconds = Number(/try again in (\d+)s/.exec(limited.json().error)?.[1]);
    expect(limited.json().error).toBe(`Too many requests, try again in ${seconds}s`);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(limited.headers['retry-after']).toBe(String(seconds));
    expect((await attempt('198.51.100.8')).statusCode).toBe(401);
  });
});
