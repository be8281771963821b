/**
 * The dashboard's layout and figures as a newcomer sees them, in Chromium against a real service
 * with the demo shop's data (src/demo/demo-data.ts through the real ingest routes): at 1280×800 the
 * window itself never scrolls (the app scrolls inside its own panel); at a tablet's 768 px the
 * lists keep their title column readable and no cell's content runs into another's; the last time
 * label of a chart is drawn whole inside its canvas; the account page's CLI snippet names this
 * service; AI costs, a session's length and home's tiles say the same thing everywhere.
 * Everything is measured (DOM geometry, text, canvas pixels), never timed.
 */
import nodePath from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBatch, seededRandom, sendDemoBatch } from '../../src/demo/demo-data.js';
import { formatCost } from '../../web/src/lib/format.js';
import { openSignedInDashboard, SCREENSHOTS, type SignedInDashboard } from '../support/signed-in-dashboard.js';

const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 768, height: 1024 };

/** Pages of the shell at 1280×800 (the telemetry pages with data, settings with a token listed). */
const PAGES = [
  '/',
  '/issues',
  '/endpoints',
  '/tasks',
  '/ai-traces',
  '/sessions',
  '/alerts',
  '/logs',
  '/metrics',
  '/dashboards',
  '/connection',
  '/settings/project',
  '/settings/organization',
  '/settings/account',
];

/** Each list at tablet width: its table and the header of the column that names a row. */
const LISTS = [
  { path: '/issues', table: 'Issues', title: 'Issue' },
  { path: '/endpoints', table: 'Endpoints', title: 'Endpoint' },
  { path: '/tasks', table: 'Tasks', title: 'Task' },
  { path: '/logs', table: 'Log records', title: 'Message' },
  { path: '/ai-traces', table: 'AI calls', title: 'Name' },
  { path: '/sessions', table: 'Sessions', title: 'URL' },
];

interface RowGeometry {
  /** Width of the title column's cell. */
  titleWidth: number;
  /** "cell a / cell b" for each pair of cells whose visible content overlaps, or runs out of its cell. */
  overlaps: string[];
}

/**
 * The geometry of the body rows of `table[aria-label=label]`: each cell's visible content (the
 * boxes of its elements and text, clipped by the overflow of their ancestors inside the cell)
 * compared with the other cells' and with its own cell. A string: the test's TypeScript has no DOM types.
 */
const rowGeometry = (label: string, title: string) => `(() => {
  const table = document.querySelector('table[aria-label=${JSON.stringify(label)}]');
  if (!table) return null;
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
  const titleIndex = heads.indexOf(${JSON.stringify(title)});
  const clip = (rect, node, cell) => {
    let box = { left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom };
    for (let el = node.nodeType === 1 ? node : node.parentElement; el && el !== cell; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        const r = el.getBoundingClientRect();
        box = { left: Math.max(box.left, r.left), right: Math.min(box.right, r.right), top: Math.max(box.top, r.top), bottom: Math.min(box.bottom, r.bottom) };
      }
    }
    return box;
  };
  const contentOf = (cell) => {
    const boxes = [];
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === 3 && !node.textContent.trim()) continue;
      if (node.nodeType === 1) {
        const style = getComputedStyle(node);
        // Screen-reader text and empty boxes draw nothing.
        if (style.position === 'absolute' && style.clipPath !== 'none') continue;
        if (node.children.length > 0 && node.namespaceURI !== 'http://www.w3.org/2000/svg') continue;
        if (node.namespaceURI === 'http://www.w3.org/2000/svg' && node.tagName !== 'svg') continue;
      }
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = node.nodeType === 3 ? [...range.getClientRects()] : [node.getBoundingClientRect()];
      for (const rect of rects) {
        if (rect.width < 0.5 || rect.height < 0.5) continue;
        const box = clip(rect, node, cell);
        if (box.right - box.left > 0.5 && box.bottom - box.top > 0.5) boxes.push(box);
      }
    }
    return boxes;
  };
  const rows = [...table.querySelectorAll('tbody tr')].filter((tr) => tr.querySelectorAll('td').length === heads.length);
  return rows.map((tr) => {
    const cells = [...tr.querySelectorAll('td')];
    const visible = cells.map((cell) => getComputedStyle(cell).display !== 'none');
    const content = cells.map((cell, index) => (visible[index] ? contentOf(cell) : []));
    const overlaps = [];
    const name = (index) => heads[index] || 'column ' + index;
    const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    cells.forEach((cell, i) => {
      if (!visible[i]) return;
      const own = cell.getBoundingClientRect();
      if (content[i].some((box) => box.left < own.left - 1 || box.right > own.right + 1))
        overlaps.push(name(i) + ' runs out of its cell');
      cells.forEach((_, j) => {
        if (j <= i || !visible[j]) return;
        if (content[i].some((a) => content[j].some((b) => hit(a, b)))) overlaps.push(name(i) + ' / ' + name(j));
      });
    });
    return { titleWidth: titleIndex < 0 ? -1 : cells[titleIndex].getBoundingClientRect().width, overlaps };
  });
})()`;

