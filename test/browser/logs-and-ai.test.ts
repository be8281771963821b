/**
 * /logs and /ai-traces in real Chromium against a real service. Logs are sent by the OpenTelemetry
 * SDK's OTLP/HTTP log exporter, LLM calls by its trace exporter (gen_ai spans carrying the 1.37
 * message attributes, with a tool call and its result), all through the real ingest routes; the
 * pages are compared with what the read API answers for the same query.
 *
 * Needs `npm run build -w web` first (the service serves web/dist).
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityViolations } from '../support/browser.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';

interface LogRow {
  timestamp: string;
  severityNumber: number;
  severityText: string;
  body: string;
  traceId: string | null;
  serviceName: string;
  attributes: Record<string, string>;
}
interface AiItem {
  id: string;
  name: string;
  model: string;
  provider: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  totalCost: number;
  finishReason: string;
  toolCalls: number;
  distributedTraceId: string | null;
}
interface AiList {
  items: AiItem[];
  total: number;
  perModel: Array<{ model: string; count: number; inputTokens: number; outputTokens: number; totalCost: number }>;
}

let dashboard: SignedInDashboard;
let logs: LoggerProvider;
let tracing: NodeTracerProvider;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const XSS =
  'Here is **the answer** and a [docs link](https://example.com/docs) and a [bad link](javascript:alert(1)).\n\n<script>window.__xss = 1</script>\n\n<img src="x" onerror="window.__xss = 2">\n\n```js\nconst total = 42;\n```';
const LONG_ANSWER = `${'The forecast for the week, day by day. '.repeat(200)}\n\nEnd of forecast.`;

/** POST a read route with the user's session (the harness's api() is GET only). */
async function post<T>(url: string, body: unknown): Promise<{ status: number; json: T }> {
  const response = await dashboard.service.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${dashboard.session}` },
    payload: body as object,
  });
  return { status: response.statusCode, json: response.json() as T };
}

/**
 * The last 24 hours (a minute ahead, for records stamped just now; no longer, or free text is
 * refused): both ends from one clock reading, or a millisecond between two makes it 24 h + 1 ms.
 */
const lastDay = (now = Date.now()) => ({
  fromDate: new Date(now - 24 * 3600_000 + 60_000).toISOString(),
  toDate: new Date(now + 60_000).toISOString(),
});

async function searchLogs(body: Record<string, unknown>): Promise<LogRow[]> {
  const answer = await post<{ items: LogRow[] }>(`/api/logs?projectId=${dashboard.projectId}`, {
    ...lastDay(),
    pagination: { page: 1, pageSize: 500 },
    ...body,
  });
  expect(answer.status).toBe(200);
  return answer.json.items;
}

function emit(
  service: string,
  records: Array<{ severity: SeverityNumber; text: string; body: string; attributes?: Attributes; traceId?: string }>,
): Promise<void> {
  const logger = logs.getLogger(service);
  for (const record of records) {
    const context = record.traceId
      ? trace.setSpanContext(ROOT_CONTEXT, { traceId: record.traceId, spanId: '00f067aa0ba902b7', traceFlags: 1 })
      : ROOT_CONTEXT;
    logger.emit({
      severityNumber: record.severity,
      severityText: record.text,
      body: record.body,
      attributes: { 'service.component': service, ...record.attributes },
      context,
    });
  }
  return logs.forceFlush();
}

/** The page's rows as (level, message) pairs, in order. */
async function shownRows(): Promise<Array<{ level: string; body: string }>> {
  const rows = dashboard.page.locator('table[aria-label="Log records"] > tbody > tr[data-list-row]');
  const count = await rows.count();
  const shown: Array<{ level: string; body: string }> = [];
  for (let i = 0; i < count; i += 1) {
    const cells = rows.nth(i).locator('td');
    shown.push({ level: (await cells.nth(1).innerText()).trim(), body: (await cells.nth(3).innerText()).trim() });
  }
  return shown;
}

const expected = (rows: LogRow[]) =>
  rows.map((row) => ({
    level: row.severityText,
    body: row.body.length > 500 ? `${row.body.slice(0, 500)}…` : row.body,
  }));

/** expect.poll with room for a loaded machine (the default gives up after a second). */
const poll = <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: options.timeout ?? 20_000, interval: 100 });

function searchParam(name: string): string | null {
  return new URL(dashboard.page.url()).searchParams.get(name);
}

beforeAll(async () => {
  dashboard = await openSignedInDashboard();
  const headers = { Authorization: `Bearer ${dashboard.projectToken}` };
  const resource = resourceFromAttributes({ 'service.name': 'checkout', 'deployment.environment.name': 'test' });
  logs = new LoggerProvider({
    resource,
    processors: [
      new BatchLogRecordProcessor({
        exporter: new OTLPLogExporter({ url: `${dashboard.base}/api/otel/v1/logs`, headers }),
        scheduledDelayMillis: 3_600_000,
      }),
    ],
  });
  tracing = new NodeTracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${dashboard.base}/api/otel/v1/traces`, headers }), {
        scheduledDelayMillis: 3_600_000,
      }),
    ],
  });

  await emit('checkout', [
    {
      severity: SeverityNumber.INFO,
      text: 'INFO',
      body: 'order placed',
      attributes: { region: 'eu', 'order.id': 'o-1' },
    },
    { severity: SeverityNumber.WARN, text: 'WARN', body: 'payment slow: 2.4 s', attributes: { region: 'us' } },
    {
      severity: SeverityNumber.ERROR,
      text: 'ERROR',
      body: 'payment failed: card declined',
      attributes: { region: 'eu' },
      traceId: TRACE_ID,
    },
    {
      severity: SeverityNumber.DEBUG,
      text: 'DEBUG',
      body: `cart dump ${'x'.repeat(3_000)}`,
      attributes: { region: 'us' },
    },
    { severity: SeverityNumber.INFO, text: 'INFO', body: 'stock checked', attributes: { region: 'eu' } },
  ]);

  const tracer = tracing.getTracer('llm');
  const llm = (name: string, attributes: Attributes, error = false) => {
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, ROOT_CONTEXT);
    if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
    span.end();
  };
  llm('chat gpt-4o', {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.usage.input_tokens': 1200,
    'gen_ai.usage.output_tokens': 300,
    'gen_ai.usage.cache_read.input_tokens': 200,
    'gen_ai.usage.reasoning.output_tokens': 40,
    'gen_ai.usage.input_cost': 0.75,
    'gen_ai.usage.output_cost': 0.5,
    'gen_ai.response.finish_reasons': ['stop'],
    'trace.name': 'support-bot',
    'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'You are a helpful support agent.' }]),
    'gen_ai.input.messages': JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool_call_response', id: 'call_1', response: { temperature: 21, sky: 'clear' } }],
      },
    ]),
    'gen_ai.output.messages': JSON.stringify([
      { role: 'assistant', parts: [{ type: 'text', content: XSS }], finish_reason: 'stop' },
      { role: 'assistant', parts: [{ type: 'text', content: LONG_ANSWER }], finish_reason: 'stop' },
    ]),
  });
  llm('summarize', {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'anthropic',
    'gen_ai.request.model': 'claude-3-5-haiku',
    'gen_ai.usage.input_tokens': 800,
    'gen_ai.usage.output_tokens': 90,
    'gen_ai.usage.cost': 0.25,
    'gen_ai.response.finish_reasons': ['end_turn'],
    'gen_ai.input.messages': JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'Summarize the ticket.' }] },
    ]),
  });
  llm(
    'classify',
    {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 0,
      'gen_ai.usage.cost': 0.01,
    },
    true,
  );
  await tracing.forceFlush();
});

