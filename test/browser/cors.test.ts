/**
 * A browser SDK on a page of another origin, in real Chromium (Debian's `chromium`, driven by
 * playwright-core; no browser is ever downloaded): the page, served from one loopback origin,
 * posts reports to the service on another — gzip through CompressionStream, and uncompressed
 * with `keepalive` — and reads the answers itself: 200s, a 401 for a wrong token and a 503 whose
 * Retry-After it can read, never a network error. The rows are then read back from the service.
 *
 * Needs Debian's chromium (test/support/browser.ts; .ci/run installs it). Without it the
 * suite fails, saying so: it is never skipped.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceProjectChanges } from '../../src/application/project-changes.js';
import { UNPAID_SUSPENSION_REASON } from '../../src/core/plans.js';
import { suspendOrganization } from '../../src/store/meta/repositories/organizations.js';
import { launchChromium, type LaunchedBrowser } from '../support/browser.js';
import { listenOnLoopback } from '../support/loopback.js';
import { listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';

/** The SDK side, as a page would ship it: everything below runs in the browser. */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>Shop</title>
<script>
  async function gzip(text) {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }
  window.sendReport = async (service, token, report, { compress, keepalive }) => {
    const headers = { 'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json' };
    let body = JSON.stringify(report);
    if (compress) {
      body = await gzip(body);
      headers['Content-Encoding'] = 'gzip';
    }
    try {
      const response = await fetch(service + '/api/report', { method: 'POST', mode: 'cors', headers, body, keepalive });
      return { status: response.status, body: await response.text(), retryAfter: response.headers.get('Retry-After') };
    } catch (error) {
      return { networkError: String(error) };
    }
  };
</script>
<p>A page of another origin than the service.</p>
`;

interface Answer {
  status?: number;
  body?: string;
  retryAfter?: string | null;
  networkError?: string;
}

let service: ListeningTestService;
let pageServer: http.Server;
let pageOrigin: string;
let browser: LaunchedBrowser | undefined;
let page: Page;
let owner: Awaited<ReturnType<typeof registerUser>>;
let suspendedToken: string;

function report(endpoint: string) {
  const at = new Date(Date.now() - 1000).toISOString();
  return {
    appVersion: '1.0.0',
    serverName: 'browser',
    collectionFrames: [
      {
        traces: [
          {
            id: randomUUID(),
            endpoint,
            duration: 3_000_000,
            recordedAt: at,
            statusCode: 200,
            bodySize: 10,
            clientIP: '',
          },
        ],
        stackTraces: [],
        metrics: [],
      },
    ],
  };
}

/** Calls the page's sendReport in the page (the test's tsconfig has no DOM types: globalThis is the window there). */
const send = (token: string, body: unknown, options: { compress: boolean; keepalive: boolean }): Promise<Answer> =>
  page.evaluate(
    ([origin, token, body, options]) =>
      (globalThis as unknown as { sendReport: (...args: unknown[]) => Promise<Answer> }).sendReport(
        origin,
        token,
        body,
        options,
      ),
    [service.url, token, body, options] as const,
  );

beforeAll(async () => {
  service = await listeningTestService();
  owner = await registerUser(service.app);
  const suspended = await registerUser(service.app);
  suspendedToken = suspended.project.token;
  await suspendOrganization(service.services.meta, suspended.organization.id, UNPAID_SUSPENSION_REASON, new Date());
  await announceProjectChanges(service.services, [suspended.project.id]);

  pageServer = http.createServer((request, response) => {
    if (request.url !== '/') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  pageOrigin = (await listenOnLoopback(pageServer)).url;

  browser = await launchChromium();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await page.goto(`${pageOrigin}/`);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
  await service?.close();
});

describe('a browser SDK on another origin', () => {
  it('posts a gzip report and a keepalive report and reads the 200s; a wrong token reads 401, a paused project 503 with Retry-After', async () => {
    expect(new URL(pageOrigin).origin).not.toBe(new URL(service.url).origin);
    expect(await page.evaluate(() => (globalThis as unknown as { location: { origin: string } }).location.origin)).toBe(
      pageOrigin,
    );

    const gzip = await send(owner.project.token, report('GET /browser-gzip'), { compress: true, keepalive: false });
    expect(gzip).toEqual({ status: 200, body: '{}', retryAfter: null });
    const keepalive = await send(owner.project.token, report('GET /browser-keepalive'), {
      compress: false,
      keepalive: true,
    });
    expect(keepalive).toEqual({ status: 200, body: '{}', retryAfter: null });

    const refused = await send('0'.repeat(32), report('GET /browser-refused'), { compress: true, keepalive: false });
    expect(refused).toEqual({ status: 401, body: '', retryAfter: null });
    const paused = await send(suspendedToken, report('GET /browser-paused'), { compress: false, keepalive: true });
    expect(paused).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });

    // Read back through the application API: both accepted reports are stored, the refused one is not.
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const listed = await fetch(`${service.url}/api/endpoints?projectId=${owner.project.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fromDate: from, toDate: to, pagination: { page: 1, pageSize: 50 } }),
    });
    expect(listed.status).toBe(200);
    const names = ((await listed.json()) as { items: Array<{ name: string }> }).items.map((item) => item.name).sort();
    expect(names).toEqual(['GET /browser-gzip', 'GET /browser-keepalive']);
  });
});
