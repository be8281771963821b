/** The admission gate on the ingest route: a saturated gate answers 503 with Retry-After. */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';

describe('ingest admission', () => {
  let service: ListeningTestService;
  let token: string;
  beforeAll(async () => {
    service = await listeningTestService({
      INGEST_MAX_CONCURRENCY: '1',
      INGEST_QUEUE_WAIT_MS: '0',
      BODY_TIMEOUT_MS: '5000',
    });
    token = (await registerUser(service.app)).project.token;
  });
  afterAll(async () => service?.close());

  it('refuses a request with 503 and Retry-After while the only slot is held, and admits again after', async () => {
    const { port } = new URL(service.url);
    // A request whose body is still arriving holds the slot.
    const holder = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => holder.once('connect', resolve));
    holder.write(
      `POST /api/report HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{"appVersion":"",`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    const body = JSON.stringify({ appVersion: '', serverName: '', collectionFrames: [] });
    const refused = await fetch(`${service.url}/api/report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ error: 'ingest is at capacity, retry shortly' });

    const finished = new Promise<string>((resolve) => {
      let answer = '';
      holder.on('data', (chunk) => {
        answer += chunk.toString();
        if (answer.endsWith('{}')) resolve(answer);
      });
    });
    holder.write('"serverName":"","collectionFrames":[]}'.padEnd(60 - 17, ' '));
    expect(await finished).toMatch(/^HTTP\/1\.1 200 /);
    holder.destroy();
    const admitted = await fetch(`${service.url}/api/report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    expect(admitted.status).toBe(200);
  });
});
