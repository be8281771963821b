/**
 * The dashboard when the URL or the service is not what a page expects, in Chromium against a real
 * service serving web/dist: hand-edited query strings (numbers where text is expected, junk pages,
 * severities, sorts, a backwards range) show the page, not an error; a page that throws while
 * drawing shows the shell's error state with a Retry; the service not answering shows "Cannot
 * reach Sightline" (on a reload, in a panel, and for a page whose code is not loaded yet) and the
 * dashboard recovers by itself when it answers again; an id that names nothing shows the detail
 * page's not-found state with the way back; a project the person cannot see is replaced with a
 * notice. The service is made unreachable by failing the browser's requests to it (Playwright
 * routes), as a stopped service would.
 */
import { randomUUID } from 'node:crypto';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';

/** Each list page with query strings a person might paste or edit by hand. */
const HOSTILE: Array<{ path: string; query: Record<string, string> }> = [
  { path: '/issues', query: { q: '421', page: 'abc', sort: 'bogus', dir: 'up', kind: '7', status: '9' } },
  { path: '/issues', query: { q: 'true', page: '-3' } },
  { path: '/logs', query: { q: '500', severity: '99', traceId: '12', filters: '5', live: 'maybe' } },
  { path: '/logs', query: { q: 'x'.repeat(700), service: '42' } },
  { path: '/ai-traces', query: { q: '123', page: 'abc', sort: '9', dir: '0', model: '5' } },
  { path: '/sessions', query: { url: '123', agent: '456', page: 'abc', errors: '1', order: '2' } },
  { path: '/endpoints', query: { q: '404', page: 'abc', sort: '1', root: '2', group: '3' } },
  { path: '/tasks', query: { q: '404', page: '1.5' } },
  { path: '/alerts', query: { tab: '5', page: 'abc' } },
  { path: '/metrics', query: { metric: '123', step: 'abc', chart: '7' } },
  { path: '/', query: { range: '99', from: 'abc', to: 'def' } },
  { path: '/logs', query: { from: '2025-01-02T00:00:00.000Z', to: '2025-01-01T00:00:00.000Z' } },
  { path: '/issues', query: { from: '2025-01-02T00:00:00.000Z', to: '2025-01-01T00:00:00.000Z', range: '1' } },
  { path: '/sessions/00000000-0000-4000-8000-000000000000', query: { t: 'abc', at: '5' } },
];

/** The detail pages: an id that names nothing and one that is not an id, and the list each links back to. */
const DETAILS = [
  { path: '/traces', title: 'Trace not found', back: 'Endpoints', api: '/api/traces/' },
  {
    path: '/distributed-traces',
    title: 'Distributed trace not found',
    back: 'Endpoints',
    api: '/api/distributed-traces/',
  },
  { path: '/ai-traces', title: 'AI trace not found', back: 'AI traces', api: '/api/ai-traces/' },
  { path: '/sessions', title: 'Session not found', back: 'Sessions', api: '/api/sessions/' },
  { path: '/dashboards', title: 'Dashboard not found', back: 'All dashboards', api: '/api/dashboards/' },
];

/** What a request that never reaches the service leaves in the console and the request log. */
const UNREACHABLE_NOISE = [/request failed: .* net::ERR_CONNECTION_REFUSED/, /console error: Failed to load resource/];

