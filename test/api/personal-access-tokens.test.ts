/**
 * Personal access tokens through their state table: active → revoked (by its owner only), active
 * → expired (by the service clock); the secret shown once, acting as the creator, refused on ingest,
 * and last-use times written in batches rather than per request; all of a person's tokens revoked
 * at once (beyond the spec).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { DAY, TestClock, bearer, call, deviceLogin } from '../support/access.js';

describe('personal access tokens', () => {
  const clock = new TestClock();
  let service: TestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let other: Awaited<ReturnType<typeof registerUser>>;
  const create = (token: string, payload: unknown) =>
    call(service.app, {
      method: 'POST',
      url: '/api/personal-access-tokens',
      headers: bearer(token),
      payload: payload as object,
    });

  beforeAll(async () => {
    service = await startTestService({}, { now: clock.now });
    owner = await registerUser(service.app);
    other = await registerUser(service.app);
  });
  afterAll(async () => service?.close());

  it('creates a tpp_ token shown once, storing only its hash and 12-character prefix', async () => {
    const created = await create(owner.token, { name: 'ci', expiresInDays: 30 });
    expect(created.status).toBe(201);
    const { id, name, prefix, token, createdAt, expiresAt } = created.body!;
    expect(Object.keys(created.body!).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'name', 'prefix', 'token']);
    expect(token).toMatch(/^tpp_[0-9a-f]{48}$/);
    expect(prefix).toBe(token.slice(0, 12));
    expect(name).toBe('ci');
    expect(new Date(expiresAt).getTime() - new Date(createdAt).getTime()).toBe(30 * DAY);
    const stored = await service.services.meta.query<Record<string, unknown>>(
      'SELECT * FROM personal_access_tokens WHERE id = $1',
      [id],
    );
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored[0]).toMatchObject({ prefix: token.slice(0, 12) });

    const list = await call(service.app, {
      method: 'GET',
      url: '/api/personal-access-tokens',
      headers: bearer(owner.token),
    });
    expect(list.raw).not.toContain(token);
    expect(list.body!.tokens).toContainEqual({ id, name: 'ci', prefix, createdAt, expiresAt, lastUsedAt: null });
  });

  it('answers 422 naming the rule for a missing or long name and for expiresInDays outside 1 to 3650', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'name is required'],
      [{ name: '' }, 'name is required'],
      [{ name: 'x'.repeat(101) }, 'name must be a string of at most 100 characters'],
      [{ name: 'ci', expiresInDays: 0 }, 'expiresInDays must be an integer from 1 to 3650'],
      [{ name: 'ci', expiresInDays: 3651 }, 'expiresInDays must be an integer from 1 to 3650'],
      [{ name: 'ci', expiresInDays: 2.5 }, 'expiresInDays must be an integer from 1 to 3650'],
    ];
    for (const [payload, error] of cases) {
      const response = await create(owner.token, payload);
      expect(response.status, JSON.stringify(payload)).toBe(422);
      expect(response.body).toEqual({ error });
    }
    expect((await create(owner.token, { name: 'x'.repeat(100), expiresInDays: 3650 })).status).toBe(201);
  });

  it('acts as its creator wherever a session does, in every organization of theirs, and is refused on ingest', async () => {
    const { token } = (await create(owner.token, { name: 'acts' })).body!;
    const me = await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(me.body).toMatchObject({
      user: { id: owner.user.id },
      organizations: [{ id: owner.organization.id, role: 'admin' }],
    });
    const projects = await call(service.app, { method: 'GET', url: '/api/projects', headers: bearer(token) });
    expect(projects.body!.projects).toEqual([
      expect.objectContaining({ id: owner.project.id, role: 'admin', token: owner.project.token }),
    ]);
    const members = await call(service.app, {
      method: 'GET',
      url: `/api/organizations/${owner.organization.id}/members`,
      headers: bearer(token),
    });
    expect(members.status).toBe(200);
    const ingest = await call(service.app, {
      method: 'POST',
      url: '/api/report',
      headers: bearer(token),
      payload: { collectionFrames: [], appVersion: '', serverName: '' },
    });
    expect(ingest.status).toBe(401);
  });

  it('records last use without a write per request, and the list shows it', async () => {
    const { id, token } = (await create(owner.token, { name: 'used' })).body!;
    const query = vi.spyOn(service.services.meta, 'query');
    for (let i = 0; i < 5; i++)
      expect((await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) })).status).toBe(200);
    const writesDuringUse = query.mock.calls.filter(([sql]) => /UPDATE personal_access_tokens/.test(sql));
    expect(writesDuringUse).toHaveLength(0);
    const list = await call(service.app, {
      method: 'GET',
      url: '/api/personal-access-tokens',
      headers: bearer(owner.token),
    });
    const writes = query.mock.calls.filter(([sql]) => /UPDATE personal_access_tokens/.test(sql));
    query.mockRestore();
    expect(writes).toHaveLength(1);
    expect(list.body!.tokens.find((t: { id: string }) => t.id === id).lastUsedAt).toBe(
      new Date(clock.now()).toISOString(),
    );
  });

  it('revoke: the owner gets status revoked and the token 401s at once; anyone else gets 404', async () => {
    const { id, token } = (await create(owner.token, { name: 'to revoke' })).body!;
    const foreign = await call(service.app, {
      method: 'DELETE',
      url: `/api/personal-access-tokens/${id}`,
      headers: bearer(other.token),
    });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'no personal access token of yours has this id' } });
    expect((await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) })).status).toBe(200);
    const revoked = await call(service.app, {
      method: 'DELETE',
      url: `/api/personal-access-tokens/${id}`,
      headers: bearer(owner.token),
    });
    expect(revoked).toMatchObject({ status: 200, body: { status: 'revoked' } });
    const after = await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(after.status).toBe(401);
    expect(after.raw).toBe('');
    const list = await call(service.app, {
      method: 'GET',
      url: '/api/personal-access-tokens',
      headers: bearer(owner.token),
    });
    expect(list.body!.tokens.map((t: { id: string }) => t.id)).not.toContain(id);
    expect(
      (
        await call(service.app, {
          method: 'DELETE',
          url: `/api/personal-access-tokens/${id}`,
          headers: bearer(owner.token),
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(service.app, {
          method: 'DELETE',
          url: '/api/personal-access-tokens/not-a-uuid',
          headers: bearer(owner.token),
        })
      ).status,
    ).toBe(404);
  });

  it('expiry: the token works until expiresAt and answers 401 from then on', async () => {
    const { token } = (await create(owner.token, { name: 'short', expiresInDays: 1 })).body!;
    clock.advance(DAY - 1);
    expect((await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) })).status).toBe(200);
    clock.advance(1);
    const expired = await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(expired.status).toBe(401);
    expect(expired.raw).toBe('');
  });

  it('lists only the caller’s own tokens', async () => {
    const mine = await call(service.app, {
      method: 'GET',
      url: '/api/personal-access-tokens',
      headers: bearer(other.token),
    });
    expect(mine.body).toEqual({ tokens: [] });
  });

  describe('revoke all (DELETE /api/personal-access-tokens, beyond the spec)', () => {
    const revokeAll = (credential: string, remoteAddress?: string) =>
      call(service.app, {
        method: 'DELETE',
        url: '/api/personal-access-tokens',
        headers: bearer(credential),
        ...(remoteAddress ? { remoteAddress } : {}),
      });
    const meStatus = async (credential: string) =>
      (await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(credential) })).status;
    const listIds = async (credential: string) =>
      (
        await call(service.app, { method: 'GET', url: '/api/personal-access-tokens', headers: bearer(credential) })
      ).body!.tokens.map((t: { id: string }) => t.id);

    it("revokes every token of the caller's, expired ones too, and no one else's; a second call answers 0", async () => {
      const alice = await registerUser(service.app);
      const bob = await registerUser(service.app);
      const expiring = (await create(alice.token, { name: 'expiring', expiresInDays: 1 })).body!;
      clock.advance(DAY);
      const alices = [
        (await create(alice.token, { name: 'laptop' })).body!,
        (await create(alice.token, { name: 'ci' })).body!,
      ];
      const bobs = (await create(bob.token, { name: 'bob ci' })).body!;
      expect(await listIds(alice.token)).toHaveLength(3);

      expect(await revokeAll(alice.token)).toMatchObject({ status: 200, body: { revoked: 3 } });
      for (const { token } of [...alices, expiring]) expect(await meStatus(token)).toBe(401);
      expect(await listIds(alice.token)).toEqual([]);
      // The other person's token works on and stays listed; the session that revoked stays signed in.
      expect(await meStatus(bobs.token)).toBe(200);
      expect(await listIds(bob.token)).toEqual([bobs.id]);
      expect(await meStatus(alice.token)).toBe(200);

      expect(await revokeAll(alice.token)).toMatchObject({ status: 200, body: { revoked: 0 } });
      expect(await revokeAll(bob.token)).toMatchObject({ status: 200, body: { revoked: 1 } });
      expect(await meStatus(bobs.token)).toBe(401);
    });

    it('a personal access token revokes itself with the rest; a CLI or device token is refused with 403', async () => {
      const carol = await registerUser(service.app, { password: 'correct horse battery' });
      const first = (await create(carol.token, { name: 'first' })).body!;
      const second = (await create(carol.token, { name: 'second' })).body!;
      const cli = await call(service.app, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: carol.user.email, password: 'correct horse battery', clientId: 'sightline-cli' },
      });
      const device = await deviceLogin(service.app, carol.token, '192.0.2.40');
      for (const token of [cli.body!.token, device.access_token]) {
        expect(await revokeAll(token)).toMatchObject({
          status: 403,
          body: { error: 'this needs a dashboard session' },
        });
      }
      // Tokens made in the same millisecond list in id order: compare as sets.
      expect((await listIds(carol.token)).sort()).toEqual([first.id, second.id].sort());

      expect(await revokeAll(first.token)).toMatchObject({ status: 200, body: { revoked: 2 } });
      expect(await meStatus(first.token)).toBe(401);
      expect(await meStatus(second.token)).toBe(401);
      expect(await meStatus(carol.token)).toBe(200);
    });

    it('answers 429 with Retry-After past 10 calls a minute from one address, other addresses unaffected', async () => {
      const dave = await registerUser(service.app);
      for (let i = 0; i < 10; i++) expect((await revokeAll(dave.token, '192.0.2.50')).status).toBe(200);
      const limited = await revokeAll(dave.token, '192.0.2.50');
      expect(limited.status).toBe(429);
      expect(limited.body!.error).toMatch(/^Too many requests, try again in \d+s$/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await revokeAll(dave.token, '192.0.2.51')).status).toBe(200);
    });
  });
});
