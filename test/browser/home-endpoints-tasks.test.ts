/**
 * Home, endpoints and tasks in Chromium against the real service: data goes in through the real
 * ingest routes (the demo generator's native reports and OTLP, plus the OpenTelemetry SDK's OTLP
 * exporter), and what each page shows is compared with what the read API answers for the same
 * range. Sort, filter and search go through the URL and survive a reload; a drag on a chart puts
 * `from`/`to` in the URL; an endpoint's call links to its `/traces/:id`.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBatch, seededRandom, sendDemoBatch } from '../../src/demo/demo-data.js';
import { formatCount, formatDuration } from '../../web/src/lib/format.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';

type EndpointRow = { name: string; requests: number; p50Ms: number | null; p95Ms: number | null; p99Ms: number | null };
type TaskRow = { name: string; count: number; failures: number; p50Ms: number; p95Ms: number };
type Detail = {
  count: number;
  serverErrors: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  slowest: Array<{ id: string }>;
  statusCodes: Array<{ statusCode: number; count: number }>;
};

const HOUR = 3_600_000;

describe('home, endpoints and tasks pages', () => {
  let dashboard: SignedInDashboard;

  /** POST a read route with the user's session over the page's 24 h range. */
  const post = async <T>(url: string, body: Record<string, unknown>): Promise<T> => {
    const response = await dashboard.service.app.inject({
      method: 'POST',
      url: `${url}?projectId=${dashboard.projectId}`,
      headers: { authorization: `Bearer ${dashboard.session}` },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  };
  /** The cells of each body row of the table named `label`. */
  const rows = (label: string) =>
    dashboard.page
      .locator(`table[aria-label="${label}"] tbody tr`)
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
  const search = () => new URL(dashboard.page.url()).searchParams;

  beforeAll(async () => {
    dashboard = await openSignedInDashboard();
    // Six hours of the demo shop, three batches so the series have shape.
    const random = seededRandom(14);
    for (let i = 0; i < 3; i++) {
      await sendDemoBatch(
        dashboard.base,
        dashboard.projectToken,
        demoBatch({ now: Date.now() - i * 2 * HOUR, spanMs: 2 * HOUR, calls: 150, random, session: false }),
      );
    }
    // And an OpenTelemetry SDK service: a SERVER span is an endpoint call, a CONSUMER span a task run.
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'otel-worker' }),
      spanProcessors: [
        new SimpleSpanProcessor(
          new OTLPTraceExporter({
            url: `${dashboard.base}/api/otel/v1/traces`,
            headers: { authorization: `Bearer ${dashboard.projectToken}` },
          }),
        ),
      ],
    });
    const tracer = provider.getTracer('home-endpoints-tasks');
    for (let i = 0; i < 4; i++) {
      const started = Date.now() - (i + 1) * 60_000;
      const call = tracer.startSpan('GET /otel/ping', {
        kind: SpanKind.SERVER,
        startTime: started,
        attributes: { 'http.request.method': 'GET', 'http.route': '/otel/ping', 'http.response.status_code': 200 },
      });
      call.end(started + 40 + i * 10);
      const run = tracer.startSpan('orders process', { kind: SpanKind.CONSUMER, startTime: started });
      if (i === 0) run.setStatus({ code: SpanStatusCode.ERROR });
      run.end(started + 300 + i * 100);
    }
    await provider.forceFlush();
    await provider.shutdown();
    // Ingest commits asynchronously: wait until the SDK's spans are readable.
    for (let attempt = 0; attempt < 100; attempt++) {
      if (
        (await post<{ items: EndpointRow[] }>('/api/endpoints', {})).items.some(
          (item) => item.name === 'GET /otel/ping',
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120_000);

  afterAll(async () => {
    await dashboard?.close();
  });

  it('home shows the figures, the series and the top endpoints the API answers', async () => {
    const { page } = dashboard;
    const dashboardsAsked = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/dashboards');
    await dashboard.open('/');
    const overview = await dashboard.api<{
      stats: { requests: number; issues: number };
      endpoints: Array<{ name: string; requests: number }>;
    }>(`/api/dashboard/overview?projectId=${dashboard.projectId}`);
    expect(overview.stats.requests).toBeGreaterThan(400);
    await expect
      .poll(() => page.locator('[data-figure="Requests"] [data-figure-value]').textContent())
      .toBe(formatCount(overview.stats.requests));
    await expect
      .poll(() => page.locator('[data-figure="Issues"] [data-figure-value]').textContent())
      .toBe(formatCount(overview.stats.issues));
    await page.locator('figure[aria-label="Requests and server errors"] canvas').first().waitFor();
    const top = await rows('Top endpoints by Impact');
    expect(top.map((cells) => [cells[0], cells[1]])).toEqual(
      overview.endpoints.map((e) => [e.name, formatCount(e.requests)]),
    );
    expect((await rows('Newest issues')).length).toBeGreaterThan(0);
    await page.locator('table[aria-label="Newest issues"] a').first().waitFor();
    expect(await page.locator('table[aria-label="Newest issues"] a').first().getAttribute('href')).toMatch(
      new RegExp(`^/issues/[0-9a-f]+\\?projectId=${dashboard.projectId}`),
    );
    // No dashboard stars a widget here: once the page has its answer, home shows no such card.
    expect((await dashboardsAsked).status()).toBe(200);
    expect(await page.getByRole('heading', { name: 'Starred widgets' }).count()).toBe(0);
    await dashboard.capture('home');
    expect(dashboard.watch.problems).toEqual([]);
  });

  it('endpoints lists what the API ranks, sorts and filters through the URL, and keeps it on reload', async () => {
    const { page } = dashboard;
    await dashboard.open('/endpoints');
    const api = await post<{ items: EndpointRow[] }>('/api/endpoints', {});
    await page.locator('table[aria-label="Endpoints"] tbody tr').first().waitFor();
    await page.locator('figure[aria-label="Total time by endpoint"] canvas').first().waitFor();
    const shown = await rows('Endpoints');
    expect(shown.map((cells) => cells.slice(0, 5))).toEqual(
      api.items.map((item) => [
        item.name,
        formatCount(item.requests),
        formatDuration(item.p50Ms),
        formatDuration(item.p95Ms),
        formatDuration(item.p99Ms),
      ]),
    );
    expect(shown.map((cells) => cells[0])).toContain('GET /otel/ping');
    await dashboard.capture('endpoints');

    // Sort by calls (descending first), then reload: the same order as the API's.
    await page.getByRole('button', { name: 'Calls' }).click();
    await expect.poll(() => search().get('sort')).toBe('requests');
    expect(search().get('dir')).toBe('desc');
    const byCalls = await post<{ items: EndpointRow[] }>('/api/endpoints', {
      orderBy: 'requests',
      sortDirection: 'desc',
    });
    await expect
      .poll(async () => (await rows('Endpoints')).map((cells) => cells[0]))
      .toEqual(byCalls.items.map((item) => item.name));
    await page.reload();
    await page.locator('table[aria-label="Endpoints"] tbody tr').first().waitFor();
    expect((await rows('Endpoints')).map((cells) => cells[0])).toEqual(byCalls.items.map((item) => item.name));
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toBe('Calls');

    // Search and the root filter go into the URL too.
    await page.getByRole('searchbox', { name: 'Search endpoints' }).fill('checkout');
    await expect.poll(() => search().get('q')).toBe('checkout');
    await expect.poll(async () => (await rows('Endpoints')).map((cells) => cells[0])).toEqual(['POST /api/checkout']);
    await page.getByRole('button', { name: 'Nested' }).click();
    await expect.poll(() => search().get('root')).toBe('nested');
    await page.getByText('No endpoints match').waitFor();
    await page.reload();
    await page.getByText('No endpoints match').waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search endpoints' }).inputValue()).toBe('checkout');
    await page.getByRole('button', { name: 'Root' }).click();
    await expect.poll(() => search().get('root')).toBe('root');
    await expect.poll(async () => (await rows('Endpoints')).map((cells) => cells[0])).toEqual(['POST /api/checkout']);

    // j then Enter opens the row under the cursor.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/endpoints/detail');
    expect(search().get('name')).toBe('POST /api/checkout');
    expect(dashboard.watch.problems).toEqual([]);
  });

  it("the Impact badge's hover card keeps each weight × component figure on one line", async () => {
    const { page } = dashboard;
    await dashboard.open('/endpoints');
    await page.locator('table[aria-label="Endpoints"] tbody tr').first().waitFor();
    await page
      .getByRole('button', { name: /^Impact / })
      .first()
      .hover();
    await page.locator('[data-radix-popper-content-wrapper]').getByText('Apdex shortfall (1 − Apdex)').waitFor();
    // Every figure cell is one line high (a wrapped "0.25 × / 0.05" is two).
    const heights = await page
      .locator('[data-radix-popper-content-wrapper] td:last-child')
      .evaluateAll((cells) => cells.map((cell) => [cell.textContent, Math.round(cell.getBoundingClientRect().height)]));
    expect(heights.length).toBe(5);
    for (const [text, height] of heights) expect(height, String(text)).toBeLessThan(24);
    await dashboard.capture('endpoints-impact-hover');
    await page.mouse.move(0, 0);
  });

  it('a drag across a chart sets from/to in the URL and the page follows it', async () => {
    const { page } = dashboard;
    await dashboard.open('/endpoints', { range: '24h' });
    const plot = page.locator('figure[aria-label="Total time by endpoint"] .u-over');
    await plot.waitFor();
    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 8 });
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => search().get('from')).not.toBeNull();
    const from = Date.parse(search().get('from')!);
    const to = Date.parse(search().get('to')!);
    expect(search().get('range')).toBeNull();
    expect(to).toBeGreaterThan(from);
    // About a third of the 24 h plot: between 4 and 12 hours.
    expect(to - from).toBeGreaterThan(4 * HOUR);
    expect(to - from).toBeLessThan(12 * HOUR);
    await expect
      .poll(() => page.getByRole('button', { name: /^Time range:/ }).getAttribute('aria-label'))
      .not.toBe('Time range: Last 24 hours');
    expect(dashboard.watch.problems).toEqual([]);
  });

  it('an endpoint detail shows the percentiles and status codes the API answers, and its calls link to their traces', async () => {
    const { page } = dashboard;
    const name = 'POST /api/checkout';
    await dashboard.open('/endpoints/detail', { name });
    const detail = await post<Detail>('/api/endpoints/detail', { name, limit: 20 });
    const figure = (label: string) => page.locator(`[data-figure="${label}"] [data-figure-value]`).textContent();
    await expect.poll(() => figure('Typical (P50)')).toBe(formatDuration(detail.p50Ms));
    expect(await figure('Slow (P95)')).toBe(formatDuration(detail.p95Ms));
    expect(await figure('P99')).toBe(formatDuration(detail.p99Ms));
    expect(
      await page
        .locator('[data-status-code]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-status-code'))),
    ).toEqual(detail.statusCodes.map((code) => String(code.statusCode)));
    await page.locator('figure[aria-label="Latency of POST /api/checkout"] canvas').first().waitFor();
    // With a few calls per interval P95 equals P99 in most intervals: P99 is dashed, so P95 shows
    // through its gaps instead of being drawn over (before, no P95 ink was left on this chart).
    const ink = () =>
      page.locator('figure[aria-label="Latency of POST /api/checkout"]').evaluate((figure) => {
        const { ownerDocument } = figure;
        const probe = ownerDocument.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
        const rgbOf = (variable: string): number[] => {
          probe.fillStyle = ownerDocument
            .defaultView!.getComputedStyle(ownerDocument.documentElement)
            .getPropertyValue(variable)
            .trim();
          probe.fillRect(0, 0, 1, 1);
          return [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)];
        };
        const series = { P50: rgbOf('--chart-1'), P95: rgbOf('--chart-2'), P99: rgbOf('--chart-4') };
        const canvas = figure.querySelector('canvas')!;
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        const pixels: Record<string, number> = { P50: 0, P95: 0, P99: 0 };
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3]! < 200) continue;
          for (const [name, [r, g, b]] of Object.entries(series)) {
            if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 60)
              pixels[name]!++;
          }
        }
        return pixels;
      });
    await expect.poll(async () => (await ink()).P50).toBeGreaterThan(0);
    const pixels = await ink();
    expect(pixels.P99).toBeGreaterThan(0);
    expect(pixels.P95).toBeGreaterThan(pixels.P99! / 4);
    // The legend says which line is dashed.
    const p99Swatch = page
      .locator('figure[aria-label="Latency of POST /api/checkout"] button', { hasText: 'P99' })
      .locator('svg line');
    expect(await p99Swatch.getAttribute('stroke-dasharray')).toBe('4 2');
    const calls = await rows('calls');
    expect(calls.map((cells) => cells[1])).toEqual(detail.slowest.map((call) => call.id));
    await dashboard.capture('endpoint-detail');

    await page.getByRole('tab', { name: 'Failing' }).click();
    await expect.poll(() => search().get('calls')).toBe('failing');
    const first = detail.slowest[0]!.id;
    await page.getByRole('tab', { name: 'Slowest' }).click();
    await page.getByRole('link', { name: first }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/traces/${first}`);
    expect(search().get('projectId')).toBe(dashboard.projectId);
    expect(dashboard.watch.problems).toEqual([]);
  });

  it('an endpoint detail pages through all its calls 20 at a time, the page in the URL (before: the first 100 at most)', async () => {
    const { page } = dashboard;
    const list = await post<{ items: EndpointRow[] }>('/api/endpoints', {});
    // The busiest endpoint: more calls than the 100 the page used to read.
    const endpoint = list.items.reduce((a, b) => (b.requests > a.requests ? b : a));
    expect(endpoint.requests).toBeGreaterThan(100);
    const callsPage = async (number: number) =>
      (
        await post<{ items: Array<{ id: string }> }>('/api/endpoints/calls', {
          name: endpoint.name,
          pagination: { page: number, pageSize: 20 },
        })
      ).items.map((call) => call.id);
    const pages = Math.ceil(endpoint.requests / 20);
    await dashboard.open('/endpoints/detail', { name: endpoint.name });
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByText(`1–20 of ${endpoint.requests}`).waitFor();
    await expect.poll(async () => (await rows('calls')).map((cells) => cells[1])).toEqual(await callsPage(1));
    await pager.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => search().get('page')).toBe('2');
    await pager.getByText(`21–40 of ${endpoint.requests}`).waitFor();
    await expect.poll(async () => (await rows('calls')).map((cells) => cells[1])).toEqual(await callsPage(2));
    // The last page, past the hundredth call.
    await dashboard.open('/endpoints/detail', { name: endpoint.name, page: String(pages) });
    await pager.getByText(`${(pages - 1) * 20 + 1}–${endpoint.requests} of ${endpoint.requests}`).waitFor();
    await expect.poll(async () => (await rows('calls')).map((cells) => cells[1])).toEqual(await callsPage(pages));
    expect(await pager.getByRole('button', { name: 'Next page' }).getAttribute('aria-disabled')).toBe('true');
    await dashboard.open('/endpoints/detail', { name: endpoint.name, page: '2' });
    await pager.getByText(`21–40 of ${endpoint.requests}`).waitFor();
    await dashboard.capture('endpoint-detail-page-2');
    // The page survives a reload; another tab starts at its first page.
    await page.reload();
    await pager.getByText(`21–40 of ${endpoint.requests}`).waitFor();
    await page.getByRole('tab', { name: 'Recent' }).click();
    await expect.poll(() => search().get('page')).toBeNull();
    expect(search().get('calls')).toBe('recent');
    expect(dashboard.watch.problems).toEqual([]);
  });

  it('tasks list and detail show what the API answers, the SDK consumer span among them', async () => {
    const { page } = dashboard;
    await dashboard.open('/tasks');
    const api = await post<{ items: TaskRow[] }>('/api/tasks', {});
    expect(api.items.map((item) => item.name)).toContain('orders process');
    await page.locator('table[aria-label="Tasks"] tbody tr').first().waitFor();
    expect((await rows('Tasks')).map((cells) => cells.slice(0, 5))).toEqual(
      api.items.map((item) => [
        item.name,
        formatCount(item.count),
        formatCount(item.failures),
        formatDuration(item.p50Ms),
        formatDuration(item.p95Ms),
      ]),
    );
    await page.locator('figure[aria-label="Total time by task"] canvas').first().waitFor();
    await dashboard.capture('tasks');

    await page.getByRole('button', { name: 'Runs' }).click();
    await expect.poll(() => search().get('sort')).toBe('count');
    await page.reload();
    await page.locator('table[aria-label="Tasks"] tbody tr').first().waitFor();
    const byRuns = await post<{ items: TaskRow[] }>('/api/tasks', { orderBy: 'count', sortDirection: 'desc' });
    expect((await rows('Tasks')).map((cells) => cells[0])).toEqual(byRuns.items.map((item) => item.name));

    await page.getByRole('link', { name: 'orders process' }).click();
    await expect.poll(() => search().get('name')).toBe('orders process');
    const detail = await post<Detail>('/api/tasks/detail', { name: 'orders process', limit: 20 });
    expect(detail.count).toBe(4);
    await expect
      .poll(() => page.locator('[data-figure="Typical (P50)"] [data-figure-value]').textContent())
      .toBe(formatDuration(detail.p50Ms));
    expect(await page.locator('[data-figure="Failures"] [data-figure-value]').textContent()).toBe(
      formatCount(detail.serverErrors),
    );
    await page.locator('figure[aria-label="Latency of orders process"] canvas').first().waitFor();
    await dashboard.capture('task-detail');
    expect(dashboard.watch.problems).toEqual([]);
  });

  it('an endpoint or task with no calls in the range shows "—" in every tile, in one face: no 0 %, no 0 /min', async () => {
    const { page } = dashboard;
    const tiles = () =>
      page.locator('[data-figure]').evaluateAll((figures) =>
        figures.map((figure) => {
          const value = figure.querySelector('[data-figure-value]')!;
          return [
            figure.getAttribute('data-figure'),
            value.textContent,
            value.querySelector('.font-mono') === null ? 'text face' : 'monospace',
          ];
        }),
      );
    await dashboard.open('/endpoints/detail', { name: 'GET /nope' });
    await page.getByText('0 calls · 0 failed').waitFor();
    await expect
      .poll(tiles)
      .toEqual(
        ['Typical (P50)', 'Slow (P95)', 'P99', 'Apdex', 'Error rate', 'Throughput'].map((label) => [
          label,
          '—',
          'text face',
        ]),
      );
    await dashboard.capture('endpoint-detail-no-calls');
    await dashboard.open('/tasks/detail', { name: 'nope' });
    await page.getByText('0 runs · 0 failed').waitFor();
    await expect.poll(tiles).toEqual([
      ['Typical (P50)', '—', 'text face'],
      ['Slow (P95)', '—', 'text face'],
      ['P99', '—', 'text face'],
      ['Failures', '0', 'text face'],
      ['Error rate', '—', 'text face'],
      ['Throughput', '—', 'text face'],
    ]);
    expect(dashboard.watch.problems).toEqual([]);
  });

  it('home of a project without data teaches how to connect it', async () => {
    const { page } = dashboard;
    const created = await dashboard.service.app.inject({
      method: 'POST',
      url: `/api/projects?projectId=${dashboard.projectId}`,
      headers: { authorization: `Bearer ${dashboard.session}` },
      payload: { name: 'Empty shop', framework: 'nodejs' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await page.goto(`/?projectId=${created.json().id}`);
    await page.getByText('Send your first data').waitFor();
    expect(await page.getByRole('link', { name: /Connect Empty shop/ }).getAttribute('href')).toMatch(/^\/connection/);
    await dashboard.capture('home-empty');
    expect(dashboard.watch.problems).toEqual([]);
  });

  it('home of a project that sent only logs, or only metrics, says what it received (before: "Nothing was received")', async () => {
    const { page } = dashboard;
    const nanosAgo = (ms: number) => (BigInt(Date.now() - ms) * 1_000_000n).toString();
    const projectSending = async (name: string, signal: 'logs' | 'metrics', body: unknown) => {
      const created = await dashboard.service.app.inject({
        method: 'POST',
        url: `/api/projects?projectId=${dashboard.projectId}`,
        headers: { authorization: `Bearer ${dashboard.session}` },
        payload: { name, framework: 'nodejs' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const sent = await fetch(`${dashboard.base}/api/otel/v1/${signal}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.json().token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(sent.status, await sent.text()).toBe(200);
      return created.json().id as string;
    };
    const logsOnly = await projectSending('Log shipper', 'logs', {
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [1, 2, 3].map((i) => ({
                timeUnixNano: nanosAgo(i * 60_000),
                severityNumber: 9,
                body: { stringValue: `batch ${i} shipped` },
              })),
            },
          ],
        },
      ],
    });
    await page.goto(`/?projectId=${logsOnly}`);
    const said = page.getByTestId('logs-and-metrics-only');
    await said.waitFor();
    expect(await said.textContent()).toContain('it received 3 log records.');
    expect(await said.getByRole('link', { name: '3 log records' }).getAttribute('href')).toMatch(/^\/logs/);
    expect(await page.getByText('Nothing was received').count()).toBe(0);
    expect(await page.getByText('Send your first data').count()).toBe(0);
    // No request, so no error rate (before: "0 %", as if requests had been answered without error).
    // The P95 says "no value" the same way, in the same face (a monospace "—" reads as "–").
    for (const figure of ['Error rate', 'P95 latency']) {
      const value = page.locator(`[data-figure="${figure}"] [data-figure-value]`);
      expect(await value.textContent(), figure).toBe('—');
      expect(await value.locator('.font-mono').count(), figure).toBe(0);
    }
    await dashboard.capture('home-logs-only');

    const metricsOnly = await projectSending('Meter', 'metrics', {
      resourceMetrics: [
        {
          scopeMetrics: [
            {
              metrics: [
                { name: 'queue.depth', gauge: { dataPoints: [{ timeUnixNano: nanosAgo(60_000), asDouble: 4 }] } },
              ],
            },
          ],
        },
      ],
    });
    await page.goto(`/?projectId=${metricsOnly}`);
    await said.waitFor();
    expect(await said.textContent()).toContain('it received 1 metric point.');
    expect(await page.getByText('Nothing was received').count()).toBe(0);
    expect(dashboard.watch.problems).toEqual([]);
  });
});
