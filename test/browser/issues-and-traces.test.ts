/**
 * Issues, issue detail, trace waterfall and distributed trace in Chromium against a real service.
 * Data arrives through the real ingest routes: the demo generator (POST /api/report + OTLP/JSON),
 * the OpenTelemetry JS SDK exporting a two-service distributed trace (storefront → inventory,
 * with an exception in inventory), and a 10,000-span trace posted as OTLP/JSON. Every figure the
 * pages show is compared with what the API answers; links are followed issue → trace →
 * distributed trace → the other service's trace and back; each page is captured light and dark.
 */
import { randomUUID } from 'node:crypto';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoBatch, seededRandom, sendDemoBatch } from '../../src/demo/demo-data.js';
import { replayedText } from '../support/browser.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';
import { formatDuration } from '../../web/src/lib/format.js';
import type { IssueList, OccurrenceList } from '../../web/src/pages/issues/types.js';
import { secondsParam } from '../../web/src/pages/sessions/links.js';
import type { SessionRecording } from '../../web/src/pages/sessions/types.js';
import type { DistributedTrace, TraceDetail } from '../../web/src/pages/traces/types.js';

const BIG_TRACE_SPANS = 10_000;
const LONG_STATEMENT =
  'SELECT qty, reserved, warehouse_id FROM stock WHERE sku = $1 AND warehouse_id = ANY($2) ORDER BY warehouse_id FOR UPDATE SKIP LOCKED';
const LONG_PATH =
  '/srv/inventory/node_modules/.pnpm/@inventory+stock-repository@4.2.1_pg@8.13.0/node_modules/@inventory/stock-repository/dist/queries/select-stock-for-update.js';
const STOREFRONT_LOG = 'order 4411 requested by the storefront';
const INVENTORY_LOG = 'stock of sku 4411 would drop below zero';
const hexId = (bytes: number) =>
  Array.from({ length: bytes * 2 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');
const uuidOfHex = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

/** Sends a storefront request calling the inventory service through the SDK's OTLP/HTTP JSON exporter (each process exports its spans as one batch, as a BatchSpanProcessor does); returns the OTel trace id. */
async function sendDistributedTrace(base: string, projectToken: string): Promise<string> {
  const provider = (service: string) =>
    new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': service, 'service.version': '3.1.0' }),
      spanProcessors: [
        new BatchSpanProcessor(
          new OTLPTraceExporter({
            url: `${base}/api/otel/v1/traces`,
            headers: { authorization: `Bearer ${projectToken}` },
          }),
        ),
      ],
    });
  const storefront = provider('storefront');
  const inventory = provider('inventory');
  const front = storefront.getTracer('storefront');
  const back = inventory.getTracer('inventory');

  const request = front.startSpan('GET /api/orders/:id', {
    kind: SpanKind.SERVER,
    attributes: {
      'http.request.method': 'GET',
      'http.route': '/api/orders/:id',
      'http.response.status_code': 500,
      'client.address': '192.0.2.44',
    },
  });
  const inRequest = trace.setSpan(context.active(), request);
  const call = front.startSpan(
    'GET inventory /stock',
    { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'GET' } },
    inRequest,
  );
  const stock = back.startSpan(
    'GET /stock/:sku',
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'GET', 'http.route': '/stock/:sku', 'http.response.status_code': 500 },
    },
    // What a propagator hands the inventory process: the caller's span context, marked remote.
    trace.setSpanContext(context.active(), { ...call.spanContext(), isRemote: true }),
  );
  const query = back.startSpan(
    'SELECT stock',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system': 'postgresql',
        // Long values: a statement that wraps at its spaces, a path with none to wrap at.
        'db.statement': LONG_STATEMENT,
        'code.filepath': LONG_PATH,
      },
    },
    trace.setSpan(context.active(), stock),
  );
  // Each service logs inside its own request: the inventory's log belongs to its trace page.
  const logProvider = (service: string) =>
    new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': service }),
      processors: [
        new BatchLogRecordProcessor({
          exporter: new OTLPLogExporter({
            url: `${base}/api/otel/v1/logs`,
            headers: { authorization: `Bearer ${projectToken}` },
          }),
        }),
      ],
    });
  const logProviders = [logProvider('storefront'), logProvider('inventory')] as const;
  logProviders[0].getLogger('storefront').emit({
    severityNumber: SeverityNumber.INFO,
    severityText: 'INFO',
    body: STOREFRONT_LOG,
    context: inRequest,
  });
  logProviders[1].getLogger('inventory').emit({
    severityNumber: SeverityNumber.ERROR,
    severityText: 'ERROR',
    body: INVENTORY_LOG,
    context: trace.setSpan(context.active(), stock),
  });
  for (const p of logProviders) {
    await p.forceFlush();
    await p.shutdown();
  }
  await new Promise((resolve) => setTimeout(resolve, 15));
  query.end();
  stock.recordException(new RangeError('stock level below zero for sku 4411'));
  stock.setStatus({ code: SpanStatusCode.ERROR, message: 'stock level below zero' });
  stock.end();
  call.end();
  request.end();
  for (const p of [storefront, inventory]) {
    await p.forceFlush();
    await p.shutdown();
  }
  return request.spanContext().traceId;
}

/**
 * A root server span (it becomes the endpoint, not a span row) and BIG_TRACE_SPANS spans under
 * it, every tenth one level deeper with the next nine as its children, as OTLP/JSON.
 */
