/**
 * The real OpenTelemetry JS SDK (2.x line) exporting to a running Sightline over loopback HTTP,
 * read back from storage (chDB) and the object store.
 *
 * Two instrumented test services:
 * - "shop-web": a node:http server traced by @opentelemetry/instrumentation-http (routes set
 *   `http.route` on the active span, as web frameworks do), exporting traces through the OTLP
 *   protobuf exporter with gzip;
 * - "inventory-service": a second node:http server on its own tracer provider, which continues
 *   the W3C `traceparent` it receives (the outgoing call from shop-web is made by the instrumented
 *   http client) and exports through the OTLP/JSON exporter.
 * Metrics go through a protobuf (delta) and a JSON (cumulative) exporter, logs through both.
 *
 * No sleeps: exports happen in forceFlush(), which resolves once the service answered, and an
 * answered export is stored (the 200 is durable).
 */
import { createRequire } from 'node:module';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import {
  context,
  diag,
  DiagLogLevel,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { JsonMetricsSerializer, ProtobufMetricsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import {
  AggregationTemporality,
  AggregationType,
  DataPointType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../support/loopback.js';
import { listeningTestService, registerUser, type ListeningTestService } from '../../support/service.js';

// ---- ids as the store keeps them --------------------------------------------------------------

const traceUuid = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
const spanUuid = (hex: string) => `00000000-0000-0000-${hex.slice(0, 4)}-${hex.slice(4)}`;

// ---- the diagnostics of the SDK: export failures and partial-success warnings land here -------

const diagnostics: { level: 'error' | 'warn'; message: string }[] = [];
diag.setLogger(
  {
    error: (...args: unknown[]) => diagnostics.push({ level: 'error', message: args.map(String).join(' ') }),
    warn: (...args: unknown[]) => diagnostics.push({ level: 'warn', message: args.map(String).join(' ') }),
    info: () => {},
    debug: () => {},
    verbose: () => {},
  },
  DiagLogLevel.WARN,
);

/** Ended spans of the shop-web provider, so the test can wait for a server span to end (it ends on the response's 'close'). */
class EndedSpans implements SpanProcessor {
  readonly spans: ReadableSpan[] = [];
  private waiters: Array<() => void> = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    this.spans.push(span);
    for (const wake of this.waiters.splice(0)) wake();
  }
  async until(predicate: (spans: readonly ReadableSpan[]) => boolean): Promise<void> {
    while (!predicate(this.spans)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

/** A metric exporter that keeps what it exported and the result the real exporter reported. */
class RecordingExporter implements PushMetricExporter {
  readonly exported: ResourceMetrics[] = [];
  readonly results: number[] = [];
  constructor(private readonly inner: PushMetricExporter) {}
  export(metrics: ResourceMetrics, done: Parameters<PushMetricExporter['export']>[1]): void {
    this.exported.push(metrics);
    this.inner.export(metrics, (result) => {
      this.results.push(result.code);
      done(result);
    });
  }
  selectAggregationTemporality = (
    kind: Parameters<NonNullable<PushMetricExporter['selectAggregationTemporality']>>[0],
  ) => this.inner.selectAggregationTemporality!(kind);
  forceFlush = () => this.inner.forceFlush();
  shutdown = () => this.inner.shutdown();
}

let service: ListeningTestService;
let sightline: string;
let projectId: string;
let projectToken: string;
let shopServer: Server;
let inventoryServer: Server;
let shopUrl: string;
let instrumentation: HttpInstrumentation;
let shopTracing: NodeTracerProvider;
let inventoryTracing: NodeTracerProvider;
const endedShopSpans = new EndedSpans();

/** What the scenarios recorded, for the assertions. */
const seen = {
  serverSpans: new Map<string, { traceId: string; spanId: string }>(),
  ai: { spanId: '', toolSpanId: '', siblingSpanId: '' },
  consumer: { traceId: '', spanId: '', producerSpanId: '' },
  rootConsumer: { traceId: '' },
  command: { traceId: '' },
  dropped: { traceId: '' },
  inventory: { spanId: '', clientSpanId: '', dbSpanId: '' },
  split: { traceId: '', handlerSpanId: '' },
  requestLog: { traceId: '', spanId: '' },
};

const query = <T = Record<string, unknown>>(sql: string, params: Record<string, string> = {}) =>
  service.services.telemetry.query<T>(sql, { project: projectId, ...params });

const otlpHeaders = () => ({ Authorization: `Bearer ${projectToken}` });
const resource = (serviceName: string) =>
  resourceFromAttributes({
    'service.name': serviceName,
    'service.version': '2.3.4',
    'deployment.environment.name': 'test',
  });

/** Messages "published" by shop-web and consumed later, with their trace context. */
const queue: Array<{ body: string; headers: Record<string, string> }> = [];

/** Lets the split-batch request finish only when the test says so. */
let releaseSplitRequest: () => void = () => {};

async function shopHandler(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://shop');
  const route = (template: string) => trace.getActiveSpan()?.setAttribute('http.route', template);
  const tracer = shopTracing.getTracer('shop-web');
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  let match: RegExpExecArray | null;
  if ((match = /^\/users\/([^/]+)$/.exec(url.pathname))) {
    route('/users/:id');
    const id = match[1]!;
    if (id === 'boom') {
      // The exception is recorded on a child span; the issue belongs to the endpoint that owns it.
      await tracer.startActiveSpan('users.load', (span) => {
        span.recordException(new Error('user store unavailable'));
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      return send(500, { error: 'internal' });
    }
    if (id === '404') return send(404, { error: 'no such user' });
    return send(200, { id });
  }
  if (url.pathname.startsWith('/api/')) {
    route('/api/*');
    return send(200, { ok: true });
  }
  if (url.pathname === '/chat' && request.method === 'POST') {
    route('/chat');
    await tracer.startActiveSpan(
      'chat gpt-4o',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.response.model': 'gpt-4o-2024-08-06',
          'gen_ai.usage.input_tokens': 1200,
          'gen_ai.usage.output_tokens': 300,
          'gen_ai.usage.cache_read.input_tokens': 200,
          'gen_ai.response.finish_reasons': ['tool_calls'],
          'gen_ai.conversation.id': 'conv-42',
          'trace.name': 'support-bot',
          'gen_ai.input.messages': JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
          ]),
          'gen_ai.output.messages': JSON.stringify([
            {
              role: 'assistant',
              parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
              finish_reason: 'tool_calls',
            },
          ]),
        },
      },
      async (llm) => {
        seen.ai.spanId = llm.spanContext().spanId;
        // A descendant of the AI trace: its rows take the AI trace's id.
        tracer.startActiveSpan('execute_tool get_weather', { kind: SpanKind.INTERNAL }, (tool) => {
          seen.ai.toolSpanId = tool.spanContext().spanId;
          tool.end();
        });
        llm.end();
      },
    );
    // A sibling under the endpoint keeps the endpoint's id.
    tracer.startActiveSpan('chat.save', { kind: SpanKind.INTERNAL }, (save) => {
      seen.ai.siblingSpanId = save.spanContext().spanId;
      save.end();
    });
    return send(200, { answer: 'sunny' });
  }
  if (url.pathname === '/orders' && request.method === 'POST') {
    route('/orders');
    tracer.startActiveSpan(
      'orders publish',
      { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'memory', 'messaging.destination.name': 'orders' } },
      (producer) => {
        const headers: Record<string, string> = {};
        propagation.inject(context.active(), headers);
        queue.push({ body: 'order 1001', headers });
        seen.consumer.producerSpanId = producer.spanContext().spanId;
        producer.end();
      },
    );
    return send(202, { queued: true });
  }
  if ((match = /^\/checkout\/([^/]+)$/.exec(url.pathname))) {
    route('/checkout/:cart');
    // The instrumented http client makes a CLIENT span and sends its context as `traceparent`.
    const stock = await getJson(
      `http://127.0.0.1:${(inventoryServer.address() as AddressInfo).port}/inventory/sku-${match[1]}`,
    );
    return send(200, { cart: match[1], stock });
  }
  if (url.pathname === '/split') {
    route('/split');
    // Two in-process children end before their server span: the test exports them in their own batch.
    tracer.startActiveSpan('middleware - auth', { attributes: { 'http.route': '/split' } }, (middleware) =>
      middleware.end(),
    );
    tracer.startActiveSpan(
      'request handler - /split',
      { attributes: { 'http.request.method': 'GET', 'http.route': '/split' } },
      (handler) => {
        seen.split.handlerSpanId = handler.spanContext().spanId;
        handler.end();
      },
    );
    await new Promise<void>((resolve) => (releaseSplitRequest = resolve));
    return send(200, { ok: true });
  }
  if (url.pathname === '/log') {
    route('/log');
    const active = trace.getActiveSpan()!.spanContext();
    seen.requestLog = { traceId: active.traceId, spanId: active.spanId };
    shopLogs.getLogger('shop-web').emit({
      severityNumber: SeverityNumber.WARN,
      severityText: 'WARN',
      body: 'payment retry',
      attributes: { attempt: 2 },
    });
    return send(200, { ok: true });
  }
  // No route matched: the framework answers 404 without setting http.route.
  return send(404, { error: 'not found' });
}

/** inventory-service: continues the trace context it receives, on its own tracer provider. */
function inventoryHandler(request: IncomingMessage, response: ServerResponse): void {
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const tracer = inventoryTracing.getTracer('inventory-service');
  tracer.startActiveSpan(
    'GET /inventory/:sku',
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'GET', 'http.route': '/inventory/:sku', 'url.path': request.url ?? '' },
    },
    parent,
    (server) => {
      seen.inventory.spanId = server.spanContext().spanId;
      seen.inventory.clientSpanId = trace.getSpanContext(parent)?.spanId ?? '';
      tracer.startActiveSpan(
        'SELECT inventory.stock',
        { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql' } },
        (db) => {
          seen.inventory.dbSpanId = db.spanContext().spanId;
          db.end();
        },
      );
      server.setAttribute('http.response.status_code', 200);
      server.end();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ inStock: 3 }));
    },
  );
}

