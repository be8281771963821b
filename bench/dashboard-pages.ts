/**
 * Dashboard pages over the large store (issue 14; DASHBOARD.md principle 3: a list page is usable
 * in under a second on the 10M-row bench data). Loads bench/read-data.ts's data set (READ_BENCH_ROWS
 * trace rows, default 10 million, over the last 7 days: about a seventh in the last 24 h) into the
 * registered user's project, serves the built web/dist on a loopback port, and opens in Debian's
 * Chromium `/`, `/issues`, `/endpoints` and one trace (`/traces/<id>` of an endpoint of the last
 * 24 h, whose span is in the loaded spans) with `?projectId=…&range=24h`.
 *
 * For each page: the time from navigation start to the page's main table (the waterfall on the
 * trace page) having its first data row in the DOM, read in the page as `performance.now()` at
 * the first animation frame that finds the row; PAGES_BENCH_REPEAT loads (default 10) in one
 * fresh browser profile, the first cold (nothing cached), the others warm reloads (the immutable
 * /assets/ from the cache, the API answered again); median and p90 over all of them, and the
 * cold one alone. Then the JavaScript and CSS the cold load fetched, raw and gzip (level 6).
 *
 * Baseline in the same run: the page's own API requests (every /api/ request of its cold load,
 * with the same method, URL and body) sent together from Node over HTTP to the same service,
 * PAGES_BENCH_REPEAT times; the ratio page / API separates the browser's cost (scripts, render)
 * from the queries'. Each request is also timed alone, to show which one dominates.
 * Needs `npm run build` first and Debian's chromium.
 *
 *   READ_BENCH_ROWS=1000000 npm run bench -- dashboard-pages
 */
import os from 'node:os';
import type { Page } from 'playwright-core';
import { launchChromium, storeSession } from '../test/support/browser.js';
import { assetBytes, assetList, collectAssets, kb, type Loaded } from './page-assets.js';
import { loadReadBenchData, READ_BENCH_ROWS } from './read-data.js';
import { startBenchService } from './service.js';
import { fmt, percentile, report, timed } from './support.js';

const REPEAT = Number(process.env.PAGES_BENCH_REPEAT ?? 10);
const GOAL_MS = 1000;

interface ApiRequest {
  method: string;
  /** Path and query, e.g. /api/endpoints?projectId=… */
  url: string;
  body: string | null;
}

/** Where one load's time went, milliseconds from navigation start (read in the page). */
interface LoadTiming {
  /** The first data row in the DOM. */
  row: number;
  /** The document parsed and its module scripts run (domContentLoadedEventEnd). */
  scripts: number;
  /** The first /api/ request sent. */
  firstApi: number;
  /** The last /api/ answer received before the row appeared. */
  lastApi: number;
}

interface PageFigures {
  loads: LoadTiming[];
  assets: Loaded[];
  requests: ApiRequest[];
}

const service = await startBenchService('dashboard-pages', { ROLLUP_INTERVAL_SECONDS: '0' });
const projectId = service.owner.project.id;
const token = service.owner.token;

