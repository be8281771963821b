/**
 * The demo data of DASHBOARD.md §4: a small shop ("shop" and "payments" services) as a stream of
 * batches for the real ingest routes. `demoBatch` builds one batch covering the `spanMs` before
 * `now` (pure, seeded, so tests can reuse it); `sendDemoBatch` posts it with a project token:
 *
 * - native report (POST /api/report): a shopper's browser session with a recording, endpoint calls with a log-normal latency spread per endpoint
 *   and failures (checkout fails ~5%), spans (db, cache, the payments call), background tasks,
 *   exceptions from a few fixed stack traces (so they group and repeat), a message, and metrics;
 *   the payments service's calls share the checkout's distributed trace id;
 * - OTLP (POST /api/otel/v1/...): logs of each call carrying its trace id, metrics of each kind
 *   (gauge, counter, up-down counter, histogram, exponential histogram, summary), and AI calls (gen_ai spans with model, tokens, cost and conversation).
 */
import { randomUUID } from 'node:crypto';

const MS = 1_000_000;

interface EndpointShape {
  endpoint: string;
  weight: number;
  /** Median duration and the spread (sigma of the log-normal). */
  medianMs: number;
  sigma: number;
  failureRate: number;
}

const ENDPOINTS: EndpointShape[] = [
  { endpoint: 'GET /api/products', weight: 30, medianMs: 24, sigma: 0.5, failureRate: 0.002 },
  { endpoint: 'GET /api/products/:id', weight: 25, medianMs: 14, sigma: 0.4, failureRate: 0.004 },
  { endpoint: 'GET /api/search', weight: 12, medianMs: 80, sigma: 0.8, failureRate: 0.03 },
  { endpoint: 'POST /api/cart/items', weight: 12, medianMs: 35, sigma: 0.5, failureRate: 0.01 },
  { endpoint: 'POST /api/checkout', weight: 6, medianMs: 260, sigma: 0.6, failureRate: 0.08 },
  { endpoint: 'GET /api/orders/:id', weight: 8, medianMs: 30, sigma: 0.5, failureRate: 0.04 },
  { endpoint: 'POST /api/login', weight: 7, medianMs: 120, sigma: 0.3, failureRate: 0.03 },
];

const TASKS = [
  { endpoint: 'send-order-confirmation', medianMs: 180, sigma: 0.4, failureRate: 0.03 },
  { endpoint: 'sync-inventory', medianMs: 1800, sigma: 0.3, failureRate: 0.05 },
  { endpoint: 'rebuild-search-index', medianMs: 4200, sigma: 0.2, failureRate: 0 },
];

/**
 * Fixed stack traces: the same few problems recur, so they group into issues with counts. The
 * database timeout is raised in the shared query helper, so any endpoint or task may hit it.
 */
const EXCEPTIONS = [
  "TypeError: Cannot read properties of undefined (reading 'price')\n    at lineTotal (/srv/shop/src/cart.js:42:31)\n    at Array.map (<anonymous>)\n    at cartTotal (/srv/shop/src/cart.js:57:22)\n    at checkout (/srv/shop/src/routes/checkout.js:18:19)",
  'PaymentDeclinedError: card_declined\n    at charge (/srv/shop/src/payments/client.js:88:11)\n    at async checkout (/srv/shop/src/routes/checkout.js:31:5)',
  'Error: connect ETIMEDOUT 10.0.3.12:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)\n    at async Pool.query (/srv/shop/node_modules/pg-pool/index.js:45:11)\n    at async query (/srv/shop/src/db.js:12:17)',
  'SmtpError: 421 4.7.0 Try again later\n    at SMTPConnection._actionRCPT (/srv/shop/node_modules/nodemailer/lib/smtp-connection/index.js:1680:24)\n    at async sendOrderConfirmation (/srv/shop/src/jobs/mail.js:22:3)',
];

const AI_PROMPTS = [
  [
    'Which running shoes do you have under 100 euros?',
    'We have three: Trail Lite (89 €), Road Runner 2 (95 €) and Daily Trainer (79 €).',
  ],
  ['Where is my order 10423?', 'Order 10423 left our warehouse yesterday; it should arrive tomorrow.'],
  ['Can I return a jacket after 30 days?', 'Returns are accepted within 30 days; after that we offer store credit.'],
];