let http: typeof import('node:http');
let shopLogs: LoggerProvider;

function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      })
      .on('error', reject);
  });
}

/** A request to shop-web from outside (fetch is not instrumented), resolved once its server span ended. */
async function visit(method: string, path: string): Promise<{ status: number; traceId: string; spanId: string }> {
  const response = await fetch(`${shopUrl}${path}`, { method });
  await response.arrayBuffer();
  const key = `${method} ${path}`;
  await endedShopSpans.until((spans) =>
    spans.some(
      (span) =>
        span.kind === SpanKind.SERVER &&
        span.attributes['url.path'] === path &&
        span.attributes['http.request.method'] === method,
    ),
  );
  const span = endedShopSpans.spans.find(
    (s) =>
      s.kind === SpanKind.SERVER && s.attributes['url.path'] === path && s.attributes['http.request.method'] === method,
  )!;
  const ids = { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
  seen.serverSpans.set(key, ids);
  return { status: response.status, ...ids };
}

beforeAll(async () => {
  service = await listeningTestService({ LOG_LEVEL: process.env.E2E_LOG ?? 'silent' });
  sightline = service.url;
  const registered = await registerUser(service.app);
  projectId = registered.project.id;
  projectToken = registered.project.token;

  shopTracing = new NodeTracerProvider({
    resource: resource('shop-web'),
    spanProcessors: [
      endedShopSpans,
      // Exports only in forceFlush (the delay is an hour), so each flush is one deterministic batch.
      new BatchSpanProcessor(
        new ProtoTraceExporter({
          url: `${sightline}/api/otel/v1/traces`,
          headers: otlpHeaders(),
          compression: CompressionAlgorithm.GZIP,
        }),
        {
          scheduledDelayMillis: 3_600_000,
          maxQueueSize: 10_000,
          maxExportBatchSize: 10_000,
        },
      ),
    ],
  });
  // Global context manager and W3C propagator, as an application's tracing set-up does.
  shopTracing.register();
  inventoryTracing = new NodeTracerProvider({
    resource: resource('inventory-service'),
    spanProcessors: [
      new BatchSpanProcessor(
        new JsonTraceExporter({ url: `${sightline}/api/otel/v1/traces`, headers: otlpHeaders() }),
        { scheduledDelayMillis: 3_600_000 },
      ),
    ],
  });
  shopLogs = new LoggerProvider({
    resource: resource('shop-web'),
    processors: [
      new BatchLogRecordProcessor({
        exporter: new ProtoLogExporter({ url: `${sightline}/api/otel/v1/logs`, headers: otlpHeaders() }),
        scheduledDelayMillis: 3_600_000,
      }),
    ],
  });

  let shopPort = -1;
  let inventoryPort = -1;
  instrumentation = new HttpInstrumentation({
    // Only shop-web's server is traced by the instrumentation (Sightline and inventory-service
    // share the patched http module), and only its calls to inventory-service.
    ignoreIncomingRequestHook: (request) => request.socket.localPort !== shopPort,
    ignoreOutgoingRequestHook: (options) => Number(options.port) !== inventoryPort,
  });
  instrumentation.setTracerProvider(shopTracing);
  instrumentation.enable();
  // Loaded through require after enabling, so the instrumentation patches it.
  http = createRequire(import.meta.url)('http') as typeof import('node:http');
  shopServer = http.createServer((request, response) => void shopHandler(request, response));
  inventoryServer = http.createServer(inventoryHandler);
  ({ port: shopPort, url: shopUrl } = await listenOnLoopback(shopServer));
  inventoryPort = (await listenOnLoopback(inventoryServer)).port;

  // ---- traffic -------------------------------------------------------------------------------
  await visit('GET', '/users/7');
  await visit('GET', '/users/404');
  await visit('GET', '/users/boom');
  await visit('GET', '/nope/deeper');
  await visit('GET', '/api/v2/anything');
  await visit('POST', '/chat');
  await visit('POST', '/orders');
  await visit('GET', '/checkout/c9');
  await visit('GET', '/log');

  const tracer = shopTracing.getTracer('shop-jobs');
  // The worker consumes the message with the producer's context: a non-root task.
  const message = queue.shift()!;
  tracer.startActiveSpan(
    'orders process',
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'memory',
        'messaging.destination.name': 'orders',
        'messaging.operation.type': 'process',
      },
    },
    propagation.extract(ROOT_CONTEXT, message.headers),
    (consumer) => {
      seen.consumer = {
        ...seen.consumer,
        traceId: consumer.spanContext().traceId,
        spanId: consumer.spanContext().spanId,
      };
      consumer.recordException(new TypeError('order 1001 has no lines'));
      consumer.setStatus({ code: SpanStatusCode.ERROR });
      consumer.end();
    },
  );
  // A consumer with no producer context: a root task.
  tracer.startActiveSpan('nightly-sync receive', { kind: SpanKind.CONSUMER }, ROOT_CONTEXT, (consumer) => {
    seen.rootConsumer.traceId = consumer.spanContext().traceId;
    consumer.end();
  });
  // A console command: a root INTERNAL span with console.command, and its work inside.
  tracer.startActiveSpan(
    'artisan',
    { kind: SpanKind.INTERNAL, attributes: { 'console.command': 'reports:send --daily' } },
    ROOT_CONTEXT,
    (command) => {
      seen.command.traceId = command.spanContext().traceId;
      tracer.startActiveSpan('reports.render', (child) => child.end());
      command.end();
    },
  );
  // A root that is nothing the spec keeps, and its child: dropped.
  tracer.startActiveSpan('cache warmup', {}, ROOT_CONTEXT, (root) => {
    seen.dropped.traceId = root.spanContext().traceId;
    tracer.startActiveSpan('cache.fill', (child) => child.end());
    root.end();
  });
  // Outside any request: a log without trace context.
  shopLogs
    .getLogger('shop-jobs')
    .emit({ severityNumber: SeverityNumber.INFO, body: 'worker started', context: ROOT_CONTEXT });
  shopLogs.getLogger('shop-jobs').emit({
    severityNumber: SeverityNumber.ERROR,
    severityText: 'ERROR',
    body: { event: 'job.failed', job: 'nightly-sync' },
    context: ROOT_CONTEXT,
  });

  await shopTracing.forceFlush();
  await inventoryTracing.forceFlush();
  await shopLogs.forceFlush();

  // One request whose spans straddle two export batches: the children go first, the server span later.
  const split = fetch(`${shopUrl}/split`).then((response) => response.arrayBuffer());
  await endedShopSpans.until((spans) => spans.some((span) => span.name === 'request handler - /split'));
  await shopTracing.forceFlush();
  releaseSplitRequest();
  await split;
  await endedShopSpans.until((spans) =>
    spans.some((span) => span.kind === SpanKind.SERVER && span.attributes['http.route'] === '/split'),
  );
  seen.split.traceId = endedShopSpans.spans
    .find((span) => span.name === 'request handler - /split')!
    .spanContext().traceId;
  await shopTracing.forceFlush();
});