async function sendBigTrace(base: string, projectToken: string): Promise<string> {
  const traceId = hexId(16);
  const rootId = hexId(8);
  const start = BigInt(Date.now() - 60_000) * 1_000_000n;
  const spans: unknown[] = [
    {
      traceId,
      spanId: rootId,
      name: 'POST /api/import',
      kind: 2,
      startTimeUnixNano: start.toString(),
      endTimeUnixNano: (start + 20_000_000_000n).toString(),
      attributes: [
        { key: 'http.request.method', value: { stringValue: 'POST' } },
        { key: 'http.route', value: { stringValue: '/api/import' } },
        { key: 'http.response.status_code', value: { intValue: '200' } },
      ],
    },
  ];
  let parent = rootId;
  for (let index = 1; index <= BIG_TRACE_SPANS; index++) {
    const spanId = hexId(8);
    const spanStart = start + BigInt(index) * 1_900_000n;
    spans.push({
      traceId,
      spanId,
      parentSpanId: index % 10 === 0 ? rootId : parent,
      name: `import row ${index}`,
      kind: 1,
      startTimeUnixNano: spanStart.toString(),
      endTimeUnixNano: (spanStart + 1_500_000n).toString(),
      attributes: [{ key: 'row.index', value: { intValue: String(index) } }],
    });
    if (index % 10 === 0) parent = spanId;
  }
  const response = await fetch(`${base}/api/otel/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${projectToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'importer' } }] },
          scopeSpans: [{ spans }],
        },
      ],
    }),
  });
  expect(response.status, await response.text()).toBe(200);
  return uuidOfHex(traceId);
}

/** The browser of the hand-made sessions: "Firefox 133 on Windows" as a person reads it. */
const REPLAY_CARD = '[data-testid="session-replay-card"]';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/**
 * A checkout page's browser session as the browser client reports it (POST /api/report): the
 * session row (11 s long) unless `row` is false, with `recorded` its rrweb recording, and an
 * exception `message` raised 8 s in, in the function `fn` (its own frame: its own issue). The recording's status line reads "Browsing", then "Cart: 1
 * item" at 2 s, then "Paying" at 6 s: the replay's text says which moment it shows.
 */
async function sendBrowserSession(
  base: string,
  projectToken: string,
  options: { message: string; fn: string; recorded: boolean; row?: boolean },
): Promise<{ sessionId: string; startMs: number; raisedAt: string }> {
  const sessionId = randomUUID();
  const startMs = Date.now() - 10 * 60_000;
  const at = (offsetMs: number) => new Date(startMs + offsetMs).toISOString();
  const raisedAt = at(8_000);
  // rrweb's serialized DOM: a document with a doctype and <html><head/><body><p>status</p></body></html>.
  const status = { type: 3, textContent: 'Browsing', id: 6 };
  const body = {
    type: 2,
    tagName: 'body',
    attributes: {},
    id: 5,
    childNodes: [{ type: 2, tagName: 'p', attributes: { id: 'status' }, id: 7, childNodes: [status] }],
  };
  const snapshot = {
    type: 0,
    id: 1,
    childNodes: [
      { type: 1, name: 'html', publicId: '', systemId: '', id: 2 },
      {
        type: 2,
        tagName: 'html',
        attributes: {},
        id: 3,
        childNodes: [{ type: 2, tagName: 'head', attributes: {}, id: 4, childNodes: [] }, body],
      },
    ],
  };
  const text = (offsetMs: number, value: string) => ({
    type: 3,
    data: { source: 0, texts: [{ id: status.id, value }], attributes: [], removes: [], adds: [] },
    timestamp: startMs + offsetMs,
  });
  const events = [
    { type: 4, data: { href: 'https://shop.example/checkout?step=2', width: 1280, height: 720 }, timestamp: startMs },
    { type: 2, data: { node: snapshot, initialOffset: { left: 0, top: 0 } }, timestamp: startMs + 10 },
    text(2_000, 'Cart: 1 item'),
    text(6_000, 'Paying'),
    { type: 3, data: { source: 1, positions: [{ x: 200, y: 40, id: 5, timeOffset: 0 }] }, timestamp: startMs + 9_000 },
  ];
  const response = await fetch(`${base}/api/report`, {
    method: 'POST',
    headers: { authorization: `Bearer ${projectToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      appVersion: '2.4.1',
      serverName: 'browser',
      collectionFrames: [
        {
          sessions:
            options.row === false
              ? []
              : [
                  {
                    id: sessionId,
                    startedAt: at(0),
                    endedAt: at(11_000),
                    attributes: { url: 'https://shop.example/checkout?step=2', userAgent: FIREFOX_ON_WINDOWS },
                  },
                ],
          sessionRecordings: options.recorded
            ? [{ sessionId, segmentIndex: 0, events, logs: [], actions: [], startedAt: at(0), endedAt: at(9_000) }]
            : [],
          stackTraces: [
            {
              stackTrace: `${options.message}\n    at ${options.fn} (https://shop.example/assets/app-3f9a.js:1:9100)`,
              recordedAt: raisedAt,
              isMessage: false,
              sessionId,
            },
          ],
          metrics: [],
          traces: [],
        },
      ],
    }),
  });
  expect(response.status, await response.text()).toBe(200);
  return { sessionId, startMs, raisedAt };
}

const texts = (page: Page, selector: string) => page.locator(selector).allInnerTexts();

/** Where an attribute row's parts sit: the row's box, and the text boxes of its key and value (from their line boxes). */
interface AttributeRowBox {
  key: string;
  row: { top: number; bottom: number };
  keyText: { left: number; right: number; top: number; bottom: number; firstLineBottom: number; lines: number };
  valueText: { left: number; right: number; top: number; bottom: number; firstLineBottom: number; lines: number };
  valueCell: { left: number; right: number; scrollWidth: number; clientWidth: number };
  /** Horizontal rules drawn by the row or its cells (border widths in px). */
  borders: { rowTop: number; rowBottom: number; cells: number };
}

/**
 * The layout of every row of an attribute table, measured in the page. A string expression: this
 * file has no DOM types.
 */