describe('dashboard robustness in Chromium', () => {
  let d: SignedInDashboard;
  let page: Page;
  let organizationName: string;
  let projectName: string;

  beforeAll(async () => {
    d = await openSignedInDashboard({ viewport: { width: 1280, height: 800 } });
    page = d.page;
    const me = await d.api<{ organizations: Array<{ name: string }> }>('/api/me');
    organizationName = me.organizations[0]?.name ?? '';
    const { projects } = await d.api<{ projects: Array<{ id: string; name: string }> }>('/api/projects');
    projectName = projects.find((p) => p.id === d.projectId)?.name ?? '';
  });

  afterAll(async () => {
    await d?.close();
  });

  /** Fails every request to the service, as a stopped one would (the page itself when `everything`). */
  async function stopService(everything = false): Promise<() => Promise<void>> {
    const pattern = everything ? `${d.base}/**` : `${d.base}/api/**`;
    const refuse = (route: Route) => route.abort('connectionrefused');
    await page.route(pattern, refuse);
    return () => page.unroute(pattern, refuse);
  }

  /** The page's heading is there and nothing in <main> is still loading. */
  async function settled(): Promise<void> {
    await page.locator('main h1').first().waitFor();
    await expect.poll(() => page.locator('main [aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
  }

  it('shows each list page for hand-edited query strings, without an error or a refused request', async () => {
    for (const { path, query } of HOSTILE) {
      const label = `${path}?${new URLSearchParams(query)}`;
      if (path.startsWith('/sessions/')) {
        // A session that does not exist: the junk t/at must not get in the way of its not-found state.
        await d.watch.allowing([/HTTP 404: GET .*\/api\/sessions\//, /status of 404/], async () => {
          await d.open(path, query);
          await page.getByTestId('not-found').waitFor();
        });
        continue;
      }
      await d.open(path, query);
      await settled();
      expect(await page.getByText('Something went wrong').count(), label).toBe(0);
      expect(await page.locator('main [role="alert"]').allInnerTexts(), label).toEqual([]);
      expect(d.watch.problems, label).toEqual([]);
    }
  });

  it('shows a page that throws while drawing as an error inside the shell, with Retry and the message', async () => {
    await d.open('/');
    await settled();
    const broken = `${d.base}/assets/tasks-page-*.js`;
    await page.route(broken, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: "export function TasksPage() { throw new Error('Injected render failure'); }",
      }),
    );
    try {
      await d.watch.allowing([/Injected render failure/], async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks', exact: true }).click();
        const state = page.getByTestId('page-error');
        await state.waitFor();
        expect(await state.innerText()).toContain('This page hit an error');
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        await state.getByText('Details').click();
        expect(await state.locator('pre').innerText()).toContain('Injected render failure');
        expect(await state.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
        await d.capture('robustness-page-error');
        // The rest of the app still works.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Issues', exact: true }).click();
        await settled();
      });
    } finally {
      await page.unroute(broken);
    }
    expect(d.watch.problems).toEqual([]);
  });

  it('says it cannot reach the service on a reload while it is down, and recovers with the account when it is back', async () => {
    const restart = await stopService();
    await d.watch.allowing(UNREACHABLE_NOISE, async () => {
      await d.open('/issues');
      const state = page.getByTestId('unreachable');
      await state.waitFor({ timeout: 20_000 });
      expect(await state.innerText()).toContain(`Cannot reach Sightline at ${d.base}`);
      expect(await state.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
      // The switcher waits in grey rather than claiming there is no project.
      expect(await page.getByText('No project').count()).toBe(0);
      await page.getByTestId('project-switcher-loading').waitFor();
      await d.capture('robustness-unreachable');
      await restart();
      await state.getByRole('button', { name: 'Retry' }).click();
      await settled();
    });
    // The account read again: the switcher names the project and its organization, the avatar the person.
    const switcher = page.getByRole('button', { name: /Switch project/ });
    await expect.poll(() => switcher.innerText()).toContain(projectName);
    await expect.poll(() => switcher.innerText()).toContain(organizationName);
    expect(d.watch.problems).toEqual([]);
  });

  it('says so in a panel when the service stops during a session, and fills in by itself when it is back', async () => {
    await d.open('/issues');
    await settled();
    const restart = await stopService();
    await d.watch.allowing(UNREACHABLE_NOISE, async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logs', exact: true }).click();
      const state = page.getByTestId('unreachable').first();
      await state.waitFor({ timeout: 20_000 });
      expect(await state.innerText()).toContain('Cannot reach Sightline');
      expect(await page.getByText('Failed to fetch').count()).toBe(0);
      await d.capture('robustness-panel-unreachable');
      await restart();
      // No click: the panel retries by itself.
      await expect.poll(() => page.getByTestId('unreachable').count(), { timeout: 20_000 }).toBe(0);
      await settled();
    });
    expect(await page.locator('main [role="alert"]').count()).toBe(0);
    expect(d.watch.problems).toEqual([]);
  });

  it('keeps the shell when a page whose code is not loaded yet is opened with the service down', async () => {
    // A fresh document: no page's code is loaded yet.
    await d.open('/');
    await settled();
    const restart = await stopService(true);
    // The router logs the error its boundary caught.
    await d.watch.allowing(
      [...UNREACHABLE_NOISE, /PageLoadError: The code of this page could not be loaded/],
      async () => {
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Endpoints', exact: true })
          .click();
        const state = page.getByTestId('unreachable');
        await state.waitFor({ timeout: 20_000 });
        expect(page.url()).toContain('/endpoints');
        expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
        await restart();
        await state.getByRole('button', { name: 'Retry' }).click();
        await page.waitForURL(/\/endpoints/);
        await settled();
      },
    );
    expect(await page.locator('main [role="alert"]').count()).toBe(0);
    expect(d.watch.problems).toEqual([]);
  });

  it('shows the not-found state with the way back for an unknown id, and for a malformed one without asking the API', async () => {
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    for (const { path, title, back, api } of DETAILS) {
      await d.watch.allowing([/HTTP 404: \w+ .*\/api\//, /status of 404/], async () => {
        await d.open(`${path}/${randomUUID()}`, { range: '7d' });
        const state = page.getByTestId('not-found');
        await state.waitFor({ timeout: 15_000 });
        expect(await state.getByRole('heading').innerText()).toBe(title);
        expect(await state.getByRole('link', { name: back }).isVisible()).toBe(true);
      });
      if (path === '/traces') await d.capture('robustness-not-found');

      asked.length = 0;
      await d.open(`${path}/not-an-id`, { range: '7d' });
      const state = page.getByTestId('not-found');
      await state.waitFor();
      expect(await state.getByRole('heading').innerText()).toBe(title);
      expect(await page.getByText('must match format').count()).toBe(0);
      expect(asked.filter((p) => p.startsWith(api))).toEqual([]);
      // Back to the list, in the same project and range.
      await state.getByRole('link', { name: back }).click();
      await page.waitForURL((url) => url.pathname !== `${path}/not-an-id`);
      const url = new URL(page.url());
      expect(url.searchParams.get('range')).toBe('7d');
      expect(url.searchParams.get('projectId')).toBe(d.projectId);
    }
    expect(d.watch.problems).toEqual([]);
  });

  it('says so when the URL names a project the person cannot see, and shows theirs', async () => {
    const stranger = randomUUID();
    await d.open('/issues', { projectId: stranger });
    const notice = page.getByTestId('project-notice');
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(
      new RegExp(`You have no access to project ${stranger} \\(or it does not exist\\) — showing ${projectName}`),
    );
    await expect.poll(() => new URL(page.url()).searchParams.get('projectId')).toBe(d.projectId);
    await settled();
    await d.capture('robustness-project-notice');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.getByTestId('project-notice').count()).toBe(0);
    expect(d.watch.problems).toEqual([]);
  });
});