try {
  await loadReadBenchData(service.services, projectId, Date.now(), 'dashboard-pages');
  const base = await service.app.listen({ port: 0, host: '127.0.0.1' });
  // A real trace of the range: the newest endpoint call, whose span the loader wrote with its id.
  const [trace] = await service.services.telemetry.query<{ id: string }>(
    'SELECT id FROM endpoints WHERE project_id = {project:UUID} ORDER BY recorded_at DESC LIMIT 1',
    { project: projectId },
  );
  if (!trace) throw new Error('dashboard-pages: the loaded store has no endpoint call');

  const pages: Array<{ name: string; path: string; row: string }> = [
    { name: '/', path: '/', row: 'table[aria-label="Top endpoints by Impact"] tbody tr' },
    { name: '/issues', path: '/issues', row: 'table[aria-label="Issues"] tbody tr' },
    { name: '/endpoints', path: '/endpoints', row: 'table[aria-label="Endpoints"] tbody tr' },
    { name: '/traces/<id>', path: `/traces/${trace.id}`, row: '[role="tree"] [role="treeitem"]' },
  ];

  /** Milliseconds from navigation start to `row` in the DOM, and where they went, measured in the page. */
  const loadUntilRow = async (page: Page, url: string, row: string): Promise<LoadTiming> => {
    await page.goto(url, { waitUntil: 'commit' });
    // A function, not a string: the app's CSP forbids eval, which a string predicate needs.
    const found = await page.waitForFunction(
      (selector: string) =>
        (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(selector)
          ? performance.now()
          : false,
      row,
      { polling: 'raf', timeout: 180_000 },
    );
    const rowAt = Number(await found.jsonValue());
    const entries = await page.evaluate(() => {
      // Node's types lack the DOM's timing entries; these are the fields read.
      type Entry = { name: string; startTime: number; responseEnd: number; domContentLoadedEventEnd: number };
      const timing = performance as unknown as { getEntriesByType(type: string): Entry[] };
      return {
        scripts: timing.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? 0,
        api: timing
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.startsWith('/api/'))
          .map((entry) => [entry.startTime, entry.responseEnd] as const),
      };
    });
    const before = entries.api.filter(([, end]) => end <= rowAt);
    return {
      row: rowAt,
      scripts: entries.scripts,
      firstApi: Math.min(...entries.api.map(([start]) => start)),
      lastApi: Math.max(0, ...before.map(([, end]) => end)),
    };
  };

  const openPage = async ({ path, row }: (typeof pages)[number]): Promise<PageFigures> => {
    const browser = await launchChromium({ baseURL: base });
    try {
      await storeSession(browser.context, token);
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      const url = `${path}?${new URLSearchParams({ projectId, range: '24h' })}`;
      const requests: ApiRequest[] = [];
      const onRequest = (request: import('playwright-core').Request) => {
        const { pathname, search } = new URL(request.url());
        if (pathname.startsWith('/api/'))
          requests.push({ method: request.method(), url: pathname + search, body: request.postData() });
      };
      page.on('request', onRequest);
      const assets = collectAssets(page);
      const loads = [await loadUntilRow(page, url, row)];
      // What the page loads after its table (a lazily loaded chart) counts too.
      await page.waitForLoadState('networkidle');
      page.off('request', onRequest);
      const loaded = await assets();
      for (let i = 1; i < REPEAT; i++) loads.push(await loadUntilRow(page, url, row));
      return { loads, assets: loaded, requests };
    } finally {
      await browser.close();
    }
  };

  const send = (request: ApiRequest) => async () => {
    const response = await fetch(`${base}${request.url}`, {
      method: request.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(request.body === null ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === null ? {} : { body: request.body }),
    });
    const answer = await response.text();
    if (!response.ok)
      throw new Error(
        `${request.method} ${request.url} ${request.body ?? ''}: ${response.status} ${answer.slice(0, 300)}`,
      );
  };
  /** Milliseconds of `fn` over REPEAT calls after one to warm up, ascending. */
  const samples = async (fn: () => Promise<unknown>): Promise<number[]> => {
    await fn();
    const ms: number[] = [];
    for (let i = 0; i < REPEAT; i++) ms.push((await timed(fn)).seconds * 1000);
    return ms.sort((a, b) => a - b);
  };
  const label = (request: ApiRequest) => `${request.method} ${request.url.split('?')[0]}`;

  const loadBefore = os.loadavg()[0]!;
  const rows: Array<[string, string]> = [];
  const details: Array<[string, string]> = [];
  const misses: string[] = [];
  for (const target of pages) {
    const figures = await openPage(target);
    const loads = figures.loads.map((load) => load.row).sort((a, b) => a - b);
    const warm = figures.loads.slice(1);
    const medianOf = (pick: (load: LoadTiming) => number) =>
      percentile(
        warm.map(pick).sort((a, b) => a - b),
        0.5,
      );
    const together = await samples(() => Promise.all(figures.requests.map((request) => send(request)())));
    const alone: Array<[string, number]> = [];
    for (const request of figures.requests) alone.push([label(request), percentile(await samples(send(request)), 0.5)]);
    const median = percentile(loads, 0.5);
    const api = percentile(together, 0.5);
    if (median > GOAL_MS) misses.push(`${target.name} (${fmt(median)} ms)`);
    rows.push([
      target.name,
      `render median ${fmt(median)} ms  p90 ${fmt(percentile(loads, 0.9))} ms  cold ${fmt(figures.loads[0]!.row)} ms | API median ${fmt(api)} ms (${figures.requests.length} requests together) | ratio ${fmt(median / api, 2)} | JS ${kb(assetBytes(figures.assets, 'gzip', 'script'))} gzip (${kb(assetBytes(figures.assets, 'raw', 'script'))} raw), CSS ${kb(assetBytes(figures.assets, 'gzip', 'stylesheet'))} gzip`,
    ]);
    details.push([
      `${target.name} requests alone (median)`,
      alone.map(([name, ms]) => `${name} ${fmt(ms, 1)}`).join(', '),
    ]);
    details.push([
      `${target.name} warm load (median ms)`,
      `scripts run ${fmt(medianOf((load) => load.scripts))}, first API request ${fmt(medianOf((load) => load.firstApi))}, last API answer before the row ${fmt(medianOf((load) => load.lastApi))}, row ${fmt(medianOf((load) => load.row))}`,
    ]);
    details.push([`${target.name} files`, assetList(figures.assets)]);
  }
  report(
    `dashboard-pages: navigation start to the first row of the page's table, ${REPEAT} loads (1 cold + ${REPEAT - 1} warm), 24 h, ${fmt(READ_BENCH_ROWS)} trace rows; vs the page's API requests from Node`,
    rows,
  );
  details.push([
    'machine load average (1 min), before / after the pages',
    `${fmt(loadBefore, 1)} / ${fmt(os.loadavg()[0]!, 1)} on ${os.cpus().length} cores`,
  ]);
  report('dashboard-pages: detail', details);
  report(`dashboard-pages: goal (median under ${fmt(GOAL_MS)} ms)`, [
    ['misses', misses.length === 0 ? 'none' : misses.join('; ')],
  ]);
} finally {
  await service.close();
}
