/**
 * Span ids through the whole OTLP path: the OpenTelemetry SDK's own exporters (protobuf with gzip,
 * and JSON) sending to a running service over loopback, read back from storage (chDB). Span rows
 * carry the decoder's hex ids to the row encoder (records.ts, SpanId); the stored UUIDs must be
 * what the sender's ids mean, leading zero bytes included.
 */
import { SpanKind, context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningTestService, registerUser, type ListeningTestService } from '../../support/service.js';
import { spanUuid } from '../../support/test-spans.js';

const traceUuid = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

let service: ListeningTestService;
let projectId: string;
let projectToken: string;

beforeAll(async () => {
  service = await listeningTestService();
  const registered = await registerUser(service.app);
  projectId = registered.project.id;
  projectToken = registered.project.token;
});

afterAll(async () => {
  await service?.close();
});

/** The ids the SDK gives its spans, in the order it asks for them. */
function fixedIds(traceId: string, spanIds: string[]) {
  const queue = [...spanIds];
  return { generateTraceId: () => traceId, generateSpanId: () => queue.shift()! };
}

/**
 * A request (SERVER root) with a child and a grandchild, ended and exported as one batch; the
 * child and grandchild become span rows under the endpoint.
 */
async function exportRequest(exporter: SpanExporter, traceId: string, spanIds: string[]): Promise<void> {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'span-ids' }),
    idGenerator: fixedIds(traceId, spanIds),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 3_600_000 })],
  });
  const tracer = provider.getTracer('span-ids');
  const server = tracer.startSpan('GET /ids', {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': 'GET', 'http.route': '/ids', 'http.response.status_code': 200 },
  });
  const handler = tracer.startSpan('handler', {}, trace.setSpan(context.active(), server));
  tracer.startSpan('db.query', { kind: SpanKind.CLIENT }, trace.setSpan(context.active(), handler)).end();
  handler.end();
  server.end();
  await provider.forceFlush();
  await provider.shutdown();
}

async function storedSpans(traceId: string) {
  return service.services.telemetry.query<{ owner: string; span: string; parent: string; name: string }>(
    `SELECT toString(trace_id) AS owner, toString(span_id) AS span, toString(parent_span_id) AS parent, name
     FROM spans FINAL WHERE project_id = {project:UUID} AND trace_id = {trace:UUID} ORDER BY name`,
    { project: projectId, trace: traceUuid(traceId) },
  );
}

describe('span ids sent by the SDK exporters, read back from storage', () => {
  const headers = () => ({ authorization: `Bearer ${projectToken}` });

  it.each([
    {
      encoding: 'protobuf',
      traceId: '000000000000000000000000000a0b0c',
      spanIds: ['0000000000000001', '00000000000000ff', '0001000000000000'],
      exporter: () =>
        new ProtoTraceExporter({
          url: `${service.url}/api/otel/v1/traces`,
          headers: headers(),
          compression: CompressionAlgorithm.GZIP,
        }),
    },
    {
      encoding: 'JSON',
      traceId: '00f067aa0ba902b7000000000000abcd',
      spanIds: ['00000000000000a1', '0000000000a20000', 'ffffffffffffffff'],
      exporter: () => new JsonTraceExporter({ url: `${service.url}/api/otel/v1/traces`, headers: headers() }),
    },
  ])('$encoding: every span row keeps its span and parent ids, leading zero bytes included', async (sent) => {
    const [serverId, handlerId, queryId] = sent.spanIds as [string, string, string];
    await exportRequest(sent.exporter(), sent.traceId, sent.spanIds);

    expect(await storedSpans(sent.traceId)).toEqual([
      { owner: traceUuid(sent.traceId), span: spanUuid(queryId), parent: spanUuid(handlerId), name: 'db.query' },
      { owner: traceUuid(sent.traceId), span: spanUuid(handlerId), parent: spanUuid(serverId), name: 'handler' },
    ]);
    expect(
      await service.services.telemetry.query(
        `SELECT toString(id) AS entity, toString(parent_span_id) AS parent, is_root FROM endpoints FINAL
         WHERE project_id = {project:UUID} AND id = {trace:UUID}`,
        { project: projectId, trace: traceUuid(sent.traceId) },
      ),
    ).toEqual([{ entity: traceUuid(sent.traceId), parent: '00000000-0000-0000-0000-000000000000', is_root: true }]);
  });
});
