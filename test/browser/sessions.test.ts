/**
 * The sessions pages in Chromium against a real service, with a session recorded by a real page:
 * a small shop served from a loopback origin of its own (so ingest CORS is exercised) loads the
 * rrweb recorder from node_modules, and a browser client written the way the spec describes one
 * (session open payload gzip-compressed, final flush of session + recording segment + exception
 * as raw JSON with keepalive, all to POST /api/report with the project token) records DOM
 * changes, console output, a click and an uncaught error. The dashboard then lists the session as
 * the API answers it, replays it in rrweb-player under the service's CSP, seeks from the
 * timeline and the exceptions, and keeps the moment in the URL. The player's chunk is loaded by
 * the replay page only.
 *
 * Needs the built dashboard (`npm run build -w web`) and Debian's chromium.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDuration } from '../../web/src/lib/format.js';
import { humanizeUserAgent } from '../../web/src/lib/user-agent.js';
import { displayUrl } from '../../web/src/pages/sessions/display.js';
import { secondsParam } from '../../web/src/pages/sessions/links.js';
import { toClockTenths } from '../../web/src/pages/sessions/timeline.js';
import type { SessionDetail, SessionItem, SessionList, SessionRecording } from '../../web/src/pages/sessions/types.js';
import { listenOnLoopback } from '../support/loopback.js';
import { replayedText } from '../support/browser.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';

const RRWEB = path.resolve('node_modules/rrweb/dist/rrweb.umd.min.cjs');
const PRODUCT = 'Aurora lamp ZX-4471';
const CONSOLE_LINE = 'cart opened with ZX-4471';
const ERROR_MESSAGE = 'Payment widget missing for ZX-4471';
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="10" fill="#4f46e5"/></svg>';

/** The instrumented shop. Everything in the script runs in the browser: the browser client. */
const SHOP = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Sightline test shop</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;color:#111}button{padding:8px 14px}</style>
<h1><img id="logo" src="/logo.svg" alt="" width="24" height="24"> Sightline test shop</h1>
<p id="status">Browsing</p>
<ul id="cart"></ul>
<button id="buy" type="button">Buy</button>
<script src="/rrweb.js"></script>
<script>
  const params = new URLSearchParams(location.search);
  const service = params.get('service');
  const token = params.get('token');
  const sessionId = crypto.randomUUID();
  const startedAt = new Date().toISOString();
  const events = [];
  const logs = [];
  const actions = [{ type: 'navigation', url: location.href, timestamp: Date.now() }];
  const stackTraces = [];

  rrweb.record({ emit: (event) => events.push(event) });

  for (const level of ['log', 'info', 'warn', 'error']) {
    const original = console[level].bind(console);
    console[level] = (...args) => {
      logs.push({ level, message: args.map(String).join(' '), timestamp: Date.now() });
      original(...args);
    };
  }
  document.addEventListener('click', (event) => {
    const target = event.target;
    actions.push({ type: 'click', target: target.tagName.toLowerCase() + (target.id ? '#' + target.id : ''), text: target.textContent.trim(), timestamp: Date.now() });
  }, true);
  window.addEventListener('error', (event) => {
    stackTraces.push({ stackTrace: event.error.stack, recordedAt: new Date().toISOString(), isMessage: false, sessionId });
  });

  const attributes = {
    url: location.href, path: location.pathname, referrer: document.referrer, userAgent: navigator.userAgent,
    language: navigator.language, platform: navigator.platform, viewport: innerWidth + 'x' + innerHeight,
    screen: screen.width + 'x' + screen.height, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, plan: 'trial',
  };
  const report = (frame) => ({ appVersion: '1.4.0', serverName: '', collectionFrames: [{ stackTraces: [], metrics: [], traces: [], ...frame }] });

  async function send(body, compress) {
    const headers = { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' };
    let payload = JSON.stringify(body);
    if (compress) {
      payload = new Uint8Array(await new Response(new Blob([payload]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
      headers['Content-Encoding'] = 'gzip';
    }
    const response = await fetch(service + '/api/report', { method: 'POST', mode: 'cors', headers, body: payload, keepalive: !compress });
    return response.status;
  }

  window.shop = {
    sessionId,
    opened: send(report({ sessions: [{ id: sessionId, startedAt, attributes }] }), true),
    addToCart(name) {
      const item = document.createElement('li');
      item.textContent = name;
      document.getElementById('cart').append(item);
    },
    // The final flush of page hide: the closed session, its recording segment and its errors.
    flush: () => send(report({
      sessions: [{ id: sessionId, startedAt, endedAt: new Date().toISOString(), attributes }],
      sessionRecordings: [{ sessionId, segmentIndex: 0, events, logs, actions, startedAt: new Date(events[0].timestamp).toISOString(), endedAt: new Date(events[events.length - 1].timestamp).toISOString() }],
      stackTraces,
    }), false),
  };
  document.getElementById('buy').addEventListener('click', () => {
    document.getElementById('status').textContent = 'Checking out';
    // The payment step fails a moment later, so the replay at the error's time shows the new status.
    setTimeout(() => {
      throw new TypeError(${JSON.stringify(ERROR_MESSAGE)});
    }, 300);
  });
</script>
</html>`;

let dashboard: SignedInDashboard;
let shopServer: http.Server;
let shopOrigin: string;
let sessionId: string;
let requests: string[] = [];

/** Long enough for the recording and the player chunk to load on a busy machine. */
const SOON = { timeout: 15_000 };

const REPLAY_CHUNK = /\/assets\/replay-player-[\w-]+\.(js|css)$/;

/** The width the shop's logo loaded at inside the replay (0 when the CSP or anything else refused it). */
const replayedLogoWidth = (page: Page) =>
  page.evaluate(() => {
    type Img = { complete: boolean; naturalWidth: number };
    const frame = (
      globalThis as unknown as {
        document: {
          querySelector(s: string): { contentDocument: { getElementById(id: string): Img | null } | null } | null;
        };
      }
    ).document.querySelector('.replayer-wrapper iframe');
    const logo = frame?.contentDocument?.getElementById('logo');
    return logo?.complete ? logo.naturalWidth : 0;
  });

const urlT = (page: Page) => new URL(page.url()).searchParams.get('t');

/** "m:ss.s" of the player's clock in seconds. */
async function shownSeconds(page: Page): Promise<number> {
  const text = (await page.getByTestId('replay-time').textContent()) ?? '';
  const match = /^(\d+):(\d+\.\d)/.exec(text.trim());
  if (!match) throw new Error(`no time in "${text}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

async function listSessions(body: Record<string, unknown> = {}): Promise<SessionList> {
  const response = await dashboard.service.app.inject({
    method: 'POST',
    url: `/api/sessions?projectId=${dashboard.projectId}`,
    headers: { authorization: `Bearer ${dashboard.session}` },
    payload: body,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as SessionList;
}

beforeAll(async () => {
  expect(fs.existsSync('web/dist/index.html'), 'build the dashboard first: npm run build -w web').toBe(true);
  dashboard = await openSignedInDashboard();
  dashboard.page.on('request', (request: Request) => void requests.push(request.url()));

  shopServer = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/')
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHOP);
    if (url.pathname === '/logo.svg')
      return void response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(LOGO);
    if (url.pathname === '/rrweb.js')
      return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(fs.readFileSync(RRWEB));
    response.writeHead(404).end();
  });
  shopOrigin = (await listenOnLoopback(shopServer)).url;
  expect(shopOrigin).not.toBe(new URL(dashboard.base).origin);

  // A visitor's session in the shop, in a tab of its own (its console is the shop's, not the dashboard's).
  const shop = await dashboard.browser.context.newPage();
  await shop.goto(`${shopOrigin}/?${new URLSearchParams({ service: dashboard.base, token: dashboard.projectToken })}`);
  type Shop = {
    shop: { sessionId: string; opened: Promise<number>; addToCart(name: string): void; flush(): Promise<number> };
  };
  expect(await shop.evaluate(() => (globalThis as unknown as Shop).shop.opened)).toBe(200);
  sessionId = await shop.evaluate(() => (globalThis as unknown as Shop).shop.sessionId);
  // Moments apart, so each has its own place on the replay's clock.
  await shop.waitForTimeout(600);
  await shop.evaluate((name) => (globalThis as unknown as Shop).shop.addToCart(name), PRODUCT);
  await shop.waitForTimeout(600);
  await shop.evaluate((line) => console.log(line), CONSOLE_LINE);
  await shop.waitForTimeout(600);
  await shop.click('#buy');
  await shop.waitForTimeout(600);
  expect(await shop.evaluate(() => (globalThis as unknown as Shop).shop.flush())).toBe(200);
  await shop.close();
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => (shopServer ? shopServer.close(resolve) : resolve(undefined)));
  await dashboard?.close();
});

describe('sessions', () => {
  it('lists the recorded session as the API answers it, with filters in the URL and j/k/Enter', async () => {
    const { page, watch } = dashboard;
    const listed = await listSessions();
    expect(listed.items.map((item) => item.id)).toEqual([sessionId]);
    const session = listed.items[0] as SessionItem;
    expect(session).toMatchObject({ errorCount: 1, recordingSegments: 1, url: expect.stringContaining(shopOrigin) });

    requests = [];
    await dashboard.open('/sessions');
    const row = page.locator(`tr[data-session-id="${sessionId}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    // The tooltip: the start to the millisecond, in the organization's zone like the cell (before: the raw ISO text).
    const title = (await row.locator('td').first().getAttribute('title'))!;
    const shown = (await row.locator('td').first().getByRole('link').textContent())!;
    expect(title).not.toBe(session.startedAt);
    expect(title).toBe(`${shown}:${session.startedAt!.slice(17, 23)}`);
    expect(cells[1]).toBe(sessionId.slice(0, 8));
    expect(cells[2]).toBe(displayUrl(session.url));
    expect(cells[3]).toBe(humanizeUserAgent(session.userAgent).label);
    expect(cells[3]).toMatch(/Chrome \d+ on Linux/);
    // Rounded to tenths of a second, as the session's page rounds its clock.
    expect(cells[4]).toBe(formatDuration(toClockTenths(session.durationMs!)));
    expect(cells[5]).toBe(String(session.errorCount));
    expect(cells[6]).toBe('Recorded');
    await dashboard.capture('sessions-list');

    // A filter goes to the URL and to the API: this one matches nothing.
    await page.getByLabel('URL contains').fill('no-such-shop.example');
    await page.waitForURL((url) => url.searchParams.get('url') === 'no-such-shop.example');
    await page.getByText('No session matches these filters').waitFor();
    expect(
      (await listSessions({ filters: [{ field: 'url', op: 'contains', value: 'no-such-shop.example' }] })).items,
    ).toEqual([]);
    await dashboard.capture('sessions-empty');
    await page.goBack();
    await row.waitFor();
    await page.getByLabel('Errors').selectOption('with');
    await page.waitForURL((url) => url.searchParams.get('errors') === 'with');
    await row.waitFor();

    // j puts the cursor on the row, Enter opens it.
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('j');
    await expect.poll(() => row.getAttribute('aria-selected'), SOON).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/sessions/${sessionId}`);
    expect(watch.problems).toEqual([]);
  });

  it('replays the recording, and the timeline and the exceptions seek it, with the moment in the URL', async () => {
    const { page, watch } = dashboard;
    const detail = await dashboard.api<SessionDetail>(`/api/sessions/${sessionId}?projectId=${dashboard.projectId}`);
    const recording = await dashboard.api<SessionRecording>(
      `/api/sessions/${sessionId}/recording?projectId=${dashboard.projectId}`,
    );
    const start = Math.min(...recording.segments.flatMap((segment) => segment.events.map((event) => event.timestamp)));
    const logs = recording.segments[0]?.logs as Array<{ message: string; timestamp: number }>;
    const logAt = logs.find((log) => log.message === CONSOLE_LINE)!.timestamp;
    const exception = detail.exceptions[0]!;
    expect(exception.title).toBe(`TypeError: ${ERROR_MESSAGE}`);
    const exceptionAt = Date.parse(exception.recordedAt!);

    requests = [];
    await dashboard.open(`/sessions/${sessionId}`);
    await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
    // Paused at the start: the page as it loaded, before anything was added to the cart.
    await expect.poll(() => replayedText(page), SOON).toContain('Sightline test shop');
    expect(await replayedText(page)).not.toContain(PRODUCT);
    // The recorded page's own image, from the shop's origin, loads under the dashboard's CSP.
    await expect.poll(() => replayedLogoWidth(page), SOON).toBe(24);
    expect(requests.some((url) => REPLAY_CHUNK.test(url))).toBe(true);

    // Playing rebuilds the DOM changes the visitor's page went through.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => replayedText(page), SOON).toContain(PRODUCT);
    await expect.poll(() => replayedText(page), SOON).toContain('Checking out');
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor(SOON);

    // The console line of the timeline: the replay goes to its moment — product in the cart, not yet checking out.
    const logEntry = page
      .getByRole('list', { name: 'Timeline' })
      .locator('li[data-kind="log"]')
      .filter({ hasText: CONSOLE_LINE });
    await logEntry.getByRole('button').click();
    const logT = secondsParam(logAt - start);
    await expect.poll(() => urlT(page), SOON).toBe(String(logT));
    await expect.poll(() => shownSeconds(page), SOON).toBe(logT);
    await expect.poll(() => replayedText(page), SOON).toContain(PRODUCT);
    expect(await replayedText(page)).toContain('Browsing');

    // The exception: its moment, after the click changed the status; its title links to its issue.
    const exceptions = page.getByRole('table', { name: 'Exceptions' });
    expect(await exceptions.getByRole('link').getAttribute('href')).toBe(
      `/issues/${exception.hash}?projectId=${dashboard.projectId}`,
    );
    await exceptions.getByRole('button', { name: `show ${exception.title} in the replay` }).click();
    const exceptionT = secondsParam(exceptionAt - start);
    expect(exceptionT).toBeGreaterThan(logT);
    await expect.poll(() => urlT(page), SOON).toBe(String(exceptionT));
    await expect.poll(() => shownSeconds(page), SOON).toBe(exceptionT);
    await expect.poll(() => replayedText(page), SOON).toContain('Checking out');
    // Past the recording's last event the clock says so, instead of a time beyond the total.
    const clock = (await page.getByTestId('replay-time').textContent()) ?? '';
    const total = /(?:\/ |past the end \()(\d+):(\d+\.\d)/.exec(clock);
    expect(total, clock).not.toBeNull();
    const totalSeconds = Number(total![1]) * 60 + Number(total![2]);
    expect(clock.includes('past the end'), clock).toBe(exceptionT > totalSeconds);

    // Attributes as sent, with the address the service stamped.
    const attributes = page.getByRole('table', { name: 'Attributes' });
    await expect
      .poll(() => attributes.getByRole('row').filter({ hasText: 'plan' }).textContent(), SOON)
      .toBe('plantrial');
    expect(await attributes.getByRole('row').filter({ hasText: 'client.ip' }).textContent()).toBe(
      `client.ip${detail.attributes['client.ip']}`,
    );

    await dashboard.capture('session-detail');
    expect(watch.problems).toEqual([]);
  });

  it('opens the replay at a linked moment: ?t= directly, ?at=<instant> (sessionReplayLink) as t', async () => {
    const { page, watch } = dashboard;
    const recording = await dashboard.api<SessionRecording>(
      `/api/sessions/${sessionId}/recording?projectId=${dashboard.projectId}`,
    );
    const start = Math.min(...recording.segments.flatMap((segment) => segment.events.map((event) => event.timestamp)));
    const detail = await dashboard.api<SessionDetail>(`/api/sessions/${sessionId}?projectId=${dashboard.projectId}`);
    const at = detail.exceptions[0]!.recordedAt!;

    await dashboard.open(`/sessions/${sessionId}`, { t: '1.2' });
    await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
    await expect.poll(() => shownSeconds(page), SOON).toBe(1.2);
    expect(urlT(page)).toBe('1.2');

    await dashboard.open(`/sessions/${sessionId}`, { at });
    await expect.poll(() => urlT(page), SOON).toBe(String(secondsParam(Date.parse(at) - start)));
    expect(new URL(page.url()).searchParams.get('at')).toBeNull();
    await expect.poll(() => shownSeconds(page), SOON).toBe(secondsParam(Date.parse(at) - start));
    await expect.poll(() => replayedText(page), SOON).toContain('Checking out');
    expect(watch.problems).toEqual([]);
  });

  it('says so when a stored segment cannot be read, instead of "no recording" (before: the answer was cut and the page showed an error)', async () => {
    const { page, watch, service } = dashboard;
    const { keys } = await service.services.objects.list(`recordings/${dashboard.projectId}/`);
    const key = keys.find((each) => each.includes(sessionId))!;
    const original = (await service.services.objects.get(key))!;
    await service.services.objects.put(key, Buffer.from('not gzip'));
    try {
      await dashboard.open(`/sessions/${sessionId}`);
      const notice = page.getByTestId('unreadable-segments');
      await notice.waitFor();
      expect(await notice.textContent()).toContain('could not be read');
      expect(await page.getByText('No recording for this session').count()).toBe(0);
      await dashboard.capture('session-unreadable-recording');
      expect(watch.problems).toEqual([]);
    } finally {
      await service.services.objects.put(key, original);
    }
  });

  it('loads the replay player only on the replay page', async () => {
    const { page, watch } = dashboard;
    // The chunk exists and is the player (not an empty file named so).
    const chunks = fs.readdirSync('web/dist/assets').filter((name) => REPLAY_CHUNK.test(`/assets/${name}`));
    expect(
      chunks.some(
        (name) =>
          name.endsWith('.js') &&
          fs.readFileSync(path.join('web/dist/assets', name), 'utf8').includes('replayer-wrapper'),
      ),
    ).toBe(true);
    expect(fs.readFileSync('web/dist/index.html', 'utf8')).not.toMatch(/replay-player/);

    for (const pathname of ['/sessions', '/', '/connection', '/settings/project']) {
      requests = [];
      await dashboard.open(pathname);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(requests.filter((url) => url.includes('/assets/')).length, pathname).toBeGreaterThan(0);
      expect(
        requests.filter((url) => REPLAY_CHUNK.test(url)),
        pathname,
      ).toEqual([]);
    }
    expect(watch.problems).toEqual([]);
  });
});