function attributeRowBoxes(page: Page, tableName: string): Promise<AttributeRowBox[]> {
  return page.evaluate<AttributeRowBox[]>(`(() => {
    // The boxes of the visible characters (a space that hangs at the end of a wrapped line is not drawn).
    const textBox = (cell) => {
      const lines = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let at = 0; at < node.data.length; at++) {
          if (/\\s/.test(node.data[at])) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          const rect = range.getBoundingClientRect();
          if (rect.width > 0 && rect.height > 0) lines.push(rect);
        }
      }
      const firstTop = Math.min(...lines.map((rect) => rect.top));
      return {
        left: Math.min(...lines.map((rect) => rect.left)),
        right: Math.max(...lines.map((rect) => rect.right)),
        top: firstTop,
        bottom: Math.max(...lines.map((rect) => rect.bottom)),
        firstLineBottom: Math.max(
          ...lines.filter((rect) => Math.round(rect.top) === Math.round(firstTop)).map((rect) => rect.bottom),
        ),
        lines: new Set(lines.map((rect) => Math.round(rect.top))).size,
      };
    };
    const width = (element, side) => Number.parseFloat(getComputedStyle(element)['border' + side + 'Width']);
    const table = document.querySelector('table[aria-label=' + ${JSON.stringify(JSON.stringify(tableName))} + ']');
    return [...table.querySelectorAll('tr')].map((row) => {
      const th = row.querySelector('th');
      const td = row.querySelector('td');
      const rowRect = row.getBoundingClientRect();
      const tdRect = td.getBoundingClientRect();
      return {
        key: th.textContent,
        row: { top: rowRect.top, bottom: rowRect.bottom },
        keyText: textBox(th),
        valueText: textBox(td),
        valueCell: { left: tdRect.left, right: tdRect.right, scrollWidth: td.scrollWidth, clientWidth: td.clientWidth },
        borders: {
          rowTop: width(row, 'Top'),
          rowBottom: width(row, 'Bottom'),
          cells: [th, td].reduce((sum, cell) => sum + width(cell, 'Top') + width(cell, 'Bottom'), 0),
        },
      };
    });
  })()`);
}

/**
 * An attribute table reads cleanly: one rule between rows (none on the cells, none under the
 * last), every key and value inside its own row's box (a wrapped value above the next rule),
 * values wrapped inside their cell, keys in one column and values in another, and each row's key
 * and value on one first line.
 */
function expectCleanAttributeRows(boxes: AttributeRowBox[]): void {
  expect(boxes.length).toBeGreaterThan(0);
  for (const [index, box] of boxes.entries()) {
    const last = index === boxes.length - 1;
    expect(box.borders, box.key).toEqual({ rowTop: 0, rowBottom: last ? 0 : 1, cells: 0 });
    for (const text of [box.keyText, box.valueText]) {
      expect(text.top, box.key).toBeGreaterThanOrEqual(box.row.top);
      expect(text.bottom, box.key).toBeLessThanOrEqual(box.row.bottom);
    }
    expect(box.valueText.right, box.key).toBeLessThanOrEqual(box.valueCell.right + 0.5);
    expect(box.valueCell.scrollWidth, box.key).toBeLessThanOrEqual(box.valueCell.clientWidth);
    expect(box.keyText.right, box.key).toBeLessThanOrEqual(box.valueCell.left);
    expect(Math.abs(box.keyText.firstLineBottom - box.valueText.firstLineBottom), box.key).toBeLessThanOrEqual(2);
    expect(Math.round(box.valueCell.left)).toBe(Math.round(boxes[0]!.valueCell.left));
    expect(Math.round(box.keyText.left)).toBe(Math.round(boxes[0]!.keyText.left));
    if (!last) expect(box.row.bottom, box.key).toBeLessThanOrEqual(boxes[index + 1]!.row.top + 1);
  }
}

/**
 * The in-app links of the page whose href lacks the project or the range: typed links name only
 * their route, and the root route's retainSearchParams must add the scope to every one.
 */
async function unscopedLinks(
  page: Page,
  scope: { projectId: string; range: string },
): Promise<{ total: number; unscoped: string[] }> {
  const hrefs = await page
    .locator('a[href^="/"]')
    .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
  const unscoped = hrefs.filter((href) => {
    const query = new URL(href, 'http://dashboard').searchParams;
    return query.get('projectId') !== scope.projectId || query.get('range') !== scope.range;
  });
  return { total: hrefs.length, unscoped };
}

