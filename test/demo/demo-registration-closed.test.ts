/**
 * `sightline demo` against a service whose registration is closed because an account exists
 * (the default REGISTRATION=first-user, after the newcomer registered): it cannot create its own
 * account, so it says to pass one's own, and runs with it. A file of its own because a process
 * holds one embedded engine, and demo-command.test.ts keeps an open-registration service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoCommand as demo } from '../support/demo-command.js';
import { listeningTestService, type ListeningTestService } from '../support/service.js';

describe('sightline demo when registration is closed', () => {
  let service: ListeningTestService;

  beforeAll(async () => {
    service = await listeningTestService({ REGISTRATION: 'first-user' });
    const first = await service.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'owner@example.com', password: 'owner password 1', name: 'Owner' },
    });
    expect(first.statusCode, first.body).toBe(201);
  });
  afterAll(async () => {
    await service?.close();
  });

  it('says in one line to pass your own account (exit 1), and runs with it', async () => {
    const refused = await demo(['--url', service.url, '--once']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^sightline demo: cannot sign in as demo@example\.com \(401\) nor register it \(403: /,
    );
    expect(refused.stderr).toMatch(
      /pass --email and --password of your own account, or --token with a personal access token \(Settings → Account\)\n$/,
    );

    const own = await demo([
      '--url',
      service.url,
      '--once',
      '--email',
      'owner@example.com',
      '--password',
      'owner password 1',
    ]);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toContain('signed in as owner@example.com');
    expect(own.stdout).toMatch(/created project Demo \(/);
  });
}, 120_000);