describe('dashboard layout and figures', () => {
  let dashboard: SignedInDashboard;
  let page: Page;

  beforeAll(async () => {
    dashboard = await openSignedInDashboard({ viewport: DESKTOP });
    page = dashboard.page;
    // Forty minutes of the demo shop in the last hour (nothing before it), with a browser session.
    const random = seededRandom(31);
    await sendDemoBatch(
      dashboard.base,
      dashboard.projectToken,
      demoBatch({ now: Date.now() - 60_000, spanMs: 40 * 60_000, calls: 200, random }),
    );
    // A personal access token, so the account page lists one (with its row-actions column).
    const created = await dashboard.service.app.inject({
      method: 'POST',
      url: '/api/personal-access-tokens',
      headers: { authorization: `Bearer ${dashboard.session}` },
      payload: { name: 'laptop script' },
    });
    expect(created.statusCode, created.body).toBe(201);
    // Ingest commits asynchronously: wait until every kind the pages show is readable.
    const scope = `projectId=${dashboard.projectId}`;
    for (let attempt = 0; attempt < 150; attempt++) {
      const { stats } = await dashboard.api<{
        stats: { requests: number; tasks: number; aiCalls: number; sessions: number };
      }>(`/api/dashboard/overview?${scope}`);
      if (stats.requests > 0 && stats.tasks > 0 && stats.aiCalls > 0 && stats.sessions > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 180_000);

  afterAll(async () => {
    await dashboard?.close();
  });

  const list = <T>(url: string): Promise<T> => dashboard.list<T>(url);

  /** Opens `path` and waits until its heading and its data have arrived. */
  const openSettled = async (path: string, query: Record<string, string> = {}) => {
    await dashboard.open(path, query);
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.locator('main [aria-busy="true"]').count()).toBe(0);
  };

  it('never scrolls the window at 1280×800: the app scrolls inside its own panel', async () => {
    const scrolling: string[] = [];
    for (const path of PAGES) {
      await openSettled(path);
      const { scrollHeight, innerHeight } = await page.evaluate<{ scrollHeight: number; innerHeight: number }>(
        '({ scrollHeight: document.scrollingElement.scrollHeight, innerHeight: window.innerHeight })',
      );
      if (scrollHeight > innerHeight) scrolling.push(`${path}: document ${scrollHeight} px > window ${innerHeight} px`);
    }
    expect(scrolling).toEqual([]);
    // And a wheel over the account page moves its panel, never the shell's top bar.
    await openSettled('/settings/account');
    await page.mouse.move(700, 500);
    await page.mouse.wheel(0, 2000);
    await expect.poll(() => page.evaluate<number>('document.querySelector("main").scrollTop')).toBeGreaterThan(0);
    expect(await page.evaluate<number>('document.scrollingElement.scrollTop')).toBe(0);
    expect(await page.evaluate<number>('document.querySelector("header").getBoundingClientRect().top')).toBe(0);
  });

  it("gives the CLI login command with this service's URL on the account page", async () => {
    await openSettled('/settings/account');
    const snippet = page.getByRole('region', { name: 'CLI login command', exact: true });
    await expect.poll(() => snippet.textContent()).toBe(`npx sightline-cli login --url ${dashboard.base}`);
    await dashboard.capture('settings-account-cli');
  });

  it('keeps every list readable at 768 px: a wide title column and no cell running into another', async () => {
    await page.setViewportSize(TABLET);
    try {
      const problems: string[] = [];
      for (const list of LISTS) {
        await openSettled(list.path);
        await page.locator(`table[aria-label="${list.table}"] tbody tr`).first().waitFor();
        const rows = await page.evaluate<RowGeometry[] | null>(rowGeometry(list.table, list.title));
        expect(rows, list.path).not.toBeNull();
        expect(rows!.length, list.path).toBeGreaterThan(0);
        for (const [index, row] of rows!.entries()) {
          if (row.titleWidth < 200)
            problems.push(`${list.path} row ${index}: ${list.title} is ${row.titleWidth} px wide`);
          for (const overlap of row.overlaps) problems.push(`${list.path} row ${index}: ${overlap}`);
        }
        // The document stays as wide as the window: the table fits or scrolls inside its card.
        const width = await page.evaluate<number>('document.scrollingElement.scrollWidth');
        if (width > TABLET.width) problems.push(`${list.path}: the page is ${width} px wide`);
        await dashboard.capture(`tablet${list.path.replace('/', '-')}`);
      }
      expect(problems).toEqual([]);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it("draws each chart's time labels whole inside its canvas", async () => {
    // Charts on home, endpoints, tasks and an endpoint's detail; their last x label is clipped when
    // it would reach past the canvas: the rightmost columns of pixels must stay empty.
    const endpoints = await list<{ items: Array<{ name: string }> }>('/api/endpoints');
    const pages: Array<[string, Record<string, string>]> = [
      ['/', {}],
      ['/endpoints', {}],
      ['/tasks', {}],
      ['/endpoints/detail', { name: endpoints.items[0]!.name }],
    ];
    const clipped: string[] = [];
    // A window whose last bucket starts on a round ten minutes: its tick sits at the plot's right edge.
    const end = Math.floor((Date.now() - 60_000) / 600_000) * 600_000 + 60_000;
    const windowQuery = { from: new Date(end - 3_600_000).toISOString(), to: new Date(end).toISOString() };
    for (const [path, query] of pages) {
      for (const range of [{}, windowQuery]) {
        await openSettled(path, { ...query, ...range });
        await page.locator('.uplot canvas').first().waitFor();
        if (path === '/endpoints/detail' && range === windowQuery) await dashboard.capture('endpoint-detail-window');
        const edges = await page.evaluate<Array<{ left: number; right: number }>>(`
          [...document.querySelectorAll('.uplot canvas')].map((canvas) => {
            const context = canvas.getContext('2d');
            const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
            const painted = (x) => {
              for (let y = 0; y < canvas.height; y++) if (data[(y * canvas.width + x) * 4 + 3] > 0) return 1;
              return 0;
            };
            return { left: painted(0) + painted(1), right: painted(canvas.width - 1) + painted(canvas.width - 2) };
          })`);
        expect(edges.length, path).toBeGreaterThan(0);
        if (edges.some((edge) => edge.left + edge.right > 0))
          await page
            .locator('.uplot')
            .first()
            .screenshot({ path: nodePath.join(SCREENSHOTS, `chart-edge${path.replaceAll('/', '-')}.png`) });
        edges.forEach((edge, index) => {
          if (edge.right > 0 || edge.left > 0)
            clipped.push(
              `${path} ${JSON.stringify(range)} chart ${index}: a label touches the canvas edge ${JSON.stringify(edge)}`,
            );
        });
      }
    }
    expect(clipped).toEqual([]);
  });

  it("shows an AI call's input, output and total cost with the digits that make them add up", async () => {
    const id = (await list<{ items: Array<{ id: string }> }>('/api/ai-traces')).items[0]!.id;
    const trace = await dashboard.api<{ inputCost: number; outputCost: number; totalCost: number }>(
      `/api/ai-traces/${id}?projectId=${dashboard.projectId}`,
    );
    await openSettled(`/ai-traces/${id}`);
    const figures = page.getByRole('group', { name: 'Tokens and cost' });
    const figure = (label: string) =>
      figures.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
    const total = await figure('Total cost').textContent();
    expect(total).toBe(formatCost(trace.totalCost));
    // A sub-cent cost keeps two significant digits ("$0.00030", not "$0.0003" beside "$0.00029").
    expect(formatCost(0.0003)).toBe('$0.00030');
    expect(formatCost(0.00029)).toBe('$0.00029');
    expect(formatCost(0.012)).toBe('$0.012');
    expect(formatCost(1.5)).toBe('$1.50');
    const parts = [await figure('Input cost').textContent(), await figure('Output cost').textContent()];
    if (trace.inputCost + trace.outputCost > 0) {
      expect(parts).toEqual([formatCost(trace.inputCost), formatCost(trace.outputCost)]);
    } else {
      // The call reported its total only: the parts are unknown, not $0.00 beside a total.
      expect(trace.totalCost).toBeGreaterThan(0);
      expect(parts).toEqual(['—', '—']);
      // In the text face, as every "no value" is: a monospace "—" reads as an en dash "–".
      const face = (label: string) =>
        figure(label).evaluate((dd) => dd.ownerDocument.defaultView!.getComputedStyle(dd).fontFamily);
      expect(await face('Input cost')).not.toBe(await face('Total cost'));
      expect(await face('Input cost')).toBe(
        await page
          .locator('body')
          .evaluate((body) => body.ownerDocument.defaultView!.getComputedStyle(body).fontFamily),
      );
    }
    await dashboard.capture('ai-trace-costs');
  });

  it("agrees on a session's length: header, player and timeline", async () => {
    const id = (await list<{ items: Array<{ id: string }> }>('/api/sessions')).items[0]!.id;
    await openSettled(`/sessions/${id}`);
    const clock = page.getByTestId('replay-time');
    await clock.waitFor();
    // The demo session: 3 s long, its exception at 2.45 s, its last recorded event at 2.4 s.
    await expect.poll(() => clock.textContent()).toBe('0:00.0 / 0:03.0');
    // The header's duration, rounded as the clock is.
    expect(await page.getByTestId('session-duration').textContent()).toBe('3 s');
    const offsets = await page.getByRole('list', { name: 'Timeline' }).locator('li span.tabular').allTextContents();
    const exceptionAt = await page
      .getByRole('table', { name: 'Exceptions' })
      .locator('tbody button')
      .first()
      .textContent();
    const toMs = (text: string) => {
      const [minutes, seconds] = text.replace(/^[+−]/, '').split(':');
      return (Number(minutes) * 60 + Number(seconds)) * 1000;
    };
    // Every moment lies within the player's length, on the same tenths.
    for (const offset of [...offsets, exceptionAt!]) {
      expect(offset).toMatch(/^[+−]\d+:\d\d\.\d$/);
      expect(toMs(offset)).toBeLessThanOrEqual(3000);
    }
    expect(exceptionAt).toBe('+0:02.5');
    // Seeking to the exception stays inside the replay, not past its end.
    await page.getByRole('table', { name: 'Exceptions' }).locator('tbody button').first().click();
    await expect.poll(() => clock.textContent()).toBe('0:02.5 / 0:03.0');
    await dashboard.capture('session-length');
  });

  it("gives home's P95 tile the same comparison line as its siblings", async () => {
    await openSettled('/');
    const tiles = page.locator('[data-figure]');
    await expect.poll(() => tiles.count()).toBe(5);
    const lines = await tiles.evaluateAll((elements) =>
      elements.map((element) => [element.getAttribute('data-figure'), element.children.length] as const),
    );
    // Label, value and the comparison line, in every tile.
    expect(lines).toEqual(lines.map(([label]) => [label, 3]));
    await expect
      .poll(() =>
        page
          .locator('[data-figure="P95 latency"] [title="Against the previous range of the same length"]')
          .textContent(),
      )
      .toBe('new');
    await dashboard.capture('home-figures');
  });

  it('keeps a 100-letter token name and a long e-mail inside their tables at 1280 px: cut with a tooltip, dates on one line', async () => {
    const inject = async (url: string, payload: object) => {
      const answer = await dashboard.service.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${dashboard.session}` },
        payload,
      });
      expect(answer.statusCode, answer.body).toBe(201);
    };
    const longName = 'x'.repeat(100);
    await inject('/api/personal-access-tokens', { name: longName });
    const { organizations } = await dashboard.api<{ organizations: Array<{ id: string }> }>('/api/me');
    const longEmail = `someone.with.a.very.long.address.for.tests@${'a-long-department-name.'.repeat(3)}example.com`;
    await inject(`/api/organizations/${organizations[0]!.id}/invitations`, { email: longEmail, role: 'write' });

    /** How far `main` scrolls sideways, and the tallest row of the named table (one line is about 37 px). */
    const measure = (table: string) =>
      page.evaluate<{ overflow: number; tallest: number }>(`(() => {
        const main = document.querySelector('main');
        const rows = [...document.querySelectorAll('table[aria-label="${table}"] tbody tr')];
        return {
          overflow: main.scrollWidth - main.clientWidth,
          tallest: Math.max(...rows.map((row) => row.getBoundingClientRect().height)),
        };
      })()`);

    await openSettled('/settings/account');
    const nameCell = page.getByRole('table', { name: 'Personal access tokens' }).getByTitle(longName, { exact: true });
    await nameCell.waitFor();
    expect(await measure('Personal access tokens')).toEqual({ overflow: 0, tallest: expect.any(Number) });
    expect((await measure('Personal access tokens')).tallest).toBeLessThan(44);
    await dashboard.capture('account-long-token-name');

    await openSettled('/settings/organization');
    await page.getByRole('table', { name: 'Invitations' }).getByTitle(longEmail, { exact: true }).waitFor();
    expect((await measure('Invitations')).overflow).toBe(0);
    expect((await measure('Invitations')).tallest).toBeLessThan(44);
    expect((await measure('Members')).tallest).toBeLessThan(44);
    await dashboard.capture('organization-long-email');
  });
});