describe('issues and traces in Chromium', () => {
  let dashboard: SignedInDashboard;
  let page: Page;
  let distributedOtelTraceId = '';
  let bigTraceId = '';

  const post = async <T>(url: string, body: unknown): Promise<T> => {
    const separator = url.includes('?') ? '&' : '?';
    const response = await dashboard.service.app.inject({
      method: 'POST',
      url: `${url}${separator}projectId=${dashboard.projectId}`,
      headers: { authorization: `Bearer ${dashboard.session}` },
      payload: body as object,
    });
    if (response.statusCode >= 300) throw new Error(`POST ${url}: ${response.statusCode} ${response.body}`);
    return response.json() as T;
  };
  const currentUrl = () => new URL(page.url());

  beforeAll(async () => {
    dashboard = await openSignedInDashboard();
    page = dashboard.page;
    const random = seededRandom(14);
    for (let batch = 0; batch < 4; batch++) {
      await sendDemoBatch(
        dashboard.base,
        dashboard.projectToken,
        demoBatch({ calls: 60, random, now: Date.now() - batch * 60_000, spanMs: 60_000, session: batch === 0 }),
      );
    }
    distributedOtelTraceId = await sendDistributedTrace(dashboard.base, dashboard.projectToken);
    bigTraceId = await sendBigTrace(dashboard.base, dashboard.projectToken);
  });

  afterEach(() => {
    expect(dashboard.watch.problems).toEqual([]);
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  it('lists issues as the API ranks them, with search, kind and sort in the URL, and j/k/Enter', async () => {
    const expected = await post<IssueList>('/api/exception-stack-traces', {});
    expect(expected.total).toBeGreaterThanOrEqual(3);
    await dashboard.open('/issues');
    await page.getByRole('table', { name: 'Issues' }).waitFor();
    const rows = page.locator('table[aria-label="Issues"] tbody tr');
    const shownHashes = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-hash')));
    await expect.poll(() => rows.count()).toBe(expected.items.length);
    expect(await shownHashes()).toEqual(expected.items.map((item) => item.hash));
    expect(await texts(page, 'table[aria-label="Issues"] tbody td[data-column="count"]')).toEqual(
      expected.items.map((item) => item.count.toLocaleString('en-US')),
    );
    expect(await texts(page, 'table[aria-label="Issues"] tbody td[data-column="users"]')).toEqual(
      expected.items.map((item) => item.usersAffected.toLocaleString('en-US')),
    );
    expect(await texts(page, 'table[aria-label="Issues"] tbody td[data-column="sessions"]')).toEqual(
      expected.items.map((item) => item.sessionsAffected.toLocaleString('en-US')),
    );
    const titles = await page.locator('table[aria-label="Issues"] tbody tr td > a:first-child').allInnerTexts();
    expect(titles).toEqual(expected.items.map((item) => item.title));
    await dashboard.capture('issues');

    // `/` focuses the search; typing reaches the URL and the list follows the API's search.
    await page.locator('body').press('/');
    await expect
      .poll(() => page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null"))
      .toBe('Search issues');
    await page.keyboard.type('ETIMEDOUT');
    await expect.poll(() => currentUrl().searchParams.get('q')).toBe('ETIMEDOUT');
    const searched = await post<IssueList>('/api/exception-stack-traces', { search: 'ETIMEDOUT' });
    expect(searched.total).toBeGreaterThan(0);
    await expect.poll(() => shownHashes()).toEqual(searched.items.map((item) => item.hash));

    // Kind: messages only (the API's isMessage filter).
    await page.getByRole('searchbox', { name: 'Search issues' }).fill('');
    await expect.poll(() => currentUrl().searchParams.get('q')).toBeNull();
    await page.getByRole('radio', { name: 'Exceptions' }).click();
    await expect.poll(() => currentUrl().searchParams.get('kind')).toBe('exceptions');
    const exceptionsOnly = await post<IssueList>('/api/exception-stack-traces', {
      filters: [{ field: 'isMessage', op: 'eq', value: false }],
    });
    await expect.poll(() => shownHashes()).toEqual(exceptionsOnly.items.map((item) => item.hash));
    await page.getByRole('radiogroup', { name: 'Kind' }).getByRole('radio', { name: 'All' }).click();

    // Sort by last seen, newest first, as the API orders it; a reload shows the same view.
    await page.getByRole('button', { name: 'Last seen' }).click();
    await expect.poll(() => currentUrl().searchParams.get('sort')).toBe('lastSeen');
    expect(currentUrl().searchParams.get('dir')).toBe('desc');
    const byLastSeen = await post<IssueList>('/api/exception-stack-traces', {
      orderBy: 'lastSeen',
      sortDirection: 'desc',
    });
    await expect.poll(() => shownHashes()).toEqual(byLastSeen.items.map((item) => item.hash));
    await page.reload();
    await page.getByRole('table', { name: 'Issues' }).waitFor();
    await expect.poll(() => shownHashes()).toEqual(byLastSeen.items.map((item) => item.hash));
    expect(await page.getByRole('columnheader', { name: 'Last seen' }).getAttribute('aria-sort')).toBe('descending');

    // j moves the cursor to the second row, k back, Enter opens the row under the cursor.
    await page.locator('body').press('j');
    await page.locator('body').press('j');
    await expect.poll(() => rows.nth(1).getAttribute('aria-selected')).toBe('true');
    await page.locator('body').press('k');
    await page.locator('body').press('Enter');
    await expect.poll(() => currentUrl().pathname).toBe(`/issues/${byLastSeen.items[0]!.hash}`);
    expect(currentUrl().searchParams.get('projectId')).toBe(dashboard.projectId);
  });

  it('finds recent issues in the ⌘K palette by title and opens one with the current range', async () => {
    await dashboard.open('/endpoints', { range: '7d' });
    await page.getByRole('heading', { name: 'Endpoints', level: 1 }).waitFor();
    const recent = await post<IssueList>('/api/exception-stack-traces', { orderBy: 'lastSeen', sortDirection: 'desc' });
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByText('Recent issues').waitFor();
    await palette.getByRole('option', { name: recent.items[0]!.title }).first().waitFor();
    await dashboard.capture('palette-issues');
    const [group] = (await post<IssueList>('/api/exception-stack-traces', { search: 'ETIMEDOUT' })).items;
    await page.keyboard.type('ETIMEDOUT');
    await palette.getByRole('option', { name: group!.title }).first().waitFor();
    expect(await palette.getByText('Nothing matches.').count()).toBe(0);
    await palette.getByRole('option', { name: group!.title }).first().click();
    await expect.poll(() => currentUrl().pathname).toBe(`/issues/${group!.hash}`);
    expect(currentUrl().searchParams.get('range')).toBe('7d');
    expect(currentUrl().searchParams.get('projectId')).toBe(dashboard.projectId);
    await page.getByTestId('issue-title').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('teaches how to connect when the range holds no issue, and says so when a search matches none', async () => {
    const from = new Date(Date.now() - 20 * 24 * 3600_000).toISOString();
    const to = new Date(Date.now() - 19 * 24 * 3600_000).toISOString();
    await dashboard.open('/issues', { from, to });
    await page.getByText('No issues in this time range').waitFor();
    expect(await page.getByRole('link', { name: 'Connect an SDK' }).getAttribute('href')).toContain('/connection');
    await dashboard.capture('issues-empty');
    await dashboard.open('/issues', { q: 'no-such-text-anywhere' });
    await page.getByText('No issue matches').waitFor();
  });

  it('shows an issue: frames with library frames folded, occurrences with paging, and the selected occurrence in the URL', async () => {
    const groups = await post<IssueList>('/api/exception-stack-traces', { search: 'ETIMEDOUT' });
    const group = groups.items[0]!;
    const occurrences = await post<OccurrenceList>(`/api/exception-stack-traces/${group.hash}`, {
      pagination: { page: 1, pageSize: 20 },
    });
    await dashboard.open(`/issues/${group.hash}`);
    await page.getByTestId('issue-title').waitFor();
    expect(await page.getByTestId('issue-title').innerText()).toBe(group.title);
    expect(await page.getByTestId('issue-count').innerText()).toBe(group.count.toLocaleString('en-US'));
    await expect
      .poll(() => page.locator('table[aria-label="Occurrences"] tbody tr').count())
      .toBe(occurrences.items.length);

    // The demo's ETIMEDOUT trace: node:net and node_modules/pg-pool are library frames, db.js is the app's.
    const frames = page.getByRole('list', { name: 'Stack frames' });
    expect(await frames.locator('[data-frame="app"]').allInnerTexts()).toEqual([expect.stringContaining('src/db.js')]);
    expect(await frames.locator('[data-frame="library"]').count()).toBe(0);
    await frames.getByRole('button', { name: 'Show 2 library frames' }).click();
    expect(await frames.locator('[data-frame="library"]').count()).toBe(2);
    await dashboard.capture('issue');

    if (occurrences.items.length > 1) {
      await page.locator('table[aria-label="Occurrences"] tbody tr').nth(1).click();
      await expect.poll(() => currentUrl().searchParams.get('occurrence')).toBe('1');
      const second = occurrences.items[1]!;
      const traceLink = page.getByTestId('occurrence-trace');
      expect(await traceLink.getAttribute('href')).toContain(`/traces/${second.traceId}`);
    }
  });

  it('follows an issue to its trace, the distributed trace, the other service and back', async () => {
    const groups = await post<IssueList>('/api/exception-stack-traces', { search: 'stock level below zero' });
    expect(groups.total).toBe(1);
    const group = groups.items[0]!;
    const [occurrence] = (await post<OccurrenceList>(`/api/exception-stack-traces/${group.hash}`, {})).items;
    expect(occurrence?.traceId).toBeTruthy();
    expect(occurrence?.distributedTraceId).toBe(uuidOfHex(distributedOtelTraceId));

    await dashboard.open('/issues', { q: 'stock level' });
    await page.getByRole('link', { name: group.title }).click();
    await expect.poll(() => currentUrl().pathname).toBe(`/issues/${group.hash}`);
    // The ids cut to the card's width carry their whole text as a tooltip.
    const distributedLink = page.getByRole('link', { name: occurrence!.distributedTraceId! });
    expect(await distributedLink.getAttribute('title')).toBe(occurrence!.distributedTraceId);
    await page.getByTestId('occurrence-trace').click();

    // The trace of the occurrence (the entity owning the span that raised it).
    await expect.poll(() => currentUrl().pathname).toBe(`/traces/${occurrence!.traceId}`);
    const detail = await dashboard.api<TraceDetail>(
      `/api/traces/${occurrence!.traceId}?projectId=${dashboard.projectId}`,
    );
    await page.getByTestId('trace-name').waitFor();
    expect(await page.getByTestId('trace-name').innerText()).toBe(detail.name);
    expect(await page.getByTestId('trace-duration').innerText()).toBe(formatDuration(detail.durationMs));
    await expect.poll(() => page.locator('[role="treeitem"]').count()).toBe(detail.spans.length);
    // The exception of this trace links back to its issue.
    await page
      .getByRole('table', { name: 'Exceptions of this trace' })
      .getByRole('link', { name: group.title })
      .waitFor();
    // A call inside a distributed trace (the inventory's, not the root): its logs are its
    // service's logs of that trace, found by the trace id the logs carry.
    expect(detail.isRoot).toBe(false);
    const traceLogs = page.getByRole('table', { name: 'Logs of this trace' });
    await traceLogs.getByText(INVENTORY_LOG).waitFor();
    expect(await traceLogs.getByText(STOREFRONT_LOG).count()).toBe(0);
    const openInLogs = new URL(
      (await page.getByRole('link', { name: 'Open in Logs' }).getAttribute('href'))!,
      dashboard.base,
    );
    expect(Object.fromEntries(openInLogs.searchParams)).toMatchObject({
      traceId: occurrence!.distributedTraceId,
      service: 'inventory',
    });

    // Selecting a span puts it in the URL and opens its attributes.
    const query = detail.spans.find((span) => span.name === 'SELECT stock')!;
    await page.locator(`[data-span-id="${query.spanId}"]`).click();
    await expect.poll(() => currentUrl().searchParams.get('span')).toBe(query.spanId);
    await page.getByTestId('span-details').getByText(LONG_STATEMENT).waitFor();
    // Long values wrap inside their cell, the unbroken path too, each row under one rule.
    const attributeRows = await attributeRowBoxes(page, 'Span attributes');
    expect(attributeRows.map((row) => row.key)).toEqual(['code.filepath', 'db.statement', 'db.system']);
    expect(attributeRows[0]!.valueText.lines).toBeGreaterThan(2);
    expect(attributeRows[1]!.valueText.lines).toBeGreaterThan(1);
    expectCleanAttributeRows(attributeRows);
    await dashboard.capture('trace');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate<boolean>("document.documentElement.classList.contains('dark')")).toBe(true);
    expectCleanAttributeRows(await attributeRowBoxes(page, 'Span attributes'));
    await page.emulateMedia({ colorScheme: 'light' });

    // On to the distributed trace: both services on one axis.
    await page.getByTestId('distributed-link').click();
    await expect.poll(() => currentUrl().pathname).toBe(`/distributed-traces/${occurrence!.distributedTraceId}`);
    const distributed = await dashboard.api<DistributedTrace>(
      `/api/distributed-traces/${occurrence!.distributedTraceId}`,
    );
    // Both services' requests share the trace: the storefront's and the inventory's.
    expect(distributed.entities.length).toBeGreaterThanOrEqual(2);
    expect(new Set(distributed.entities.map((entity) => entity.serverName)).size).toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.getByTestId('entity-count').innerText()).toBe(String(distributed.entities.length));
    expect(await page.getByTestId('distributed-duration').innerText()).toBe(formatDuration(distributed.durationMs!));
    const other =
      distributed.entities.find((entity) => entity.id !== occurrence!.traceId && entity.spans.length > 0) ??
      distributed.entities.find((entity) => entity.id !== occurrence!.traceId)!;
    const row = page.locator(`li[data-entity-id="${other.id}"]`);
    await row.getByRole('button', { name: `Show the ${other.spans.length} spans of ${other.name}` }).click();
    // The router writes arrays in the query string as JSON.
    await expect.poll(() => JSON.parse(currentUrl().searchParams.get('open') ?? '[]')).toEqual([other.id]);
    if (other.spans.length > 0)
      await expect.poll(() => row.locator('[role="treeitem"]').count()).toBe(other.spans.length);
    await dashboard.capture('distributed-trace');

    // The other service's trace, then back through the history to the issue.
    await row.getByRole('link', { name: other.name }).click();
    await expect.poll(() => currentUrl().pathname).toBe(`/traces/${other.id}`);
    await expect.poll(() => page.getByTestId('trace-name').innerText()).toBe(other.name);
    const otherDetail = await dashboard.api<TraceDetail>(`/api/traces/${other.id}?projectId=${dashboard.projectId}`);
    expect(await page.getByTestId('trace-details').innerText()).toContain(otherDetail.serverName);
    await page.goBack();
    await expect.poll(() => currentUrl().pathname).toBe(`/distributed-traces/${occurrence!.distributedTraceId}`);
    await page.goBack();
    await expect.poll(() => currentUrl().pathname).toBe(`/traces/${occurrence!.traceId}`);
    await page.goBack();
    await expect.poll(() => currentUrl().pathname).toBe(`/issues/${group.hash}`);
    await page.getByTestId('issue-title').waitFor();
  });

  it('follows "Watch replay" from an occurrence raised in a browser session, and a trace to the session of its exception, keeping project and range', async () => {
    // The demo's browser session (first batch): its exception has the session, which has a recording.
    const groups = await post<IssueList>('/api/exception-stack-traces', { search: 'openCart' });
    expect(groups.total).toBe(1);
    const group = groups.items[0]!;
    const [occurrence] = (await post<OccurrenceList>(`/api/exception-stack-traces/${group.hash}`, {})).items;
    expect(occurrence).toMatchObject({ sessionId: expect.any(String), hasRecording: true });
    const sessionId = occurrence!.sessionId!;
    const recording = await dashboard.api<SessionRecording>(
      `/api/sessions/${sessionId}/recording?projectId=${dashboard.projectId}`,
    );
    const start = Math.min(...recording.segments.flatMap((segment) => segment.events.map((event) => event.timestamp)));
    const scope = { projectId: dashboard.projectId, range: '6h' };

    await dashboard.open(`/issues/${group.hash}`, { range: scope.range });
    const replay = page.getByTestId('watch-replay');
    await replay.waitFor();
    const links = await unscopedLinks(page, scope);
    expect(links.total).toBeGreaterThan(10);
    expect(links.unscoped).toEqual([]);
    await replay.click();
    await expect.poll(() => currentUrl().pathname).toBe(`/sessions/${sessionId}`);
    // `?at=` of the link becomes the replay's own `?t=` once the recording is read.
    await expect
      .poll(() => currentUrl().searchParams.get('t'))
      .toBe(String(secondsParam(Date.parse(occurrence!.recordedAt!) - start)));
    expect(currentUrl().searchParams.get('at')).toBeNull();
    expect(currentUrl().searchParams.get('projectId')).toBe(scope.projectId);
    expect(currentUrl().searchParams.get('range')).toBe(scope.range);
    await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
    expect((await unscopedLinks(page, scope)).unscoped).toEqual([]);

    // The browser raises an error during a demo endpoint call (its trace): that trace links to the session, at the error.
    const endpoint = (await post<IssueList>('/api/exception-stack-traces', { search: 'ETIMEDOUT' })).items.find(
      (item) => item.linked?.kind === 'endpoint',
    )!.linked!;
    const raisedAt = new Date(start + 1_000).toISOString();
    const report = await fetch(`${dashboard.base}/api/report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${dashboard.projectToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        appVersion: '2.4.1',
        serverName: 'browser',
        collectionFrames: [
          {
            stackTraces: [
              {
                stackTrace:
                  'Error: cart total missing\n    at renderCart (https://shop.example/assets/app-3f9a.js:1:1200)',
                recordedAt: raisedAt,
                isMessage: false,
                sessionId,
                traceId: endpoint.id,
              },
            ],
            metrics: [],
            traces: [],
          },
        ],
      }),
    });
    expect(report.status, await report.text()).toBe(200);
    await dashboard.open(`/traces/${endpoint.id}`, { range: scope.range });
    const session = page.getByTestId('session-link');
    await session.waitFor();
    expect((await unscopedLinks(page, scope)).unscoped).toEqual([]);
    await session.click();
    await expect.poll(() => currentUrl().pathname).toBe(`/sessions/${sessionId}`);
    await expect.poll(() => currentUrl().searchParams.get('t')).toBe(String(secondsParam(1_000)));
    expect(currentUrl().searchParams.get('range')).toBe(scope.range);
  });

  it("shows the replay card of an occurrence's browser session a few seconds before it, a session without recording plainly, and no card for a server exception", async () => {
    const scope = { projectId: dashboard.projectId, range: '6h' };
    const requests: string[] = [];
    const onRequest = (request: { url(): string }) => void requests.push(request.url());
    page.on('request', onRequest);
    const issueOf = async (search: string) => {
      const groups = await post<IssueList>('/api/exception-stack-traces', { search });
      expect(groups.total).toBe(1);
      const [occurrence] = (await post<OccurrenceList>(`/api/exception-stack-traces/${groups.items[0]!.hash}`, {}))
        .items;
      return { hash: groups.items[0]!.hash, occurrence: occurrence! };
    };
    const loaded = (chunk: RegExp) => requests.filter((url) => chunk.test(url));
    try {
      // A server-side exception (the demo shop's ETIMEDOUT): no session, no card, and neither the card's nor the player's code.
      const server = (await post<IssueList>('/api/exception-stack-traces', { search: 'ETIMEDOUT' })).items[0]!;
      const serverOccurrences = await post<OccurrenceList>(`/api/exception-stack-traces/${server.hash}`, {});
      expect(serverOccurrences.items.every((item) => item.sessionId === null)).toBe(true);
      requests.length = 0;
      await dashboard.open(`/issues/${server.hash}`, { range: scope.range });
      await page.getByRole('table', { name: 'Occurrences' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('region', { name: 'Session replay' }).count()).toBe(0);
      expect(loaded(/\/assets\/(session-replay-card|replay-player)-/)).toEqual([]);

      // A recorded session: its summary, and the player 5 s before the error (8 s in): the cart, not yet paying.
      const recorded = await sendBrowserSession(dashboard.base, dashboard.projectToken, {
        message: 'TypeError: payment form is gone',
        fn: 'pay',
        recorded: true,
      });
      const withReplay = await issueOf('payment form is gone');
      expect(withReplay.occurrence).toMatchObject({ sessionId: recorded.sessionId, hasRecording: true });
      const card = page.getByRole('region', { name: 'Session replay' });
      const recordingUrl = `${dashboard.base}/api/sessions/${recorded.sessionId}/recording?**`;
      // While the recording loads: the summary, and the player's skeleton in its place.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const hold = async (route: Route) => {
        await held;
        await route.continue();
      };
      await page.route(recordingUrl, hold);
      await dashboard.open(`/issues/${withReplay.hash}`, { range: scope.range });
      await card.getByRole('status', { name: 'Loading the replay' }).waitFor();
      await card.getByTestId('replay-card-browser').getByText('Firefox 133 on Windows').waitFor();
      await dashboard.capture('issue-replay-card-loading');
      release();
      await card.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
      await page.unroute(recordingUrl, hold);
      // A recording the service fails to read: its message in the card, the summary still there.
      const fail = (route: Route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"object store unavailable"}' });
      await page.route(recordingUrl, fail);
      await dashboard.watch.allowing([/500.*\/recording/], async () => {
        await dashboard.open(`/issues/${withReplay.hash}`, { range: scope.range });
        await card.getByRole('alert').getByText('Could not load this').waitFor({ timeout: 15_000 });
        await dashboard.capture('issue-replay-card-error');
      });
      expect(await card.getByTestId('replay-card-browser').innerText()).toBe('Firefox 133 on Windows');
      await page.unroute(recordingUrl, fail);

      requests.length = 0;
      await dashboard.open(`/issues/${withReplay.hash}`, { range: scope.range });
      await card.getByTestId('replay-card-browser').getByText('Firefox 133 on Windows').waitFor();
      expect(await card.getByTestId('replay-card-url').innerText()).toBe('shop.example/checkout?step=2');
      expect(await card.getByTestId('replay-card-duration').innerText()).toBe('11 s');
      expect(await card.getByTestId('replay-card-started').innerText()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}$/);
      await card.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
      await expect.poll(() => replayedText(page, REPLAY_CARD), { timeout: 15_000 }).toContain('Cart: 1 item');
      expect(await replayedText(page, REPLAY_CARD)).not.toContain('Paying');
      expect(await card.getByTestId('replay-time').innerText()).toMatch(/^0:03\.0 /);
      await card.getByText('This occurrence is at 0:08.0; the replay starts 0:05.0 before it.').waitFor();
      expect(loaded(/\/assets\/replay-player-[\w-]+\.js$/)).toHaveLength(1);
      await dashboard.capture('issue-replay-card');
      // Playing goes on to the moment of the error.
      await card.getByRole('button', { name: 'Play', exact: true }).click();
      await expect.poll(() => replayedText(page, REPLAY_CARD), { timeout: 15_000 }).toContain('Paying');
      // "Open session" opens the full session at the occurrence (the link's ?at= becomes the replay's ?t=).
      expect((await unscopedLinks(page, scope)).unscoped).toEqual([]);
      await card.getByRole('link', { name: 'Open session' }).click();
      await expect.poll(() => currentUrl().pathname).toBe(`/sessions/${recorded.sessionId}`);
      await expect.poll(() => currentUrl().searchParams.get('t')).toBe(String(secondsParam(8_000)));

      // A session without a recording: the card says so and links the session; no player is fetched.
      const plain = await sendBrowserSession(dashboard.base, dashboard.projectToken, {
        message: 'TypeError: coupon field is gone',
        fn: 'applyCoupon',
        recorded: false,
      });
      const withoutReplay = await issueOf('coupon field is gone');
      expect(withoutReplay.occurrence).toMatchObject({ sessionId: plain.sessionId, hasRecording: false });
      requests.length = 0;
      await dashboard.open(`/issues/${withoutReplay.hash}`, { range: scope.range });
      const plainCard = page.getByRole('region', { name: 'Session replay' });
      await plainCard.getByText('This session has no recording').waitFor();
      expect(await plainCard.getByTestId('replay-card-browser').innerText()).toBe('Firefox 133 on Windows');
      const open = plainCard.getByRole('link', { name: 'Open session' });
      expect(new URL((await open.getAttribute('href'))!, dashboard.base).pathname).toBe(`/sessions/${plain.sessionId}`);
      await page.waitForLoadState('networkidle');
      expect(await plainCard.locator('.replayer-wrapper').count()).toBe(0);
      expect(loaded(/\/assets\/replay-player-/)).toEqual([]);
      await dashboard.capture('issue-replay-card-no-recording');

      // An occurrence naming a session the service never received: said plainly, with no link to a missing page.
      const unknown = await sendBrowserSession(dashboard.base, dashboard.projectToken, {
        message: 'TypeError: address form is gone',
        fn: 'saveAddress',
        recorded: false,
        row: false,
      });
      const orphan = await issueOf('address form is gone');
      await dashboard.watch.allowing([new RegExp(`404.*/api/sessions/${unknown.sessionId}`)], async () => {
        await dashboard.open(`/issues/${orphan.hash}`, { range: scope.range });
        const orphanCard = page.getByRole('region', { name: 'Session replay' });
        await orphanCard.getByText('The service never received this session').waitFor();
        expect(await orphanCard.getByRole('link', { name: 'Open session' }).count()).toBe(0);
      });
    } finally {
      page.off('request', onRequest);
    }
    // Six page loads and their replays: about 20 s on a quiet machine, past 60 s in a CI run beside other work.
  }, 180_000);

  it('shows a demo endpoint trace with its logs, linking to /logs', async () => {
    const groups = await post<IssueList>('/api/exception-stack-traces', { search: 'ETIMEDOUT' });
    const linked = groups.items.find((item) => item.linked?.kind === 'endpoint')!.linked!;
    const detail = await dashboard.api<TraceDetail>(`/api/traces/${linked.id}?projectId=${dashboard.projectId}`);
    await dashboard.open(`/traces/${linked.id}`);
    await expect.poll(() => page.getByTestId('trace-name').innerText()).toBe(detail.name);
    expect(await page.getByTestId('trace-details').innerText()).toContain(detail.serverName);
    await page.getByRole('table', { name: 'Logs of this trace' }).waitFor();
    const logLink = page.getByRole('link', { name: 'Open in Logs' });
    expect(new URL((await logLink.getAttribute('href')) ?? '', dashboard.base).searchParams.get('traceId')).toBe(
      linked.id,
    );
    await page
      .getByRole('table', { name: 'Exceptions of this trace' })
      .getByRole('link', { name: /ETIMEDOUT/ })
      .waitFor();
    await page.getByRole('tree').getByRole('treeitem').first().click();
    await dashboard.capture('trace-demo');
  });

  it('renders a 10,000-span trace in a virtualized waterfall that scrolls to the last span and selects it', async () => {
    const detail = await dashboard.api<TraceDetail>(`/api/traces/${bigTraceId}?projectId=${dashboard.projectId}`);
    expect(detail.spans).toHaveLength(BIG_TRACE_SPANS);
    await dashboard.open(`/traces/${bigTraceId}`);
    const scroller = page.getByTestId('waterfall-scroll');
    await scroller.waitFor();
    await page.getByText(`(${BIG_TRACE_SPANS.toLocaleString('en-US')})`).waitFor();
    const inDom = await page.locator('[role="treeitem"]').count();
    expect(inDom).toBeGreaterThan(5);
    expect(inDom).toBeLessThan(100);

    // The last row in tree order is the last span sent (row i - 1 holds span i: its parent, the root, is the endpoint).
    const last = detail.spans.find((span) => span.name === `import row ${BIG_TRACE_SPANS}`)!;
    await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    const lastRow = page.locator(`[data-span-id="${last.spanId}"]`);
    await lastRow.waitFor();
    expect(await lastRow.getAttribute('data-row')).toBe(String(BIG_TRACE_SPANS - 1));
    expect(await page.locator('[role="treeitem"]').count()).toBeLessThan(100);
    await lastRow.click();
    await expect.poll(() => currentUrl().searchParams.get('span')).toBe(last.spanId);
    const panel = page.getByTestId('span-details');
    await panel.getByRole('heading', { name: last.name }).waitFor();
    expect(await panel.getByRole('table', { name: 'Span attributes' }).innerText()).toContain(String(BIG_TRACE_SPANS));

    // Keyboard: ↑ moves the cursor, Enter selects it; ← from a leaf goes to its parent.
    await scroller.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    const previous = detail.spans.find((span) => span.name === `import row ${BIG_TRACE_SPANS - 1}`)!;
    await expect.poll(() => currentUrl().searchParams.get('span')).toBe(previous.spanId);

    // Search filters to the matches and their ancestors, highlighting the text.
    const searchBox = page.getByRole('searchbox', { name: 'Find spans' });
    const hiddenNotice = panel.getByTestId('span-hidden-by-search');
    expect(await hiddenNotice.count()).toBe(0);
    await searchBox.fill('import row 4321');
    await expect.poll(() => currentUrl().searchParams.get('q')).toBe('import row 4321');
    await expect.poll(() => page.locator('[role="treeitem"] mark').allInnerTexts()).toEqual(['import row 4321']);

    // The selection is kept while the search hides its row, and the panel says so.
    expect(currentUrl().searchParams.get('span')).toBe(previous.spanId);
    await panel.getByRole('heading', { name: previous.name }).waitFor();
    expect(await page.locator(`[data-span-id="${previous.spanId}"]`).count()).toBe(0);
    await hiddenNotice.waitFor();
    expect(await hiddenNotice.innerText()).toContain('Hidden by the search');
    expect(await hiddenNotice.innerText()).toContain('import row 4321');
    await dashboard.capture('trace-10000-spans');

    // The URL is the state: a reload shows the same search, selection and notice.
    await page.reload();
    await hiddenNotice.waitFor();
    expect(await searchBox.inputValue()).toBe('import row 4321');
    await expect.poll(() => page.locator('[role="treeitem"] mark').allInnerTexts()).toEqual(['import row 4321']);

    // One click clears the search (box and URL), keeps the selection and brings its row back into view.
    await hiddenNotice.getByRole('button', { name: 'Clear search' }).click();
    await expect.poll(() => currentUrl().searchParams.get('q')).toBeNull();
    expect(currentUrl().searchParams.get('span')).toBe(previous.spanId);
    expect(await searchBox.inputValue()).toBe('');
    expect(await hiddenNotice.count()).toBe(0);
    const previousRow = page.locator(`[data-span-id="${previous.spanId}"]`);
    await previousRow.waitFor();
    expect(await previousRow.getAttribute('aria-selected')).toBe('true');
    expect(await previousRow.isVisible()).toBe(true);
    const [rowBox, scrollBox] = [await previousRow.boundingBox(), await scroller.boundingBox()];
    expect(rowBox!.y).toBeGreaterThanOrEqual(scrollBox!.y);
    expect(rowBox!.y + rowBox!.height).toBeLessThanOrEqual(scrollBox!.y + scrollBox!.height + 1);
    await dashboard.capture('trace-10000-spans-search-cleared');

    // A span shown as the ancestor of a match is not hidden: no notice.
    await searchBox.fill('import row 4321');
    await expect.poll(() => page.locator('[role="treeitem"] mark').allInnerTexts()).toEqual(['import row 4321']);
    await hiddenNotice.waitFor();
    const ancestor = detail.spans.find((span) => span.name === 'import row 4320')!;
    await page.locator(`[data-span-id="${ancestor.spanId}"]`).click();
    await expect.poll(() => currentUrl().searchParams.get('span')).toBe(ancestor.spanId);
    await panel.getByRole('heading', { name: ancestor.name }).waitFor();
    expect(await hiddenNotice.count()).toBe(0);
  });
});
