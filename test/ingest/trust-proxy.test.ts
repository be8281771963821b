/** client.ip comes from the socket, unless TRUST_PROXY says a proxy we run sets X-Forwarded-For. */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';

describe('session client.ip behind a proxy', () => {
  let service: TestService | undefined;
  afterEach(async () => service?.close());

  async function stampedIp(
    env: Record<string, string>,
    { remoteAddress = '10.1.2.3', forwardedFor = '198.51.100.77' } = {},
  ): Promise<string> {
    service = await startTestService(env);
    const { project } = await registerUser(service.app);
    const id = randomUUID();
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/report',
      remoteAddress,
      headers: {
        authorization: `Bearer ${project.token}`,
        'content-type': 'application/json',
        'x-forwarded-for': forwardedFor,
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

  // A client sent "X-Forwarded-For: 203.0.113.9" itself; the proxy at 10.1.2.3 appended the address it saw.
  const forged = { forwardedFor: '203.0.113.9, 198.51.100.77' };

  it('with TRUST_PROXY=true takes the first forwarded address, which the client wrote', async () => {
    expect(await stampedIp({ TRUST_PROXY: 'true' }, forged)).toBe('203.0.113.9');
  });

  it('with a list of proxies takes the last address no listed proxy added, and only from a listed proxy', async () => {
    expect(await stampedIp({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }, forged)).toBe('198.51.100.77');
    await service?.close();
    expect(await stampedIp({ TRUST_PROXY: '10.0.0.0/8' }, { ...forged, remoteAddress: '192.0.2.1' })).toBe('192.0.2.1');
  });
});