afterEach(() => {
  expect(dashboard.watch.problems).toEqual([]);
});

afterAll(async () => {
  await logs?.shutdown();
  await tracing?.shutdown();
  await dashboard?.close();
});

describe('/logs', () => {
  it('lists what the log route answers, newest first, with severity colour only on warnings and errors', async () => {
    await dashboard.open('/logs');
    const api = await searchLogs({});
    expect(api.length).toBe(5);
    await poll(shownRows).toEqual(expected(api));
    const level = (text: string) =>
      dashboard.page
        .locator('tbody tr[data-list-row] td:nth-child(2) span', { hasText: new RegExp(`^${text}$`) })
        .first();
    expect(await level('ERROR').getAttribute('class')).toContain('text-danger');
    expect(await level('WARN').getAttribute('class')).toContain('text-amber-800');
    expect(await level('INFO').getAttribute('class')).toContain('text-muted-foreground');
    // The long body is folded in its row.
    const folded = await dashboard.page
      .locator('tbody tr[data-list-row]', { hasText: 'cart dump' })
      .locator('td')
      .nth(3)
      .innerText();
    expect(folded.length).toBeLessThan(520);
    // The traced record links to its trace.
    const link = dashboard.page.locator('tbody tr[data-list-row]', { hasText: 'card declined' }).getByRole('link');
    expect(await link.getAttribute('href')).toMatch(/^\/traces\/4bf92f35-77b3-4da6-a3ce-929d0e0e4736\?projectId=/);
    await dashboard.capture('logs');
  });

  it('expands a row, builds an attribute chip from it (URL and rows change) and removes it', async () => {
    await dashboard.open('/logs');
    await dashboard.page.getByText('order placed').click();
    await poll(() => searchParam('open')).not.toBeNull();
    const attributes = dashboard.page.getByRole('region', { name: 'Attributes', exact: true });
    await attributes.getByRole('row', { name: /region/ }).waitFor();
    expect(await dashboard.page.getByRole('region', { name: 'Resource attributes' }).innerText()).toContain(
      'deployment.environment.name',
    );
    await dashboard.capture('logs-expanded');

    await attributes.getByRole('button', { name: 'Filter: region equals eu' }).click();
    await poll(() => JSON.parse(searchParam('filters') ?? '[]')).toEqual([
      { field: 'attributes.region', op: 'eq', value: 'eu' },
    ]);
    const eu = await searchLogs({ filters: [{ field: 'attributes.region', op: 'eq', value: 'eu' }] });
    expect(eu.length).toBe(3);
    await poll(shownRows).toEqual(expected(eu));
    expect(await dashboard.page.getByRole('list', { name: 'Active filters' }).innerText()).toContain('region = eu');

    // Reload: the URL alone gives the same rows.
    await dashboard.page.reload();
    await poll(shownRows).toEqual(expected(eu));

    await dashboard.page
      .getByRole('list', { name: 'Active filters' })
      .getByRole('button', { name: 'Remove filter' })
      .click();
    await poll(() => searchParam('filters')).toBeNull();
    await poll(async () => (await shownRows()).length).toBe(5);

    // Keyboard: j moves to the first row, Enter expands it, Enter again folds it; / focuses search.
    await dashboard.page.locator('h1').click();
    await dashboard.page.keyboard.press('j');
    await dashboard.page.keyboard.press('Enter');
    await poll(() =>
      dashboard.page.locator('tbody tr[data-list-row="0"] button[aria-expanded]').getAttribute('aria-expanded'),
    ).toBe('true');
    await dashboard.page.keyboard.press('Enter');
    await poll(() => searchParam('open')).toBeNull();
    await dashboard.page.keyboard.press('/');
    await poll(() =>
      dashboard.page
        .getByRole('searchbox', { name: 'Search log messages' })
        .evaluate((element) => element === element.ownerDocument.activeElement),
    ).toBe(true);

    // Keys faster than the page renders (key repeat, a quick j j Enter), all in one task: each
    // starts from where the key before left the cursor (row 0, then 1, 2), and Enter opens row 2.
    await dashboard.page.locator('h1').click();
    await dashboard.page.evaluate(() => {
      const page = globalThis as unknown as {
        document: { dispatchEvent(event: unknown): boolean };
        KeyboardEvent: new (type: string, init: { key: string; bubbles: boolean }) => unknown;
      };
      for (const key of ['j', 'j', 'Enter'])
        page.document.dispatchEvent(new page.KeyboardEvent('keydown', { key, bubbles: true }));
    });
    await poll(() =>
      dashboard.page.locator('tbody tr[data-list-row="2"] button[aria-expanded]').getAttribute('aria-expanded'),
    ).toBe('true');
    await dashboard.capture('logs-keyboard-cursor');

    // The cursor's tint under a warning's amber, in both themes (rows of one instant come in any
    // order, so the cursor is moved to the WARN row by its index).
    const warnRow = await dashboard.page
      .locator('tbody tr[data-list-row]', { hasText: 'WARN' })
      .first()
      .getAttribute('data-list-row');
    const steps = Number(warnRow) - 2;
    await dashboard.page.locator('h1').click();
    for (let i = 0; i < Math.abs(steps); i++) await dashboard.page.keyboard.press(steps > 0 ? 'j' : 'k');
    await poll(() => dashboard.page.locator(`tbody tr[data-list-row="${warnRow}"]`).getAttribute('aria-selected')).toBe(
      'true',
    );
    for (const colorScheme of ['light', 'dark'] as const) {
      await dashboard.page.emulateMedia({ colorScheme });
      await poll(() => dashboard.page.evaluate<boolean>("document.documentElement.classList.contains('dark')")).toBe(
        colorScheme === 'dark',
      );
      expect(await seriousAccessibilityViolations(dashboard.page), `WARN under the cursor (${colorScheme})`).toEqual(
        [],
      );
    }
    await dashboard.page.emulateMedia({ colorScheme: 'light' });
  });

  it('filters by minimum severity, service and trace id from the URL', async () => {
    await dashboard.open('/logs');
    await dashboard.page.getByRole('combobox', { name: 'Minimum severity' }).selectOption('13');
    await poll(() => searchParam('severity')).toBe('13');
    await poll(shownRows).toEqual(expected(await searchLogs({ minSeverity: 13 })));
    expect((await shownRows()).map((row) => row.level).sort()).toEqual(['ERROR', 'WARN']);

    await dashboard.open('/logs', { traceId: TRACE_ID });
    await poll(shownRows).toEqual(expected(await searchLogs({ traceId: TRACE_ID })));
    expect((await shownRows()).map((row) => row.body)).toEqual(['payment failed: card declined']);

    await dashboard.open('/logs', { service: 'nowhere' });
    await dashboard.page.getByText('No log records match these filters').waitFor();
  });

  it('shows the 24-hour rule of free-text search and narrows the range in one click', async () => {
    await dashboard.open('/logs', { range: '7d' });
    await dashboard.page.getByRole('table', { name: 'Log records' }).waitFor();
    const refused = await post<{ error: string }>(`/api/logs?projectId=${dashboard.projectId}`, {
      fromDate: new Date(Date.now() - 7 * 24 * 3600_000).toISOString(),
      toDate: new Date().toISOString(),
      search: 'payment',
      pagination: { page: 1, pageSize: 10 },
    });
    expect(refused.status).toBe(422);
    await dashboard.watch.allowing([/HTTP 422: POST .*\/api\/logs/, /status of 422/], async () => {
      const field = dashboard.page.getByRole('searchbox', { name: 'Search log messages' });
      await field.fill('payment');
      await field.press('Enter');
      const alert = dashboard.page.getByRole('alert');
      await alert.getByText(refused.json.error).waitFor();
      await dashboard.capture('logs-422');
    });
    await dashboard.page.getByRole('button', { name: 'Narrow to the last 24 hours' }).click();
    await poll(() => searchParam('range')).toBe('24h');
    expect(searchParam('q')).toBe('payment');
    await poll(shownRows).toEqual(expected(await searchLogs({ search: 'payment' })));
    expect((await shownRows()).length).toBe(2);
  });

  it('live tail: new records appear at the top with the arrival rate; scrolling away pauses it until Resume', async () => {
    await dashboard.open('/logs', { live: 'true' });
    await dashboard.page.getByRole('status').getByText('Live', { exact: true }).waitFor();
    await poll(async () => (await shownRows()).length).toBe(5);
    // The rate covers the last 10 s: on a loaded machine the rows can take longer than that to be
    // read back below, so the highest rate the page showed is recorded as it renders.
    await dashboard.page.evaluate(`
      const shown = document.querySelector('[data-testid="live-rate"]');
      window.highestLiveRate = 0;
      new MutationObserver(() => {
        window.highestLiveRate = Math.max(window.highestLiveRate, Number.parseFloat(shown.textContent) || 0);
      }).observe(shown, { childList: true, characterData: true, subtree: true });
    `);

    await emit(
      'checkout',
      Array.from({ length: 40 }, (_, i) => ({
        severity: SeverityNumber.INFO,
        text: 'INFO',
        body: `tail record ${i}`,
        attributes: { region: 'eu' },
      })),
    );
    await poll(async () => (await shownRows())[0]?.body, { timeout: 15_000 }).toMatch(/^tail record \d+$/);
    await poll(async () => (await shownRows()).length, { timeout: 15_000 }).toBe(45);
    // Each record once, whatever the overlap of the polls.
    const bodies = (await shownRows()).map((row) => row.body);
    expect(new Set(bodies).size).toBe(bodies.length);
    const rate = await dashboard.page.evaluate<number>('window.highestLiveRate');
    expect(rate).toBeGreaterThan(0);
    await dashboard.capture('logs-live');

    // Scrolling down pauses: the status says so and offers Resume.
    await dashboard.page.evaluate("document.querySelector('main').scrollTo({ top: 400 })");
    await dashboard.page.getByText('Paused while you scroll').waitFor();
    await emit('checkout', [
      { severity: SeverityNumber.ERROR, text: 'ERROR', body: 'after the pause', attributes: { region: 'us' } },
    ]);
    await dashboard.page.getByRole('button', { name: 'Resume' }).click();
    await dashboard.page.getByRole('status').getByText('Live', { exact: true }).waitFor();
    await poll(async () => (await shownRows())[0]?.body, { timeout: 15_000 }).toBe('after the pause');
    expect(await dashboard.page.evaluate<number>("document.querySelector('main').scrollTop")).toBe(0);

    await dashboard.page.getByRole('button', { name: 'Stop live tail' }).click();
    await poll(() => searchParam('live')).toBeNull();
  });

  it('pages with "load more" in the window of the first page', async () => {
    await emit(
      'checkout',
      Array.from({ length: 80 }, (_, i) => ({ severity: SeverityNumber.INFO, text: 'INFO', body: `bulk record ${i}` })),
    );
    const all = await searchLogs({});
    expect(all.length).toBe(126);
    await dashboard.open('/logs');
    await poll(async () => (await shownRows()).length).toBe(100);
    await dashboard.page.getByRole('button', { name: 'Load more' }).click();
    await poll(async () => (await shownRows()).length).toBe(126);
    expect(await shownRows()).toEqual(expected(all));
    await dashboard.page.getByText('End of the range').waitFor();
  });

  it('live tail with nothing arriving reports 0 rows/s, though its first poll fills in rows older than the seed', async () => {
    // 150 records of the same second, the newest 100 on screen when the tail starts; its first poll
    // (which looks a few seconds further back) also answers the other 50: shown, but not arrivals.
    await emit(
      'checkout',
      Array.from({ length: 150 }, (_, i) => ({
        severity: SeverityNumber.INFO,
        text: 'INFO',
        body: `quiet record ${i}`,
      })),
    );
    // All stored before the page opens, so none of them arrives while it tails.
    await poll(async () => (await searchLogs({ search: 'quiet record' })).length).toBe(150);
    await dashboard.open('/logs', { live: 'true' });
    await dashboard.page.getByRole('status').getByText('Live', { exact: true }).waitFor();
    await poll(async () => (await shownRows()).length).toBeGreaterThanOrEqual(150);
    const rates: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      rates.push(await dashboard.page.getByTestId('live-rate').innerText());
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(new Set(rates)).toEqual(new Set(['0.0 rows/s']));
    await dashboard.page.getByRole('button', { name: 'Stop live tail' }).click();
    await poll(() => searchParam('live')).toBeNull();
  });
});

