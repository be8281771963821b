/**
 * The password rule is the operator's (PASSWORD_MIN_LENGTH): the sign-in options tell the forms
 * the same minimum the API enforces, so a form neither refuses a password the service would take
 * nor lets through one it will refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { call } from '../support/access.js';

describe.each([
  ['the default', {}, 10],
  ['a longer minimum', { PASSWORD_MIN_LENGTH: '14' }, 14],
  ['the shortest minimum allowed', { PASSWORD_MIN_LENGTH: '8' }, 8],
])('password rule with %s', (_name, env, minimum) => {
  let service: TestService;
  let addresses = 0;
  beforeAll(async () => {
    service = await startTestService({ REGISTRATION: 'open', ...env });
  });
  afterAll(async () => service?.close());

  const register = (password: string) =>
    call(service.app, {
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: `198.51.100.${++addresses}`,
      payload: { email: `rule-${minimum}-${addresses}@example.com`, password, name: 'Rule' },
    });

  it(`the sign-in options give ${minimum} as the minimum`, async () => {
    expect(await call(service.app, { method: 'GET', url: '/api/auth/providers' })).toMatchObject({
      status: 200,
      body: { passwordMinLength: minimum },
    });
  });

  it('registering takes a password of exactly that length and refuses one character less, naming the rule', async () => {
    expect(await register('p'.repeat(minimum - 1))).toMatchObject({
      status: 422,
      body: { error: `password must be ${minimum} to 256 characters` },
    });
    expect((await register('p'.repeat(minimum))).status).toBe(201);
  });
});
