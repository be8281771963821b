/**
 * GET /metrics is opt-in: without METRICS_TOKEN there is no such route (nor an OpenAPI entry);
 * with it, only `Authorization: Bearer <METRICS_TOKEN>` is answered, anything else is 401 empty,
 * except a browser opening the dashboard's metrics page (no Authorization, asks for HTML), which
 * gets the dashboard.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { CONTENT_SECURITY_POLICY } from '../../src/server/web.js';
import {
  registerUser,
  reportFrame,
  sendOtlpException,
  startTestService,
  type TestService,
} from '../support/service.js';

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

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';

describe('/metrics with METRICS_TOKEN', () => {
  let service: TestService;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), INDEX);
    service = await startTestService({ METRICS_TOKEN, WEB_DIR: webDir });
  });
  afterAll(async () => {
    await service?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it("gives a browser opening /metrics the dashboard (its metrics page), with the app's CSP", async () => {
    const response = await service.app.inject({
      method: 'GET',
      url: '/metrics?projectId=p1&range=6h',
      headers: BROWSER,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe(INDEX);
    expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('still answers a scraper asking for HTML with its token with the Prometheus text, and a wrong token with 401', async () => {
    const scraped = await service.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { ...BROWSER, authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toMatch(/^# HELP sightline_/m);
    const wrong = await service.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { ...BROWSER, authorization: 'Bearer x' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toBe('');
  });

  it('answers the token holder with the Prometheus text', async () => {
    const response = await service.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toMatch(/^# HELP sightline_/m);
    const document = (await service.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(document.paths['/metrics'].get.summary).toMatch(/METRICS_TOKEN/);
  });

  it('gives each label name one meaning across series: route the path, protocol report or otlp', async () => {
    const { project } = await registerUser(service.app);
    await reportFrame(service.app, project.token, {
      metrics: [{ name: 'probe', value: 1, recordedAt: new Date().toISOString() }],
    });
    const otlp = await sendOtlpException(service.app, project.token, {
      service: 'api',
      version: '1.0.0',
      span: 'GET /x',
      type: 'Error',
      stacktrace: 'Error: x',
    });
    expect(otlp.statusCode).toBe(200);
    const scraped = await service.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const labelsOf = (series: string) =>
      [...scraped.body.matchAll(new RegExp(`^${series}\\{([^}]*)\\} `, 'gm'))].map((match) => match[1]);
    expect(labelsOf('sightline_ingest_requests_total')).toEqual(
      expect.arrayContaining(['route="/api/report",status="200"', 'route="/api/otel/v1/traces",status="200"']),
    );
    expect(labelsOf('sightline_ingest_bytes_total').sort()).toEqual(['protocol="otlp"', 'protocol="report"']);
    const routeValues = scraped.body.match(/\broute="[^"]*"/g) ?? [];
    expect(routeValues.length).toBeGreaterThan(0);
    for (const value of routeValues) expect(value).toMatch(/^route="\/api\//);
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
      { accept: 'text/plain;version=0.0.4;q=1,*/*;q=0.1' },
      { accept: 'application/json' },
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