describe('/ai-traces', () => {
  const parse = (text: string) => Number(text.replace(/[$,]/g, ''));

  it('lists the calls by cost with the range totals and the per-model breakdown of the API', async () => {
    const list = (
      await post<AiList>(`/api/ai-traces?projectId=${dashboard.projectId}`, {
        ...lastDay(),
        pagination: { page: 1, pageSize: 50 },
      })
    ).json;
    expect(list.total).toBe(3);
    await dashboard.open('/ai-traces');
    const table = dashboard.page.getByRole('table', { name: 'AI calls' });
    await table.waitFor();
    const names = await table.locator('tbody tr td:first-child').allInnerTexts();
    expect(names).toEqual(list.items.map((item) => item.name));
    expect(names).toEqual(['support-bot', 'summarize', 'classify']);
    const costs = await table.locator('tbody tr td:nth-child(5)').allInnerTexts();
    expect(costs.map(parse)).toEqual(list.items.map((item) => item.totalCost));
    const tokens = await table.locator('tbody tr td:nth-child(4)').allInnerTexts();
    expect(tokens.map((text) => text.split('/').map(parse))).toEqual(
      list.items.map((item) => [item.inputTokens, item.outputTokens]),
    );
    // Status and finish reason each under its own name, as on the call's page (before: the
    // "Status" column showed the finish reason).
    const headers = await table.locator('thead th').allInnerTexts();
    const column = (name: string) => headers.findIndex((header) => header.trim() === name) + 1;
    const cells = (name: string) => table.locator(`tbody tr td:nth-child(${column(name)})`).allInnerTexts();
    expect(await cells('Status')).toEqual(['OK', 'OK', 'Error']);
    expect(await cells('Finish reason')).toEqual(list.items.map((item) => item.finishReason || '—'));
    expect(list.items.map((item) => item.finishReason)).toEqual(['stop', 'end_turn', '']);

    const figure = async (label: string) =>
      parse(
        await dashboard.page
          .locator('dl[aria-label="Totals of the range"] > div', { hasText: label })
          .locator('dd')
          .innerText(),
      );
    expect(await figure('Calls')).toBe(list.total);
    expect(await figure('Input tokens')).toBe(list.perModel.reduce((sum, m) => sum + m.inputTokens, 0));
    expect(await figure('Output tokens')).toBe(list.perModel.reduce((sum, m) => sum + m.outputTokens, 0));
    expect(await figure('Cost')).toBeCloseTo(
      list.perModel.reduce((sum, m) => sum + m.totalCost, 0),
      2,
    );
    await dashboard.capture('ai-traces');

    // Filter by model from the menu: URL and rows follow.
    await dashboard.page.getByRole('combobox', { name: 'Model' }).selectOption('claude-3-5-haiku');
    await poll(() => searchParam('model')).toBe('claude-3-5-haiku');
    await poll(() => table.locator('tbody tr td:first-child').allInnerTexts()).toEqual(['summarize']);
    await dashboard.page.getByRole('combobox', { name: 'Provider' }).selectOption('anthropic');
    await poll(() => searchParam('provider')).toBe('anthropic');
    await dashboard.page.getByRole('combobox', { name: 'Model' }).selectOption('');
    await poll(() => table.locator('tbody tr td:first-child').allInnerTexts()).toEqual(['summarize']);
  });

  it('keeps a search as typed: ?q=12.50 and ?q=1e3 are those texts, in the box and in the request (before: 12.5 and 1000)', async () => {
    for (const q of ['12.50', '1e3']) {
      const asked = dashboard.page.waitForRequest(
        (request) => request.url().includes('/api/ai-traces?') && request.method() === 'POST',
      );
      await dashboard.open('/ai-traces', { q });
      expect((await asked).postDataJSON()).toMatchObject({ search: q });
      await poll(() => dashboard.page.getByLabel('Search AI traces by name').inputValue()).toBe(q);
      // Typed into the box, it goes to the URL as typed too.
      await dashboard.page.getByLabel('Search AI traces by name').fill('0012');
      await dashboard.page.getByLabel('Search AI traces by name').press('Enter');
      await poll(() => searchParam('q')).toBe('0012');
      await dashboard.page.reload();
      await poll(() => dashboard.page.getByLabel('Search AI traces by name').inputValue()).toBe('0012');
    }
  });

  it('shows one call: tokens, costs, finish reason, tool calls paired with results, links, and a conversation rendered safely', async () => {
    const list = (
      await post<AiList>(`/api/ai-traces?projectId=${dashboard.projectId}`, {
        ...lastDay(),
        pagination: { page: 1, pageSize: 50 },
      })
    ).json;
    const bot = list.items.find((item) => item.name === 'support-bot')!;
    const detail = await dashboard.api<AiItem & { conversation: unknown }>(
      `/api/ai-traces/${bot.id}?projectId=${dashboard.projectId}`,
    );
    await dashboard.open('/ai-traces');
    await dashboard.page.getByRole('link', { name: 'support-bot' }).click();
    await poll(() => new URL(dashboard.page.url()).pathname).toBe(`/ai-traces/${bot.id}`);

    const usage = dashboard.page.getByRole('group', { name: 'Tokens and cost' });
    await usage.waitFor();
    await dashboard.capture('ai-trace');
    const figure = async (label: string) => parse(await usage.locator(`dd[data-figure="${label}"]`).innerText());
    expect(await figure('Input tokens')).toBe(detail.inputTokens);
    expect(await figure('Output tokens')).toBe(detail.outputTokens);
    expect(await figure('Cached input tokens')).toBe(detail.cachedTokens);
    expect(await figure('Reasoning tokens')).toBe(detail.reasoningTokens);
    expect(await figure('Total cost')).toBe(detail.totalCost);
    expect([detail.inputTokens, detail.cachedTokens, detail.reasoningTokens, detail.totalCost]).toEqual([
      1200, 200, 40, 1.25,
    ]);
    const details = await dashboard.page.locator('dl[aria-label="Call details"]').innerText();
    expect(details).toContain(detail.model);
    expect(details).toContain(detail.finishReason);
    expect(details).toContain('openai');
    const waterfall = dashboard.page.locator('dl[aria-label="Call details"]').getByRole('link', { name: bot.id });
    expect(await waterfall.getAttribute('href')).toMatch(new RegExp(`^/traces/${bot.id}\\?projectId=`));

    const traceLogs = dashboard.page.getByRole('link', { name: 'Logs of this trace' });
    expect(new URL((await traceLogs.getAttribute('href'))!, dashboard.base).searchParams.get('traceId')).toBe(
      detail.distributedTraceId,
    );

    // Role-labelled messages; the tool call shows its result under it, not again on its own.
    const messages = dashboard.page.getByRole('list', { name: 'Messages' });
    const items = messages.locator(':scope > li');
    const roles = [];
    for (let i = 0; i < (await items.count()); i += 1) roles.push(await items.nth(i).getAttribute('data-role'));
    expect(roles).toEqual(['system', 'user', 'assistant', 'assistant', 'assistant']);
    const call = messages.locator('[data-tool-call="get_weather"]');
    expect(await call.innerText()).toContain('"city": "Paris"');
    expect(await call.locator('[data-tool-result]').innerText()).toContain('"temperature": 21');

    // Markdown renders; the HTML in it stays text and runs nothing.
    const answer = messages.locator(':scope > li').nth(3);
    expect(await answer.locator('strong').innerText()).toBe('the answer');
    expect(await answer.locator('pre code').innerText()).toContain('const total = 42;');
    expect(await answer.innerText()).toContain('<script>window.__xss = 1</script>');
    expect(await answer.innerText()).toContain('<img src="x" onerror="window.__xss = 2">');
    expect(await messages.locator('script, img').count()).toBe(0);
    expect(await dashboard.page.evaluate('typeof window.__xss')).toBe('undefined');
    const docs = answer.getByRole('link', { name: 'docs link' });
    expect(await docs.getAttribute('href')).toBe('https://example.com/docs');
    expect(await docs.getAttribute('rel')).toBe('noopener noreferrer');
    await answer.getByText('bad link').waitFor();
    expect(await answer.locator('a', { hasText: 'bad link' }).count()).toBe(0);

    // Long content is folded until "Show more".
    const long = messages.locator(':scope > li').nth(4);
    expect((await long.locator('[data-folded]').boundingBox())!.height).toBeLessThan(300);
    const foldedHeight = (await long.boundingBox())!.height;
    await long.getByRole('button', { name: /Show more/ }).click();
    await long.getByRole('button', { name: 'Show less' }).waitFor();
    expect(await long.locator('[data-folded]').count()).toBe(0);
    expect((await long.boundingBox())!.height).toBeGreaterThan(foldedHeight + 100);
    await dashboard.capture('ai-trace-conversation');
  });

  it('answers an unknown call with the not-found state and the way back to the list', async () => {
    await dashboard.watch.allowing([/HTTP 404: GET .*\/api\/ai-traces\//, /status of 404/], async () => {
      await dashboard.open('/ai-traces/00000000-0000-4000-8000-000000000000');
      const notFound = dashboard.page.getByTestId('not-found');
      await notFound.getByRole('heading', { name: 'AI trace not found' }).waitFor();
      await notFound.getByText('00000000-0000-4000-8000-000000000000').waitFor();
      expect(await notFound.getByRole('link').getAttribute('href')).toMatch(/^\/ai-traces\?/);
    });
  });
});
