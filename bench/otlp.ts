/**
 * OTLP trace ingest throughput, pure part: `node --import tsx bench/otlp.ts`.
 *
 * Builds realistic export batches with the OpenTelemetry JS SDK (512 spans each: HTTP server
 * requests of 8 spans, a SERVER root with middleware, handler, database and outbound HTTP children,
 * ~15 attributes per span), serializes them with the SDK's own protobuf serializer and gzips them,
 * as an OTLP/HTTP exporter would send them. Prints spans per second for
 *   (a) protobuf decode alone, and
 *   (b) gunzip + decode + classify into a TelemetryBatch,
 * their ratio, and resident memory. Rates are per CPU second of this process (GC threads
 * included), so they are per-core figures that other load on the machine does not deflate.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { classifyTraces } from '../src/core/classify/index.js';
import { decodeTraceRequest } from '../src/ingest/otlp/index.js';

const SPANS_PER_BATCH = 512;
const SPANS_PER_REQUEST = 8;
const DISTINCT_BATCHES = 8;
const ROUND_MS = 1_000;
const ROUNDS = 5;

const ROUTES = ['/api/orders/:id', '/api/users/:id/cart', '/api/products', '/api/checkout', '/health'];

function recordRequest(tracer: Tracer, index: number): void {
  const route = ROUTES[index % ROUTES.length]!;
  const path = route.replace(':id', String(10_000 + index));
  const server = tracer.startSpan(`GET ${route}`, {
    kind: SpanKind.SERVER,
    attributes: {
      'http.request.method': 'GET',
      'http.route': route,
      'url.path': path,
      'url.scheme': 'https',
      'url.query': `page=${index % 7}`,
      'server.address': 'shop.example.com',
      'server.port': 443,
      'client.address': `10.0.${index % 250}.${(index * 7) % 250}`,
      'user_agent.original':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      'network.protocol.version': '1.1',
      'network.peer.address': '10.0.0.12',
      'network.peer.port': 51_000 + (index % 1000),
      'http.request.header.x-request-id': [`req-${index}`],
      'http.response.status_code': index % 23 === 0 ? 500 : 200,
      'http.response.body.size': 1_024 + index,
    },
  });
  const serverContext = trace.setSpan(context.active(), server);
  const child = (
    name: string,
    kind: SpanKind,
    attributes: Record<string, string | number | boolean>,
    parent = serverContext,
  ) =>
    tracer.startSpan(
      name,
      {
        kind,
        attributes: {
          'code.file.path': '/app/src/server.ts',
          'code.line.number': 40 + (index % 100),
          'thread.id': 1,
          ...attributes,
        },
      },
      parent,
    );
  const middleware = child('middleware - query', SpanKind.INTERNAL, {
    'http.route': route,
    'express.name': 'query',
    'express.type': 'middleware',
  });
  middleware.end();
  const handler = child(`request handler - ${route}`, SpanKind.INTERNAL, {
    'http.route': route,
    'express.name': route,
    'express.type': 'request_handler',
    'code.function.name': 'getOrder',
  });
  const handlerContext = trace.setSpan(context.active(), handler);
  for (const table of ['orders', 'order_items', 'customers']) {
    child(
      `SELECT shop.${table}`,
      SpanKind.CLIENT,
      {
        'db.system.name': 'postgresql',
        'db.namespace': 'shop',
        'db.collection.name': table,
        'db.operation.name': 'SELECT',
        'db.query.text': `SELECT * FROM ${table} WHERE id = $1 AND tenant_id = $2 LIMIT 50`,
        'server.address': 'db.internal',
        'server.port': 5432,
        'db.response.returned_rows': index % 50,
        'network.peer.address': '10.0.3.4',
        'network.peer.port': 5432,
        'db.client.connection.pool.name': 'main',
      },
      handlerContext,
    ).end();
  }
  child(
    'GET',
    SpanKind.CLIENT,
    {
      'http.request.method': 'GET',
      'url.full': `https://payments.internal/v1/charges/${index}`,
      'server.address': 'payments.internal',
      'server.port': 443,
      'http.response.status_code': 200,
      'network.protocol.version': '1.1',
      'http.request.resend_count': 0,
      'url.scheme': 'https',
    },
    handlerContext,
  ).end();
  const render = child(
    'render order',
    SpanKind.INTERNAL,
    { 'template.name': 'order.hbs', 'template.engine': 'handlebars', 'cache.hit': index % 3 === 0 },
    handlerContext,
  );
  if (index % 23 === 0) {
    render.recordException(new Error(`template variable missing: customer${index % 5}`));
    render.setStatus({ code: SpanStatusCode.ERROR });
  }
  render.end();
  handler.end();
  server.end();
}

/** Protobuf export requests of SPANS_PER_BATCH spans each, made by the SDK's own serializer. */
function buildBatches(): Uint8Array[] {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': 'shop-api',
      'service.version': '3.2.1',
      'deployment.environment.name': 'production',
      'host.name': 'shop-api-7d9f8',
      'telemetry.sdk.language': 'nodejs',
    }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('@opentelemetry/instrumentation-http', '0.203.0');
  const batches: Uint8Array[] = [];
  for (let batch = 0; batch < DISTINCT_BATCHES; batch++) {
    exporter.reset();
    for (let request = 0; request < SPANS_PER_BATCH / SPANS_PER_REQUEST; request++)
      recordRequest(tracer, batch * 1000 + request);
    const spans = exporter.getFinishedSpans();
    if (spans.length !== SPANS_PER_BATCH) throw new Error(`expected ${SPANS_PER_BATCH} spans, got ${spans.length}`);
    const encoded = ProtobufTraceSerializer.serializeRequest(spans);
    if (encoded === undefined) throw new Error('the SDK serializer returned nothing');
    batches.push(encoded);
  }
  return batches;
}

