/**
 * The dashboard served by the application surface: hashed assets cached forever, index.html
 * (revalidated, with the Content-Security-Policy) for the app's own paths, JSON 404s kept for
 * the service's paths, and a clear answer when the dashboard has not been built.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, NOT_BUILT } from '../../src/server/web.js';
import { startTestService, type TestService } from '../support/service.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

describe('dashboard serving', () => {
  let service: TestService;
  let webDir: string;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log("app")');
    fs.writeFileSync(path.join(webDir, 'theme.js'), '/* theme */');
    service = await startTestService({ WEB_DIR: webDir });
  });

  afterAll(async () => {
    await service?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers / with index.html, revalidated, under a CSP that allows only its own scripts', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/', headers: HTML });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe(INDEX);
    expect(response.headers['cache-control']).toBe('no-cache');
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
    // Session replays show the recorded site's images, from its own origin; scripts stay ours.
    expect(csp).toContain("img-src 'self' data: https: http:");
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp).not.toMatch(/script-src[^;]*(https?:|\*|blob:|data:)/);
  });

  it('caches hashed assets for a year as immutable, and other files with revalidation', async () => {
    const asset = await service.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const unhashed = await service.app.inject({ method: 'GET', url: '/theme.js' });
    expect(unhashed.statusCode).toBe(200);
    expect(unhashed.headers['cache-control']).toBe('no-cache');
  });

  it("answers the app's paths with index.html when the browser asks for a page", async () => {
    for (const url of [
      '/issues',
      '/settings/project?projectId=abc&range=7d',
      '/traces/0af7651916cd43dd8448eb211c80319c',
      '/login',
    ]) {
      const response = await service.app.inject({ method: 'GET', url, headers: HTML });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers / with the dashboard to a caller that does not ask for HTML (curl)', async () => {
    for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }]) {
      const response = await service.app.inject({ method: 'GET', url: '/', headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toBe(INDEX);
    }
  });

  it("keeps JSON 404s for the service's paths, missing assets and callers that do not ask for HTML", async () => {
    for (const [url, headers] of [
      ['/api/nothing-here', HTML],
      ['/api', HTML],
      ['/.well-known/nothing', HTML],
      ['/assets/index-old999.js', HTML],
      ['/issues', { accept: 'application/json' }],
      ['/issues', {}],
    ] as const) {
      const response = await service.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ error: `no route GET ${url}` });
    }
    const post = await service.app.inject({ method: 'POST', url: '/issues', headers: HTML, payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ error: 'no route POST /issues' });
  });

  it('leaves the service routes as they were', async () => {
    expect((await service.app.inject({ method: 'GET', url: '/health', headers: HTML })).statusCode).toBe(200);
    const discovery = await service.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-authorization-server',
      headers: HTML,
    });
    expect(discovery.statusCode).toBe(200);
    expect(discovery.json()).toHaveProperty('device_authorization_endpoint');
    const me = await service.app.inject({ method: 'GET', url: '/api/me', headers: HTML });
    expect(me.statusCode).toBe(401);
    expect((await service.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()).toHaveProperty('paths');
  });

  it('never serves a file outside the build folder', async () => {
    fs.writeFileSync(path.join(path.dirname(webDir), `${path.basename(webDir)}-secret.txt`), 'secret');
    for (const url of [
      '/../package.json',
      '/%2e%2e/package.json',
      `/..%2f${path.basename(webDir)}-secret.txt`,
      '/assets/../../etc/passwd',
    ]) {
      const response = await service.app.inject({ method: 'GET', url, headers: HTML });
      expect(response.body, url).not.toContain('secret');
      expect(response.body, url).not.toContain('"dependencies"');
      expect(response.body, url).not.toContain('root:');
    }
    fs.rmSync(path.join(path.dirname(webDir), `${path.basename(webDir)}-secret.txt`));
  });
});

describe('dashboard not built', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ WEB_DIR: path.join(os.tmpdir(), `sightline-no-web-${process.pid}`) });
  });

  afterAll(async () => {
    await service?.close();
  });

  it('tells a browser how to build it, and keeps a JSON 404 for other callers', async () => {
    const page = await service.app.inject({ method: 'GET', url: '/', headers: HTML });
    expect(page.statusCode).toBe(503);
    expect(page.body).toBe(NOT_BUILT);
    expect(page.body).toContain('npm install');
    expect(page.headers['cache-control']).toBe('no-store');
    expect((await service.app.inject({ method: 'GET', url: '/', headers: { accept: '*/*' } })).body).toBe(NOT_BUILT);
    const json = await service.app.inject({ method: 'GET', url: '/issues', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect((await service.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

describe('the built dashboard', () => {
  const index = path.resolve('web/dist/index.html');

  it('has no inline script, so the CSP never blocks it (npm install builds web/dist)', () => {
    const html = fs.readFileSync(index, 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/[^"]+"/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});
