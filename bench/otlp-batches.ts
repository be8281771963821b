/**
 * The OTLP trace batches of the OTLP benches (bench/otlp.ts, bench/otlp-ingest.ts): export
 * requests as an OpenTelemetry JS exporter sends them, made by the SDK itself. Each batch holds
 * SPANS_PER_BATCH spans of HTTP server requests of SPANS_PER_REQUEST spans (a SERVER root,
 * middleware, handler, three database calls, an outbound HTTP call, a render; ~15 attributes per
 * span, an exception every 23rd request), serialized by the SDK's own protobuf serializer.
 */
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';

export const SPANS_PER_BATCH = 512;
export const SPANS_PER_REQUEST = 8;

const ROUTES = ['/api/orders/:id', '/api/users/:id/cart', '/api/products', '/api/checkout', '/health'];

/** One HTTP request of SPANS_PER_REQUEST spans. */
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

/** `count` distinct protobuf export requests of SPANS_PER_BATCH spans each. */
export function buildBatches(count: number): Uint8Array[] {
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
  for (let batch = 0; batch < count; batch++) {
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