/** CPU time of this process in milliseconds: unlike wall time, not inflated by other load. */
function cpuMillis(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Spans per CPU second of `work`, run over the batches round-robin for ROUND_MS of CPU time. */
function spansPerCpuSecond<T>(batches: readonly T[], work: (batch: T) => unknown): number {
  let processed = 0;
  const start = cpuMillis();
  for (let i = 0; cpuMillis() - start < ROUND_MS; i++) {
    work(batches[i % batches.length]!);
    processed += SPANS_PER_BATCH;
  }
  return processed / ((cpuMillis() - start) / 1000);
}

/**
 * The best of ROUNDS interleaved rounds of each measurement: the round least disturbed by other
 * processes on the machine is the closest to the code's own speed. The first round warms up.
 */
function bestOfRounds<Name extends string>(measurements: Record<Name, () => number>): Record<Name, number> {
  const names = Object.keys(measurements) as Name[];
  const best = Object.fromEntries(names.map((name) => [name, 0])) as Record<Name, number>;
  for (let round = 0; round <= ROUNDS; round++) {
    for (const name of names) {
      const rate = measurements[name]();
      if (round > 0) best[name] = Math.max(best[name], rate);
    }
  }
  return best;
}

const formatRate = (rate: number): string => `${Math.round(rate).toLocaleString('en-US')} spans per CPU second`;
const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const protobufBatches = buildBatches();
const gzippedBatches = protobufBatches.map((batch) => gzipSync(batch));
const averageBytes = (list: Uint8Array[]) =>
  Math.round(list.reduce((sum, batch) => sum + batch.length, 0) / list.length);
console.log(
  `batch: ${SPANS_PER_BATCH} spans, ${averageBytes(protobufBatches)} bytes protobuf, ${averageBytes(gzippedBatches)} bytes gzipped`,
);
console.log(`rss before: ${megabytes(process.memoryUsage().rss)}`);

const receivedAt = BigInt(Date.now()) * 1_000_000n;
const projectId = '6f1d2c3b-4a59-4e87-9a0b-1c2d3e4f5a6b';
const { decode, endToEnd } = bestOfRounds({
  decode: () => spansPerCpuSecond(protobufBatches, (batch) => decodeTraceRequest(batch, 'protobuf')),
  endToEnd: () =>
    spansPerCpuSecond(gzippedBatches, (batch) =>
      classifyTraces(decodeTraceRequest(gunzipSync(batch), 'protobuf'), { projectId, receivedAt }),
    ),
});

console.log(`(a) decode:                     ${formatRate(decode)}`);
console.log(`(b) gunzip + decode + classify: ${formatRate(endToEnd)}`);
console.log(`ratio (b)/(a):                  ${(endToEnd / decode).toFixed(2)}`);
console.log(`rss after: ${megabytes(process.memoryUsage().rss)}`);
