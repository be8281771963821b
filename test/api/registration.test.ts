/**
 * Registering through an invitation: the invitation is checked before anything else, so a bogus,
 * garbled or expired token costs no password hash, inserts nothing, and answers the same whether
 * or not the e-mail address has an account.
 */
import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countUsers } from '../../src/store/meta/repositories/users.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { DAY, TestClock, bearer, call } from '../support/access.js';

// The real argon2 runs; the test only counts how often the service asks it for a hash.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...argon2, hash: vi.fn(argon2.hash) };
});

describe('registration through an invitation', () => {
  const clock = new TestClock();
  let service: TestService;
  let taken: string;
  let expiredToken: string;
  let invite: (email: string) => Promise<string>;

  beforeAll(async () => {
    // After the first account only an invitation lets anyone in; the admin's session outlives the clock's jump.
    service = await startTestService(
      { REGISTRATION: 'first-user', SESSION_TTL_HOURS: String(30 * 24) },
      { now: clock.now },
    );
    const admin = await registerUser(service.app, { email: 'taken@example.com' });
    taken = admin.user.email;
    invite = async (email) => {
      const invitation = await call(service.app, {
        method: 'POST',
        url: `/api/organizations/${admin.organization.id}/invitations`,
        headers: bearer(admin.token),
        payload: { email, role: 'write' },
      });
      return invitation.body!.token;
    };
    expiredToken = await invite('late@example.com');
    clock.advance(8 * DAY);
  });
  afterAll(async () => service?.close());

  it('after the first account the sign-in options tell the register page that registration needs an invitation', async () => {
    const answer = await call(service.app, { method: 'GET', url: '/api/auth/providers' });
    expect(answer).toMatchObject({ status: 200, body: { registrationOpen: false } });
  });

  const register = (email: string, invitationToken: string, password = 'correct horse battery') =>
    call(service.app, {
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password, name: 'Someone', invitationToken },
    });

  it.each([
    ['unknown', () => `tpi_${randomBytes(20).toString('hex')}`],
    ['malformed', () => 'not-an-invitation'],
    ['expired', () => expiredToken],
  ])(
    'an invitation token that is %s answers alike for a taken and a free address, without hashing or inserting',
    async (_kind, tokenOf) => {
      const token = tokenOf();
      const usersBefore = await countUsers(service.services.meta);
      const hashesBefore = vi.mocked(hash).mock.calls.length;

      const forTaken = await register(taken, token);
      const forFree = await register(`free-${randomBytes(4).toString('hex')}@example.com`, token);
      // A password the rules refuse: the invitation is judged before the password is looked at.
      const withShortPassword = await register(taken, token, 'short');

      expect(forTaken).toMatchObject({
        status: 404,
        body: { error: 'no open invitation with this token: it may have expired or been revoked' },
      });
      for (const other of [forFree, withShortPassword]) {
        expect(other.status).toBe(forTaken.status);
        expect(other.raw).toBe(forTaken.raw);
      }
      expect(vi.mocked(hash).mock.calls.length).toBe(hashesBefore);
      expect(await countUsers(service.services.meta)).toBe(usersBefore);
    },
  );

  it('an open invitation hashes the password once and makes the account (the count above is live)', async () => {
    const token = await invite('joiner@example.com');
    const hashesBefore = vi.mocked(hash).mock.calls.length;
    const joined = await register('joiner@example.com', token);
    expect(joined.status).toBe(201);
    expect(vi.mocked(hash).mock.calls.length).toBe(hashesBefore + 1);
  });
});
