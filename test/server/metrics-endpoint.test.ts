/**
 * GET /metrics is opt-in: without METRICS_TOKEN there is no such route (nor an OpenAPI entry);
 * with it, only `Authorization: Bearer <METRICS_TOKEN>` is answered, anything else is 401 empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startTestService, type TestService } from '../support/service.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describe('/metrics without METRICS_TOKEN', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('does not exist', async () => {
    for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }]) {
      const response = await service.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('sightline_');
    }
    const document = (await service.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(document.paths)).not.toContain('/metrics');
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ METRICS_TOKEN });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('answers the token holder with the Prometheus text', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toMatch(/^# HELP sightline_/m);
    const document = (await service.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(document.paths['/metrics'].get.summary).toMatch(/METRICS_TOKEN/);
  });

  it('answers 401 with an empty body to any other credential', async () => {
    const refused: Array<Record<string, string>> = [
      {},
      { authorization: METRICS_TOKEN },
      { authorization: `bearer ${METRICS_TOKEN}` },
      { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${METRICS_TOKEN}x` },
      { authorization: `Bearer ${METRICS_TOKEN.toUpperCase()}` },
      { authorization: 'Bearer x' },
    ];
    for (const headers of refused) {
      const response = await service.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.body).toBe('');
    }
  });

  it('refuses a METRICS_TOKEN shorter than 16 characters without showing it', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short-token' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short-token' })).toThrow(/METRICS_TOKEN \(value hidden\): /);
    expect(() => loadConfig({ METRICS_TOKEN: 'short-token' })).not.toThrow(/short-token/);
  });
});