export interface DemoBatch {
  /** Payloads for POST /api/report, one per service. */
  reports: unknown[];
  otlp: { traces: unknown; logs: unknown; metrics: unknown };
  /** What the batch holds, for printing. */
  summary: {
    calls: number;
    failures: number;
    tasks: number;
    exceptions: number;
    logs: number;
    metrics: number;
    aiCalls: number;
    sessions: number;
  };
}

/** A small seeded generator (mulberry32), so a batch is reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function demoBatch(
  options: { now?: number; spanMs?: number; calls?: number; random?: () => number; session?: boolean } = {},
): DemoBatch {
  const now = options.now ?? Date.now();
  const spanMs = options.spanMs ?? 5_000;
  const random = options.random ?? Math.random;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const durationMs = (median: number, sigma: number) => median * Math.exp(sigma * normal());
  const iso = (ms: number) => new Date(ms).toISOString();
  const nanos = (ms: number) => (BigInt(Math.round(ms)) * 1_000_000n).toString();
  const hex = (uuid: string) => uuid.replaceAll('-', '');
  const attrValue = (value: string | number | string[]): unknown =>
    Array.isArray(value)
      ? { arrayValue: { values: value.map((v) => ({ stringValue: v })) } }
      : typeof value === 'string'
        ? { stringValue: value }
        : Number.isInteger(value)
          ? { intValue: String(value) }
          : { doubleValue: value };
  const attrs = (values: Record<string, string | number | string[]>) =>
    Object.entries(values).map(([key, value]) => ({ key, value: attrValue(value) }));

  const shop = { traces: [] as unknown[], stackTraces: [] as unknown[], metrics: [] as unknown[] };
  const payments = { traces: [] as unknown[], stackTraces: [] as unknown[], metrics: [] as unknown[] };
  const logRecords: unknown[] = [];
  const summary = { calls: 0, failures: 0, tasks: 0, exceptions: 0, logs: 0, metrics: 0, aiCalls: 0, sessions: 0 };
  const log = (
    atMs: number,
    traceId: string,
    severityNumber: number,
    body: string,
    extra: Record<string, string | number> = {},
  ) => {
    logRecords.push({
      timeUnixNano: nanos(atMs),
      severityNumber,
      severityText: severityNumber >= 17 ? 'ERROR' : severityNumber >= 13 ? 'WARN' : 'INFO',
      body: { stringValue: body },
      traceId: hex(traceId),
      attributes: attrs(extra),
    });
    summary.logs++;
  };
  const exception = (target: typeof shop, traceId: string, atMs: number, stackTrace: string, isTask = false) => {
    target.stackTraces.push({ traceId, stackTrace, recordedAt: iso(atMs), isMessage: false, isTask });
    summary.exceptions++;
  };

  const totalWeight = ENDPOINTS.reduce((sum, e) => sum + e.weight, 0);
  const calls = options.calls ?? 60;
  for (let i = 0; i < calls; i++) {
    let roll = random() * totalWeight;
    const shape = ENDPOINTS.find((e) => (roll -= e.weight) < 0) ?? ENDPOINTS[0]!;
    const id = randomUUID();
    const startMs = now - spanMs + random() * spanMs;
    const took = durationMs(shape.medianMs, shape.sigma);
    const failed = random() < shape.failureRate;
    const statusCode = failed
      ? shape.endpoint === 'POST /api/checkout'
        ? 502
        : 500
      : shape.endpoint === 'POST /api/login' && random() < 0.1
        ? 401
        : 200;
    const spans: Array<{
      id: string;
      name: string;
      startTime: string;
      duration: number;
      attributes: Record<string, string>;
    }> = [
      {
        id: randomUUID(),
        name: 'pg.query SELECT',
        startTime: iso(startMs + took * 0.1),
        duration: Math.round(took * 0.4 * MS),
        attributes: { 'db.system': 'postgresql' },
      },
    ];
    if (shape.endpoint.startsWith('GET /api/products'))
      spans.push({
        id: randomUUID(),
        name: 'redis.get',
        startTime: iso(startMs + 1),
        duration: Math.round(0.6 * MS),
        attributes: { 'db.system': 'redis' },
      });
    if (shape.endpoint === 'POST /api/checkout') {
      const chargeMs = took * 0.5;
      spans.push({
        id: randomUUID(),
        name: 'POST payments/charge',
        startTime: iso(startMs + took * 0.45),
        duration: Math.round(chargeMs * MS),
        attributes: { 'http.method': 'POST' },
      });
      // The payments service's side of the same distributed trace.
      payments.traces.push({
        id: randomUUID(),
        endpoint: 'POST /charge',
        duration: Math.round(chargeMs * 0.9 * MS),
        recordedAt: iso(startMs + took * 0.46),
        statusCode: failed ? 402 : 200,
        bodySize: 120,
        clientIP: '10.0.2.7',
        distributedTraceId: id,
      });
    }
    shop.traces.push({
      id,
      endpoint: shape.endpoint,
      duration: Math.round(took * MS),
      recordedAt: iso(startMs),
      statusCode,
      bodySize: 200 + Math.floor(random() * 4000),
      clientIP: `203.0.113.${1 + Math.floor(random() * 250)}`,
      spans,
      attributes: { 'http.route': shape.endpoint.split(' ')[1]! },
    });
    summary.calls++;
    log(startMs, id, 9, `${shape.endpoint} ${statusCode} in ${took.toFixed(1)} ms`, { 'http.status_code': statusCode });
    if (failed) {
      summary.failures++;
      const stack = shape.endpoint === 'POST /api/checkout' ? pick(EXCEPTIONS.slice(0, 2)) : EXCEPTIONS[2]!;
      exception(shop, id, startMs + took, stack);
      log(startMs + took, id, 17, stack.split('\n')[0]!);
    } else if (took > shape.medianMs * 3) {
      log(startMs + took, id, 13, `slow request: ${shape.endpoint} took ${took.toFixed(0)} ms`);
    }
  }

  for (const task of TASKS) {
    if (task.endpoint !== 'send-order-confirmation' && random() > 0.4) continue;
    const id = randomUUID();
    const startMs = now - spanMs + random() * spanMs;
    const took = durationMs(task.medianMs, task.sigma);
    shop.traces.push({
      id,
      endpoint: task.endpoint,
      duration: Math.round(took * MS),
      recordedAt: iso(startMs),
      statusCode: 0,
      bodySize: 0,
      clientIP: '',
      isTask: true,
    });
    summary.tasks++;
    log(startMs, id, 9, `task ${task.endpoint} started`);
    if (random() < task.failureRate) {
      exception(
        shop,
        id,
        startMs + took,
        task.endpoint === 'send-order-confirmation' ? EXCEPTIONS[3]! : EXCEPTIONS[2]!,
        true,
      );
      log(startMs + took, id, 17, `task ${task.endpoint} failed`);
    }
  }
  if (random() < 0.3)
    shop.stackTraces.push({
      stackTrace: 'Payment provider answered slowly (over 2 s)',
      recordedAt: iso(now - random() * spanMs),
      isMessage: true,
    });

  const gauges: Array<[string, number, Record<string, string>]> = [
    ['process.cpu.percent', 20 + random() * 40, { host: 'shop-1' }],
    ['process.memory.rss_mb', 310 + random() * 60, { host: 'shop-1' }],
    ['queue.depth', Math.floor(random() * 25), { queue: 'mail' }],
    ['orders.placed', Math.floor(random() * 6), { channel: pick(['web', 'app']) }],
  ];
  for (const [name, value, tags] of gauges) shop.metrics.push({ name, value, recordedAt: iso(now), tags });
  payments.metrics.push({
    name: 'payments.pending',
    value: Math.floor(random() * 8),
    recordedAt: iso(now),
    tags: { provider: 'stripe' },
  });
  summary.metrics += gauges.length + 1;

  const aiSpans: unknown[] = [];
  for (let i = 0; i < (random() < 0.5 ? 1 : 2); i++) {
    const [question, answer] = pick(AI_PROMPTS);
    const model = pick(['gpt-4o-mini', 'claude-3-5-haiku']);
    const inputTokens = 300 + Math.floor(random() * 900);
    const outputTokens = 40 + Math.floor(random() * 200);
    const startMs = now - spanMs + random() * spanMs;
    aiSpans.push({
      traceId: hex(randomUUID()),
      spanId: hex(randomUUID()).slice(0, 16),
      name: `chat ${model}`,
      kind: 3,
      startTimeUnixNano: nanos(startMs),
      endTimeUnixNano: nanos(startMs + durationMs(900, 0.4)),
      attributes: attrs({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': model.startsWith('gpt') ? 'openai' : 'anthropic',
        'gen_ai.request.model': model,
        'gen_ai.usage.input_tokens': inputTokens,
        'gen_ai.usage.output_tokens': outputTokens,
        'gen_ai.usage.cost': Number(((inputTokens * 0.15 + outputTokens * 0.6) / 1_000_000).toFixed(6)),
        'gen_ai.response.finish_reasons': ['stop'],
        'gen_ai.input.messages': JSON.stringify([
          { role: 'system', parts: [{ type: 'text', content: 'You are the shop assistant.' }] },
          { role: 'user', parts: [{ type: 'text', content: question }] },
        ]),
        'gen_ai.output.messages': JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' },
        ]),
      }),
    });
    summary.aiCalls++;
  }

  const resource = (service: string) => ({
    attributes: attrs({ 'service.name': service, 'deployment.environment': 'demo' }),
  });
  const latencies = shop.traces.map((t) => (t as { duration: number }).duration / MS);
  const bounds = [10, 25, 50, 100, 250, 500, 1000];
  const counts = [...bounds, Infinity].map(
    (bound, b) => latencies.filter((l) => l <= bound && (b === 0 || l > bounds[b - 1]!)).length,
  );
  const start = nanos(now - spanMs);
  const end = nanos(now);
  const otlpMetrics = {
    resourceMetrics: [
      {
        resource: resource('shop'),
        scopeMetrics: [
          {
            metrics: [
              {
                name: 'http.server.active_requests',
                unit: '{request}',
                gauge: { dataPoints: [{ timeUnixNano: end, asInt: String(Math.floor(random() * 30)) }] },
              },
              {
                name: 'http.server.requests',
                unit: '{request}',
                sum: {
                  aggregationTemporality: 1,
                  isMonotonic: true,
                  dataPoints: [{ startTimeUnixNano: start, timeUnixNano: end, asInt: String(summary.calls) }],
                },
              },
              {
                name: 'db.client.connections.usage',
                unit: '{connection}',
                sum: {
                  aggregationTemporality: 2,
                  isMonotonic: false,
                  dataPoints: [
                    { startTimeUnixNano: start, timeUnixNano: end, asInt: String(3 + Math.floor(random() * 8)) },
                  ],
                },
              },
              {
                name: 'payment.amount',
                unit: 'EUR',
                exponentialHistogram: {
                  aggregationTemporality: 1,
                  dataPoints: [
                    {
                      startTimeUnixNano: start,
                      timeUnixNano: end,
                      count: '6',
                      sum: 648.5,
                      scale: 0,
                      zeroCount: '0',
                      positive: { offset: 5, bucketCounts: ['1', '3', '2'] },
                    },
                  ],
                },
              },
              {
                name: 'checkout.duration',
                unit: 'ms',
                summary: {
                  dataPoints: [
                    {
                      startTimeUnixNano: start,
                      timeUnixNano: end,
                      count: '12',
                      sum: 3900,
                      quantileValues: [
                        { quantile: 0.5, value: 260 + random() * 40 },
                        { quantile: 0.95, value: 610 + random() * 120 },
                        { quantile: 0.99, value: 900 + random() * 300 },
                      ],
                    },
                  ],
                },
              },
              {
                name: 'http.server.request.duration',
                unit: 'ms',
                histogram: {
                  aggregationTemporality: 1,
                  dataPoints: [
                    {
                      startTimeUnixNano: start,
                      timeUnixNano: end,
                      count: String(latencies.length),
                      sum: latencies.reduce((a, b) => a + b, 0),
                      explicitBounds: bounds,
                      bucketCounts: counts.map(String),
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    ],
  };
  summary.metrics += 6;

  const frame = (records: object) => ({ collectionFrames: [records] });
  // Server names as the OTLP data's service.name (which becomes its serverName), so grouping a
  // metric by serverName and an endpoint's Server column name the same services.
  const reports: unknown[] = [
    { appVersion: '2.4.1', serverName: 'shop', ...frame(shop) },
    { appVersion: '1.9.0', serverName: 'payments', ...frame(payments) },
  ];
  if (options.session ?? true) {
    reports.push({ appVersion: '2.4.1', serverName: 'browser', ...frame(browserSession(now - spanMs, random)) });
    summary.sessions++;
    summary.exceptions++;
  }
  return {
    reports,
    otlp: {
      traces: { resourceSpans: [{ resource: resource('shop-assistant'), scopeSpans: [{ spans: aiSpans }] }] },
      logs: { resourceLogs: [{ resource: resource('shop'), scopeLogs: [{ logRecords }] }] },
      metrics: otlpMetrics,
    },
    summary,
  };
}

/**
 * A shopper's browser session: the session row, a recording segment (rrweb events: meta, a full
 * snapshot of a small shop page, mouse moves, a click on "Checkout"), its console logs and
 * actions, and an exception raised in the page during the session.
 */
