/** client.ip comes from the socket, unless TRUST_PROXY says a proxy we run sets X-Forwarded-For. */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';

describe('session client.ip behind a proxy', () => {
  let service: TestService | undefined;
  afterEach(async () => service?.close());

  async function stampedIp(env: Record<string, string>): Promise<string> {
    service = await startTestService(env);
    const { project } = await registerUser(service.app);
    const id = randomUUID();
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/report',
      remoteAddress: '10.1.2.3',
      headers: {
        authorization: `Bearer ${project.token}`,
        'content-type': 'application/json',
        'x-forwarded-for': '198.51.100.77',
      },
      payload: {
        appVersion: '',
        serverName: '',
        collectionFrames: [{ sessions: [{ id, startedAt: new Date().toISOString() }] }],
      },
    });
    expect(response.statusCode).toBe(200);
    const rows = await service.services.telemetry.query<{ ip: string }>(
      `SELECT attributes['client.ip'] AS ip FROM sessions FINAL WHERE id = {id:UUID}`,
      { id },
    );
    return rows[0]!.ip;
  }

  it('ignores X-Forwarded-For by default', async () => {
    expect(await stampedIp({})).toBe('10.1.2.3');
  });

  it('takes the forwarded address with TRUST_PROXY=true', async () => {
    expect(await stampedIp({ TRUST_PROXY: 'true' })).toBe('198.51.100.77');
  });
});
