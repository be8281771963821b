/** INGEST_PORT: the ingest routes move to their own listener; the application keeps its own. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildApps, type Apps } from '../../src/server/app.js';
import { openServices } from '../../src/server/services.js';
import type { Services } from '../../src/application/services.js';
import { registerUser } from '../support/service.js';

describe('separate ingest listener', () => {
  let services: Services;
  let apps: Apps;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-listeners-'));
    services = await openServices(
      loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REGISTRATION: 'open', PORT: '8080', INGEST_PORT: '4318' }),
    );
    apps = await buildApps(services);
  });
  afterAll(async () => {
    await apps.app.close();
    await apps.ingest?.close();
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves ingest only on the ingest listener and the application only on its own', async () => {
    expect(apps.ingest).not.toBeNull();
    const ingest = apps.ingest!;
    const { project } = await registerUser(apps.app);
    const report = {
      method: 'POST' as const,
      url: '/api/report',
      headers: { authorization: `Bearer ${project.token}`, 'content-type': 'application/json' },
      payload: '{"collectionFrames":[],"appVersion":"","serverName":""}',
    };
    expect((await ingest.inject(report)).statusCode).toBe(200);
    expect((await apps.app.inject(report)).statusCode).toBe(404);
    expect(
      (await ingest.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.c', password: 'x' } }))
        .statusCode,
    ).toBe(404);
    for (const instance of [apps.app, ingest]) {
      expect((await instance.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expect((await instance.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    }
  });

  it('CORS: ingest answers and preflights on the ingest listener; no allowance for other paths on either listener', async () => {
    const ingest = apps.ingest!;
    const { project } = await registerUser(apps.app);
    const origin = 'https://shop.example';
    const preflight = {
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
      origin,
    };
    const body = '{"collectionFrames":[],"appVersion":"","serverName":""}';
    for (const authorization of [`Bearer ${project.token}`, 'Bearer wrong']) {
      const answer = await ingest.inject({
        method: 'POST',
        url: '/api/report',
        headers: { authorization, origin, 'content-type': 'application/json' },
        payload: body,
      });
      expect(answer.statusCode).toBe(authorization.includes('wrong') ? 401 : 200);
      expect(answer.headers['access-control-allow-origin']).toBe(origin);
      expect(String(answer.headers['access-control-expose-headers']).toLowerCase()).toContain('retry-after');
    }
    for (const url of ['/api/report', '/api/otel/v1/traces']) {
      const answer = await ingest.inject({ method: 'OPTIONS', url, headers: preflight });
      expect(answer.statusCode, url).toBe(204);
      expect(answer.headers['access-control-allow-origin'], url).toBe(origin);
    }
    for (const [instance, url] of [
      [ingest, '/health'],
      [ingest, '/api/projects'],
      [apps.app, '/api/projects'],
      [apps.app, '/api/auth/login'],
      [apps.app, '/api/report'],
    ] as const) {
      const answer = await instance.inject({ method: 'OPTIONS', url, headers: preflight });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.headers['access-control-allow-origin'], url).toBeUndefined();
    }
  });
});