function browserSession(startMs: number, random: () => number) {
  const id = randomUUID();
  const at = (offsetMs: number) => new Date(startMs + offsetMs).toISOString();
  let nextId = 1;
  const el = (tagName: string, attributes: Record<string, string>, childNodes: unknown[] = []) => ({
    type: 2,
    tagName,
    attributes,
    childNodes,
    id: nextId++,
  });
  const text = (textContent: string) => ({ type: 3, textContent, id: nextId++ });
  const document = { type: 0, id: nextId++, childNodes: [] as unknown[] };
  const doctype = { type: 1, name: 'html', publicId: '', systemId: '', id: nextId++ };
  const style = el('style', {}, [
    text(
      'body{font-family:system-ui,sans-serif;margin:0;color:#111}header{background:#1e293b;color:#fff;padding:14px 24px;font-weight:600}main{display:flex;gap:16px;padding:24px}.p{border:1px solid #ddd;border-radius:8px;padding:16px;width:180px}button{margin:0 24px;padding:10px 18px;background:#4f46e5;color:#fff;border:0;border-radius:6px}',
    ),
  ]);
  const products = ['Trail Lite · 89 €', 'Road Runner 2 · 95 €', 'Daily Trainer · 79 €'].map((name) =>
    el('div', { class: 'p' }, [text(name)]),
  );
  const checkout = el('button', { id: 'checkout' }, [text('Checkout')]);
  const body = el('body', {}, [el('header', {}, [text('Demo shop')]), el('main', {}, products), checkout]);
  document.childNodes = [doctype, el('html', { lang: 'en' }, [el('head', {}, [style]), body])];
  const moves = Array.from({ length: 12 }, (_, i) => ({
    type: 3,
    data: {
      source: 1,
      positions: [{ x: 100 + i * 40 + Math.floor(random() * 20), y: 120 + i * 12, id: body.id, timeOffset: 0 }],
    },
    timestamp: startMs + 400 + i * 150,
  }));
  const events = [
    { type: 4, data: { href: 'https://shop.example/products', width: 1280, height: 720 }, timestamp: startMs },
    { type: 2, data: { node: document, initialOffset: { left: 0, top: 0 } }, timestamp: startMs + 10 },
    ...moves,
    { type: 3, data: { source: 2, type: 2, id: checkout.id, x: 70, y: 300 }, timestamp: startMs + 2400 },
  ];
  const exceptionAt = at(2450);
  return {
    sessions: [
      {
        id,
        startedAt: at(0),
        endedAt: at(3000),
        attributes: {
          url: 'https://shop.example/products',
          path: '/products',
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
          language: 'en-GB',
          viewport: '1280x720',
          timezone: 'Europe/Berlin',
        },
      },
    ],
    sessionRecordings: [
      {
        sessionId: id,
        segmentIndex: 0,
        events,
        logs: [
          {
            level: 'error',
            message: "TypeError: Cannot read properties of null (reading 'focus')",
            timestamp: exceptionAt,
          },
        ],
        actions: [
          { type: 'navigation', url: 'https://shop.example/products', timestamp: at(0) },
          { type: 'network', method: 'GET', url: '/api/products', status: 200, durationMs: 31, timestamp: at(120) },
          { type: 'click', target: 'button#checkout', timestamp: at(2400) },
        ],
        startedAt: at(0),
        endedAt: at(3000),
      },
    ],
    stackTraces: [
      {
        stackTrace:
          "TypeError: Cannot read properties of null (reading 'focus')\n    at openCart (https://shop.example/assets/app-3f9a.js:1:48211)\n    at HTMLButtonElement.onClick (https://shop.example/assets/app-3f9a.js:1:50993)",
        recordedAt: exceptionAt,
        isMessage: false,
        sessionId: id,
      },
    ],
  };
}

/** Posts one batch with a project token to a running service; throws with the answer on any refusal. */
export async function sendDemoBatch(
  baseUrl: string,
  projectToken: string,
  batch: DemoBatch,
  post: typeof fetch = fetch,
): Promise<void> {
  const send = async (path: string, body: unknown) => {
    const response = await post(new URL(path, baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${projectToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  };
  for (const report of batch.reports) await send('/api/report', report);
  await send('/api/otel/v1/traces', batch.otlp.traces);
  await send('/api/otel/v1/logs', batch.otlp.logs);
  await send('/api/otel/v1/metrics', batch.otlp.metrics);
}
