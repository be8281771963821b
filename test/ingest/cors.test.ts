/**
 * CORS of the ingest surface, through fastify.inject(): every answer of the report and OTLP
 * routes — 200 and each refusal, whether a guard, the body reader or the handler refused —
 * carries Access-Control-Allow-Origin and exposes Retry-After; preflights are answered on the
 * ingest paths only, and OPTIONS on an application path gets no CORS allowance.
 * test/browser/cors.test.ts proves the same in a real browser.
 */
import zlib from 'node:zlib';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNPAID_SUSPENSION_REASON } from '../../src/core/plans.js';
import { announceProjectChanges } from '../../src/application/project-changes.js';
import { suspendOrganization } from '../../src/store/meta/repositories/organizations.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';

const ORIGIN = 'https://shop.example';
const REPORT = '/api/report';
const OTLP = [
  '/api/otel/v1/traces',
  '/api/otel/v1/metrics',
  '/api/otel/v1/logs',
  '/api/otel/v1development/profiles',
] as const;
const INGEST = [REPORT, ...OTLP];
/** A valid, empty body for each route (JSON encodings). */
const EMPTY_BODY: Record<string, string> = {
  [REPORT]: JSON.stringify({ appVersion: '1.0.0', serverName: 'web-1', collectionFrames: [] }),
  '/api/otel/v1/traces': '{"resourceSpans":[]}',
  '/api/otel/v1/metrics': '{"resourceMetrics":[]}',
  '/api/otel/v1/logs': '{"resourceLogs":[]}',
  '/api/otel/v1development/profiles': '{"resourceProfiles":[]}',
};
/** Decompressed caps: 64 MB for reports, 10 MB for OTLP. */
const CAP_BYTES: Record<string, number> = {
  [REPORT]: 64 * 1024 * 1024,
  ...Object.fromEntries(OTLP.map((url) => [url, 10 * 1024 * 1024])),
};

let service: TestService;
let token: string;
let suspendedToken: string;

const post = (
  url: string,
  headers: Record<string, string>,
  payload: string | Buffer,
): Promise<LightMyRequestResponse> =>
  service.app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, 'content-type': 'application/json', ...headers },
    payload,
  } as InjectOptions);

function expectCors(response: LightMyRequestResponse, what: string): void {
  expect(response.headers['access-control-allow-origin'], what).toBe(ORIGIN);
  expect(String(response.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/), what).toContain(
    'retry-after',
  );
}

beforeAll(async () => {
  service = await startTestService();
  token = (await registerUser(service.app)).project.token;
  const suspended = await registerUser(service.app);
  suspendedToken = suspended.project.token;
  await suspendOrganization(service.services.meta, suspended.organization.id, UNPAID_SUSPENSION_REASON, new Date());
  await announceProjectChanges(service.services, [suspended.project.id]);
});

afterAll(async () => {
  await service?.close();
});

describe('every ingest answer carries the CORS headers', () => {
  it.each(INGEST)('%s: 200', async (url) => {
    const response = await post(url, { authorization: `Bearer ${token}` }, EMPTY_BODY[url]!);
    expect(response.statusCode, response.body).toBe(200);
    expectCors(response, url);
  });

  it.each(INGEST)('%s: 200 for a gzip body', async (url) => {
    const response = await post(
      url,
      { authorization: `Bearer ${token}`, 'content-encoding': 'gzip' },
      zlib.gzipSync(EMPTY_BODY[url]!),
    );
    expect(response.statusCode, response.body).toBe(200);
    expectCors(response, url);
  });

  it.each(INGEST)('%s: 400 from the handler (a body that does not decode)', async (url) => {
    const response = await post(url, { authorization: `Bearer ${token}` }, '{not json');
    expect(response.statusCode, response.body).toBe(400);
    expectCors(response, url);
  });

  it.each(INGEST)('%s: 400 before the body is read (a Content-Type that is no media type)', async (url) => {
    const response = await post(url, { authorization: `Bearer ${token}`, 'content-type': 'json' }, EMPTY_BODY[url]!);
    expect(response.statusCode, response.body).toBe(400);
    expectCors(response, url);
  });

  it.each(INGEST)('%s: 401 from the guard (no token, a wrong token)', async (url) => {
    for (const headers of [{}, { authorization: `Bearer ${'0'.repeat(32)}` }] as Array<Record<string, string>>) {
      const response = await post(url, headers, EMPTY_BODY[url]!);
      expect(response.statusCode, response.body).toBe(401);
      expectCors(response, url);
    }
  });

  it.each(INGEST)('%s: 413 while reading the body (over the cap after decompression)', async (url) => {
    const bomb = zlib.gzipSync(Buffer.alloc(CAP_BYTES[url]! + 1024, 0x20));
    const response = await post(url, { authorization: `Bearer ${token}`, 'content-encoding': 'gzip' }, bomb);
    expect(response.statusCode, response.body).toBe(413);
    expectCors(response, url);
  });

  it.each(INGEST)('%s: 503 with a readable Retry-After (a suspended organization)', async (url) => {
    const response = await post(url, { authorization: `Bearer ${suspendedToken}` }, EMPTY_BODY[url]!);
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['retry-after']).toBeDefined();
    expectCors(response, url);
  });
});

describe('preflights', () => {
  const preflight = (url: string) =>
    service.app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, content-encoding',
      },
    });

  it.each(INGEST)('%s: 204 without a token, allowing POST with the headers an SDK sends', async (url) => {
    const response = await preflight(url);
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(String(response.headers['access-control-allow-methods']).split(/,\s*/)).toContain('POST');
    expect(String(response.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'content-encoding']),
    );
    expect(Number(response.headers['access-control-max-age'])).toBeGreaterThan(0);
  });

  it.each([
    '/api/projects',
    '/api/auth/login',
    '/api/auth/register',
    '/api/logs',
    '/api/symbols/upload',
    '/api/openapi.json',
    '/health',
    '/metrics',
    '/api/otel/v1/unknown',
    '/api/report/extra',
    '/nowhere',
  ])('OPTIONS %s (not an ingest route): no CORS allowance', async (url) => {
    const response = await preflight(url);
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-methods']).toBeUndefined();
    expect(response.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('application answers carry no CORS headers', async () => {
    const login = await service.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: ORIGIN },
      payload: { email: 'nobody@example.com', password: 'x' },
    });
    expect(login.statusCode).toBe(401);
    const health = await service.app.inject({ method: 'GET', url: '/health', headers: { origin: ORIGIN } });
    expect(health.statusCode).toBe(200);
    for (const response of [login, health]) expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