afterAll(async () => {
  instrumentation?.disable();
  await shopTracing?.shutdown();
  await inventoryTracing?.shutdown();
  await shopLogs?.shutdown();
  await new Promise<void>((resolve) => (shopServer ? shopServer.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (inventoryServer ? inventoryServer.close(() => resolve()) : resolve()));
  await service?.close();
});

describe('traces from the OpenTelemetry SDK, classified and stored', () => {
  it('exports without errors from either exporter', () => {
    expect(diagnostics.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  it('files requests as endpoints by method and route: a 404 on a matched route keeps its name, an unmatched path is UNMATCHED, GET /api/* is a route', async () => {
    const rows = await query<{
      id: string;
      name: string;
      status_code: number;
      is_root: boolean;
      method: string;
      route: string;
      server_name: string;
      dtid: string;
    }>(
      `SELECT toString(id) AS id, name, status_code, is_root, method, route, server_name, toString(distributed_trace_id) AS dtid
       FROM endpoints FINAL WHERE project_id = {project:UUID} AND server_name = 'shop-web' ORDER BY recorded_at`,
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const endpoint = (key: string) => byId.get(traceUuid(seen.serverSpans.get(key)!.traceId));
    expect(endpoint('GET /users/7')).toMatchObject({
      name: 'GET /users/:id',
      status_code: 200,
      is_root: true,
      method: 'GET',
      route: '/users/:id',
    });
    expect(endpoint('GET /users/404')).toMatchObject({ name: 'GET /users/:id', status_code: 404 });
    expect(endpoint('GET /users/boom')).toMatchObject({ name: 'GET /users/:id', status_code: 500 });
    expect(endpoint('GET /nope/deeper')).toMatchObject({ name: 'UNMATCHED', status_code: 404, route: '' });
    expect(endpoint('GET /api/v2/anything')).toMatchObject({ name: 'GET /api/*', status_code: 200 });
    expect(endpoint('POST /chat')).toMatchObject({ name: 'POST /chat', status_code: 200, is_root: true });
    expect(endpoint('POST /orders')).toMatchObject({ name: 'POST /orders', status_code: 202 });
    // Root entity id = the OpenTelemetry trace id; distributed trace id derived from it.
    for (const [key, { traceId }] of seen.serverSpans)
      expect(endpoint(key), key).toMatchObject({ id: traceUuid(traceId), dtid: traceUuid(traceId), is_root: true });
  });

  it('keeps the spans of a request as span rows under its endpoint, with span ids as the low 8 bytes of a UUID', async () => {
    const { traceId } = seen.serverSpans.get('GET /users/boom')!;
    const rows = await query<{
      owner: string;
      span: string;
      parent: string;
      name: string;
      kind: string;
      status_code: number;
    }>(
      `SELECT toString(trace_id) AS owner, toString(span_id) AS span, toString(parent_span_id) AS parent, name, kind, status_code
       FROM spans FINAL WHERE project_id = {project:UUID} AND trace_id = {trace:UUID}`,
      { trace: traceUuid(traceId) },
    );
    const server = seen.serverSpans.get('GET /users/boom')!;
    expect(rows).toEqual([
      {
        owner: traceUuid(traceId),
        span: expect.stringMatching(/^00000000-0000-0000-[0-9a-f]{4}-[0-9a-f]{12}$/),
        parent: spanUuid(server.spanId),
        name: 'users.load',
        kind: 'INTERNAL',
        status_code: 500,
      },
    ]);
  });

  it('turns a recorded exception into an issue on the entity that owns the span', async () => {
    const { traceId } = seen.serverSpans.get('GET /users/boom')!;
    const rows = await query(
      `SELECT toString(trace_id) AS owner, is_task, stack_trace, server_name, toString(distributed_trace_id) AS dtid, attributes['exception.type'] AS type
       FROM exceptions FINAL WHERE project_id = {project:UUID} AND trace_id = {trace:UUID}`,
      { trace: traceUuid(traceId) },
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      owner: traceUuid(traceId),
      is_task: false,
      server_name: 'shop-web',
      dtid: traceUuid(traceId),
      type: 'Error',
    });
    expect(rows[0]!.stack_trace).toMatch(/^Error: user store unavailable\n\s+at /);
  });

  it('stores an AI call nested in a request as a non-root AI trace with model, tokens, cost and the conversation in the object store', async () => {
    const endpoint = seen.serverSpans.get('POST /chat')!;
    const aiId = spanUuid(seen.ai.spanId);
    const [row] = await query<Record<string, unknown>>(
      `SELECT toString(id) AS id, is_root, toString(parent_span_id) AS parent, toString(distributed_trace_id) AS dtid, name, model, provider, operation,
              input_tokens, output_tokens, cached_tokens, input_cost, output_cost, total_cost, finish_reason, tool_calls, conversation_id, conversation_key, server_name
       FROM ai_traces FINAL WHERE project_id = {project:UUID}`,
    );
    const prices = (
      JSON.parse(readFileSync(new URL('../../../src/core/classify/model-prices.json', import.meta.url), 'utf8')) as {
        models: Record<string, { input: number; cachedInput: number; output: number }>;
      }
    ).models['gpt-4o']!;
    const inputCost = (1000 * prices.input + 200 * prices.cachedInput) / 1e6;
    const outputCost = (300 * prices.output) / 1e6;
    expect(row).toMatchObject({
      id: aiId,
      is_root: false,
      parent: spanUuid(endpoint.spanId),
      dtid: traceUuid(endpoint.traceId),
      name: 'support-bot',
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
      operation: 'chat',
      input_tokens: 1200,
      output_tokens: 300,
      cached_tokens: 200,
      finish_reason: 'tool_calls',
      tool_calls: 1,
      conversation_id: 'conv-42',
      conversation_key: `ai/${projectId}/${aiId}.json`,
      server_name: 'shop-web',
    });
    expect(row!.input_cost).toBeCloseTo(inputCost, 12);
    expect(row!.output_cost).toBeCloseTo(outputCost, 12);
    expect(row!.total_cost).toBeCloseTo(inputCost + outputCost, 12);

    const stored = await service.services.objects.get(row!.conversation_key as string);
    expect(JSON.parse(Buffer.from(stored!).toString())).toEqual({
      input: [{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] }],
      output: [
        {
          role: 'assistant',
          parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
          finish_reason: 'tool_calls',
        },
      ],
    });

    // The endpoint keeps the trace id; the AI trace's descendant takes the AI trace's id, the
    // endpoint's other child keeps the endpoint's.
    const spans = await query<{ owner: string; span: string }>(
      `SELECT toString(trace_id) AS owner, toString(span_id) AS span FROM spans FINAL WHERE project_id = {project:UUID} AND span_id IN ({tool:UUID}, {sibling:UUID})`,
      { tool: spanUuid(seen.ai.toolSpanId), sibling: spanUuid(seen.ai.siblingSpanId) },
    );
    expect(new Map(spans.map((row) => [row.span, row.owner]))).toEqual(
      new Map([
        [spanUuid(seen.ai.toolSpanId), aiId],
        [spanUuid(seen.ai.siblingSpanId), traceUuid(endpoint.traceId)],
      ]),
    );
  });

  it('files CONSUMER spans as tasks (non-root under a producer, root without one) and their exceptions as task issues', async () => {
    const tasks = await query<{
      id: string;
      name: string;
      is_root: boolean;
      parent: string;
      dtid: string;
      status_code: number;
    }>(
      `SELECT toString(id) AS id, name, is_root, toString(parent_span_id) AS parent, toString(distributed_trace_id) AS dtid, status_code FROM tasks FINAL WHERE project_id = {project:UUID} ORDER BY name`,
    );
    const orders = seen.serverSpans.get('POST /orders')!;
    expect(seen.consumer.traceId).toBe(orders.traceId);
    expect(tasks.find((task) => task.name === 'orders process')).toEqual({
      id: spanUuid(seen.consumer.spanId),
      name: 'orders process',
      is_root: false,
      parent: spanUuid(seen.consumer.producerSpanId),
      dtid: traceUuid(orders.traceId),
      status_code: 500,
    });
    expect(tasks.find((task) => task.name === 'nightly-sync receive')).toMatchObject({
      id: traceUuid(seen.rootConsumer.traceId),
      is_root: true,
    });

    const [issue] = await query(
      `SELECT toString(trace_id) AS owner, is_task, stack_trace FROM exceptions FINAL WHERE project_id = {project:UUID} AND is_task`,
    );
    expect(issue).toMatchObject({ owner: spanUuid(seen.consumer.spanId), is_task: true });
    expect(issue!.stack_trace).toMatch(/^TypeError: order 1001 has no lines/);
    // The producer span stays a span row of the endpoint that published.
    const [producer] = await query(
      `SELECT toString(trace_id) AS owner, kind FROM spans FINAL WHERE project_id = {project:UUID} AND span_id = {id:UUID}`,
      { id: spanUuid(seen.consumer.producerSpanId) },
    );
    expect(producer).toEqual({ owner: traceUuid(orders.traceId), kind: 'PRODUCER' });
  });

  it('files a root INTERNAL span with console.command as a task named by the command', async () => {
    const [task] = await query(
      `SELECT name, is_root, server_name FROM tasks FINAL WHERE project_id = {project:UUID} AND id = {id:UUID}`,
      { id: traceUuid(seen.command.traceId) },
    );
    expect(task).toEqual({ name: 'reports:send --daily', is_root: true, server_name: 'shop-web' });
    const spans = await query(
      `SELECT name FROM spans FINAL WHERE project_id = {project:UUID} AND trace_id = {id:UUID}`,
      { id: traceUuid(seen.command.traceId) },
    );
    expect(spans).toEqual([{ name: 'reports.render' }]);
  });

  it('drops a root that is no entity, with its children', async () => {
    const id = traceUuid(seen.dropped.traceId);
    const [counts] = await query<Record<string, number>>(
      `SELECT (SELECT count() FROM spans WHERE project_id = {project:UUID} AND trace_id = {id:UUID}) AS spans,
              (SELECT count() FROM endpoints WHERE project_id = {project:UUID} AND id = {id:UUID}) AS endpoints,
              (SELECT count() FROM tasks WHERE project_id = {project:UUID} AND id = {id:UUID}) AS tasks`,
      { id },
    );
    expect(counts).toEqual({ spans: 0, endpoints: 0, tasks: 0 });
  });

  it('links a distributed trace across two services: one distributed_trace_id, the downstream endpoint non-root with its own id', async () => {
    const checkout = seen.serverSpans.get('GET /checkout/c9')!;
    const rows = await query<{
      id: string;
      name: string;
      is_root: boolean;
      parent: string;
      dtid: string;
      server_name: string;
    }>(
      `SELECT toString(id) AS id, name, is_root, toString(parent_span_id) AS parent, toString(distributed_trace_id) AS dtid, server_name
       FROM endpoints FINAL WHERE project_id = {project:UUID} AND distributed_trace_id = {dtid:UUID} ORDER BY is_root DESC`,
      { dtid: traceUuid(checkout.traceId) },
    );
    expect(rows).toEqual([
      {
        id: traceUuid(checkout.traceId),
        name: 'GET /checkout/:cart',
        is_root: true,
        parent: '00000000-0000-0000-0000-000000000000',
        dtid: traceUuid(checkout.traceId),
        server_name: 'shop-web',
      },
      {
        id: spanUuid(seen.inventory.spanId),
        name: 'GET /inventory/:sku',
        is_root: false,
        parent: spanUuid(seen.inventory.clientSpanId),
        dtid: traceUuid(checkout.traceId),
        server_name: 'inventory-service',
      },
    ]);
    // The outgoing call is a span row of the upstream endpoint; the database call one of the downstream endpoint.
    const spans = await query<{ span: string; owner: string }>(
      `SELECT toString(span_id) AS span, toString(trace_id) AS owner FROM spans FINAL WHERE project_id = {project:UUID} AND span_id IN ({client:UUID}, {db:UUID})`,
      { client: spanUuid(seen.inventory.clientSpanId), db: spanUuid(seen.inventory.dbSpanId) },
    );
    expect(new Map(spans.map((row) => [row.span, row.owner]))).toEqual(
      new Map([
        [spanUuid(seen.inventory.clientSpanId), traceUuid(checkout.traceId)],
        [spanUuid(seen.inventory.dbSpanId), spanUuid(seen.inventory.spanId)],
      ]),
    );
  });

  it('trusts the span flags over batch membership: an in-process sub-handler exported before its server span stays a span row; a method-less route span is a junk row', async () => {
    const id = traceUuid(seen.split.traceId);
    const endpoints = await query(
      `SELECT name, status_code, is_root FROM endpoints FINAL WHERE project_id = {project:UUID} AND id = {id:UUID} ORDER BY name`,
      { id },
    );
    expect(endpoints).toEqual([
      { name: 'GET /split', status_code: 200, is_root: true },
      { name: 'middleware - patched', status_code: 0, is_root: true },
    ]);
    const [handler] = await query(
      `SELECT toString(trace_id) AS owner, name FROM spans FINAL WHERE project_id = {project:UUID} AND span_id = {span:UUID}`,
      {
        span: spanUuid(seen.split.handlerSpanId),
      },
    );
    expect(handler).toEqual({ owner: id, name: 'request handler - /split' });
  });
});

describe('metrics from the OpenTelemetry SDK', () => {
  let protoExporter: RecordingExporter;
  let jsonExporter: RecordingExporter;
  let meters: MeterProvider;

  beforeAll(async () => {
    protoExporter = new RecordingExporter(
      new ProtoMetricExporter({
        url: `${sightline}/api/otel/v1/metrics`,
        headers: otlpHeaders(),
        temporalityPreference: AggregationTemporality.DELTA,
      }),
    );
    jsonExporter = new RecordingExporter(
      new JsonMetricExporter({
        url: `${sightline}/api/otel/v1/metrics`,
        headers: otlpHeaders(),
        compression: CompressionAlgorithm.GZIP,
      }),
    );
    meters = new MeterProvider({
      resource: resource('shop-web'),
      views: [{ instrumentName: 'payload.size', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }],
      readers: [
        new PeriodicExportingMetricReader({ exporter: protoExporter, exportIntervalMillis: 3_600_000 }),
        new PeriodicExportingMetricReader({ exporter: jsonExporter, exportIntervalMillis: 3_600_000 }),
      ],
    });
    const meter = meters.getMeter('shop-web');
    const orders = meter.createCounter('orders.placed');
    orders.add(3, { region: 'eu' });
    orders.add(2, { region: 'eu' });
    const depth = meter.createUpDownCounter('queue.depth');
    depth.add(5);
    depth.add(-2);
    meter.createGauge('cpu.temperature', { unit: 'Cel' }).record(61.5, { core: '0' });
    const latency = meter.createHistogram('checkout.duration', { unit: 'ms' });
    latency.record(10);
    latency.record(30);
    const payload = meter.createHistogram('payload.size', { unit: 'By' });
    payload.record(100);
    payload.record(300);
    diagnostics.length = 0;
    await meters.forceFlush();
  });
  // Shutting down exports once more (cumulative points again): only after the assertions.
  afterAll(() => meters.shutdown());

  it('stores Counter, UpDownCounter and Gauge as is, Histogram and ExponentialHistogram as .avg and .count, per temporality, with dimensions', async () => {
    const rows = await query<{
      name: string;
      value: number;
      temporality: string;
      region: string;
      core: string;
      environment: string;
      server_name: string;
    }>(
      // DISTINCT: both readers may collect a gauge or cumulative point at different instants.
      `SELECT DISTINCT name, value, dimensions['temporality'] AS temporality, dimensions['region'] AS region, dimensions['core'] AS core,
              dimensions['deployment.environment.name'] AS environment, server_name
       FROM metric_points FINAL WHERE project_id = {project:UUID} ORDER BY name, temporality`,
    );
    const common = { environment: 'test', server_name: 'shop-web' };
    expect(rows).toEqual([
      { name: 'checkout.duration.avg', value: 20, temporality: 'cumulative', region: '', core: '', ...common },
      { name: 'checkout.duration.avg', value: 20, temporality: 'delta', region: '', core: '', ...common },
      { name: 'checkout.duration.count', value: 2, temporality: 'cumulative', region: '', core: '', ...common },
      { name: 'checkout.duration.count', value: 2, temporality: 'delta', region: '', core: '', ...common },
      { name: 'cpu.temperature', value: 61.5, temporality: '', region: '', core: '0', ...common },
      { name: 'orders.placed', value: 5, temporality: 'cumulative', region: 'eu', core: '', ...common },
      { name: 'orders.placed', value: 5, temporality: 'delta', region: 'eu', core: '', ...common },
      // The exponential histogram (a View), stored like the histogram above.
      { name: 'payload.size.avg', value: 200, temporality: 'cumulative', region: '', core: '', ...common },
      { name: 'payload.size.avg', value: 200, temporality: 'delta', region: '', core: '', ...common },
      { name: 'payload.size.count', value: 2, temporality: 'cumulative', region: '', core: '', ...common },
      { name: 'payload.size.count', value: 2, temporality: 'delta', region: '', core: '', ...common },
      // The SDK's delta preference keeps UpDownCounters cumulative (a level, not a change).
      { name: 'queue.depth', value: 3, temporality: 'cumulative', region: '', core: '', ...common },
    ]);
  });

  it('answers the exports, exponential histogram included, with no partial_success', async () => {
    // The SDK did send payload.size as an ExponentialHistogram, through both exporters.
    for (const exporter of [protoExporter, jsonExporter]) {
      const payload = exporter.exported[0]!.scopeMetrics.flatMap((scope) => scope.metrics).find(
        (metric) => metric.descriptor.name === 'payload.size',
      );
      expect(payload?.dataPointType).toBe(DataPointType.EXPONENTIAL_HISTOGRAM);
    }
    expect(protoExporter.results).toEqual([0]);
    expect(jsonExporter.results).toEqual([0]);
    // The exporters' response handler would log a partial success as a warning.
    expect(diagnostics.filter((entry) => entry.message.includes('Partial Success'))).toEqual([]);

    // The same bodies again, to read the answers: the SDK's serializers and response decoders.
    for (const [serializer, exporter, contentType] of [
      [ProtobufMetricsSerializer, protoExporter, 'application/x-protobuf'],
      [JsonMetricsSerializer, jsonExporter, 'application/json'],
    ] as const) {
      const response = await fetch(`${sightline}/api/otel/v1/metrics`, {
        method: 'POST',
        headers: { ...otlpHeaders(), 'content-type': contentType },
        body: serializer.serializeRequest(exporter.exported[0]!)!,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(contentType);
      const answer = serializer.deserializeResponse(new Uint8Array(await response.arrayBuffer()));
      expect(answer.partialSuccess).toBeUndefined();
    }
  });
});

describe('logs from the OpenTelemetry SDK', () => {
  beforeAll(async () => {
    // The JSON exporter too, for a log outside any request.
    const jsonLogs = new LoggerProvider({
      resource: resource('shop-cron'),
      processors: [
        new BatchLogRecordProcessor({
          exporter: new JsonLogExporter({ url: `${sightline}/api/otel/v1/logs`, headers: otlpHeaders() }),
          scheduledDelayMillis: 3_600_000,
        }),
      ],
    });
    jsonLogs.getLogger('cron').emit({ severityNumber: SeverityNumber.INFO2, body: 'cron tick', context: ROOT_CONTEXT });
    await jsonLogs.forceFlush();
    await jsonLogs.shutdown();
  });

  it('stores logs inside a request with its trace and span ids, and logs outside with none, with severity numbers', async () => {
    const rows = await query(
      `SELECT severity_number, severity_text, body, trace_id, span_id, service_name, attributes FROM logs FINAL WHERE project_id = {project:UUID} ORDER BY timestamp, severity_number`,
    );
    expect(rows).toEqual([
      {
        severity_number: 13,
        severity_text: 'WARN',
        body: 'payment retry',
        trace_id: seen.requestLog.traceId,
        span_id: seen.requestLog.spanId,
        service_name: 'shop-web',
        attributes: { attempt: '2' },
      },
      {
        severity_number: 9,
        severity_text: 'INFO',
        body: 'worker started',
        trace_id: '',
        span_id: '',
        service_name: 'shop-web',
        attributes: {},
      },
      {
        severity_number: 17,
        severity_text: 'ERROR',
        body: '{"event":"job.failed","job":"nightly-sync"}',
        trace_id: '',
        span_id: '',
        service_name: 'shop-web',
        attributes: {},
      },
      {
        severity_number: 10,
        severity_text: 'INFO2',
        body: 'cron tick',
        trace_id: '',
        span_id: '',
        service_name: 'shop-cron',
        attributes: {},
      },
    ]);
    expect(seen.requestLog.traceId).toBe(seen.serverSpans.get('GET /log')!.traceId);
  });
});
