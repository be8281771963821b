/**
 * Decoders against real bytes: the OpenTelemetry JS SDK (2.x line, Node 20) exports through its
 * protobuf and JSON OTLP/HTTP exporters to a loopback server that captures each body (gunzipping
 * it when the exporter compressed it); the test decodes the capture and checks what the SDK
 * recorded. Both exporters see the same spans, so the two decoders must also agree exactly.
 */
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { context, SpanKind, SpanStatusCode, trace, TraceFlags, type SpanContext } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import {
  AggregationTemporality,
  AggregationType,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyValue, KeyValue, OtlpMetric, OtlpSpan, OtlpTraceRequest } from '../../core/classify/otlp-model.js';
import { listenOnLoopback } from '../../../test/support/loopback.js';
import { decodeLogsRequest, decodeMetricsRequest, decodeTraceRequest, otlpEncodingOf } from './index.js';

interface CapturedRequest {
  path: string;
  contentType: string;
  contentEncoding: string | undefined;
  body: Buffer;
}

let server: Server;
let baseUrl: string;
const captured: CapturedRequest[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const contentEncoding = request.headers['content-encoding'];
      captured.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        contentEncoding,
        body: contentEncoding === 'gzip' ? gunzipSync(raw) : raw,
      });
      response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/json' });
      response.end();
    });
  });
  baseUrl = (await listenOnLoopback(server)).url;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

/** Takes the captured requests for one path, in arrival order. */
function takeCaptured(path: string): CapturedRequest[] {
  const taken = captured.filter((request) => request.path === path);
  captured.splice(0, captured.length, ...captured.filter((request) => request.path !== path));
  return taken;
}

const resource = resourceFromAttributes({ 'service.name': 'checkout', 'service.version': '1.4.2' });

function attribute(attributes: KeyValue[], key: string): AnyValue | undefined {
  return attributes.find((pair) => pair.key === key)?.value;
}

describe('traces from the SDK exporters', () => {
  it('decode identically from protobuf (gzip) and JSON, with ids, kinds, flags, times, attributes, events and status', async () => {
    const provider = new NodeTracerProvider({
      resource,
      spanProcessors: [
        new SimpleSpanProcessor(
          new ProtoTraceExporter({ url: `${baseUrl}/proto/v1/traces`, compression: CompressionAlgorithm.GZIP }),
        ),
        new SimpleSpanProcessor(new JsonTraceExporter({ url: `${baseUrl}/json/v1/traces` })),
      ],
    });
    const tracer = provider.getTracer('test-scope', '0.0.1');

    const server = tracer.startSpan('GET /api/users/:id', {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/api/users/:id',
        'http.response.status_code': 200,
        'client.sample_rate': 0.25,
        'feature.enabled': true,
        'user.roles': ['admin', 'billing'],
      },
    });
    const handler = tracer.startSpan('handler', { kind: SpanKind.INTERNAL }, trace.setSpan(context.active(), server));
    handler.recordException(new TypeError('user id is not a number'));
    handler.setStatus({ code: SpanStatusCode.ERROR, message: 'bad id' });
    handler.end();
    server.end();

    const remoteParent: SpanContext = {
      traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      spanId: 'bbbbbbbbbbbbbbbb',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    };
    const consumer = tracer.startSpan(
      'orders process',
      { kind: SpanKind.CONSUMER },
      trace.setSpanContext(context.active(), remoteParent),
    );
    consumer.end();
    await provider.forceFlush();
    await provider.shutdown();

    const protoRequests = takeCaptured('/proto/v1/traces');
    const jsonRequests = takeCaptured('/json/v1/traces');
    expect(protoRequests.map((request) => [request.contentType, request.contentEncoding])).toEqual(
      Array(3).fill(['application/x-protobuf', 'gzip']),
    );
    expect(jsonRequests.map((request) => otlpEncodingOf(request.contentType))).toEqual(['json', 'json', 'json']);

    // SimpleSpanProcessor sends one request per span as each ends, concurrently: put them back in
    // the order the spans ended (handler, server, consumer), whatever order they arrived in.
    const endOrder = [handler, server, consumer].map((span) => span.spanContext().spanId);
    const inEndOrder = (requests: OtlpTraceRequest[]) =>
      requests.sort(
        (a, b) =>
          endOrder.indexOf(a.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.spanId) -
          endOrder.indexOf(b.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.spanId),
      );
    const fromProto = inEndOrder(
      protoRequests.map((request) => decodeTraceRequest(request.body, otlpEncodingOf(request.contentType))),
    );
    const fromJson = inEndOrder(jsonRequests.map((request) => decodeTraceRequest(request.body, 'json')));
    expect(fromJson).toEqual(fromProto);

    const spans: OtlpSpan[] = fromProto.flatMap((request) =>
      request.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)),
    );
    const [handlerSpan, serverSpan, consumerSpan] = spans;
    const first = fromProto[0]!.resourceSpans[0]!;
    expect(attribute(first.resource.attributes, 'service.name')).toEqual({ type: 'string', value: 'checkout' });
    expect(first.scopeSpans[0]!.scope).toMatchObject({ name: 'test-scope', version: '0.0.1' });

    expect(serverSpan).toMatchObject({
      traceId: server.spanContext().traceId,
      spanId: server.spanContext().spanId,
      parentSpanId: '',
      kind: 'SERVER',
      name: 'GET /api/users/:id',
      status: { code: 'UNSET', message: '' },
    });
    // The SDK records hrtime; the exporter sends nanoseconds since the epoch.
    const serverSdkSpan = serverSpan!;
    expect(serverSdkSpan.endTimeUnixNano).toBeGreaterThanOrEqual(serverSdkSpan.startTimeUnixNano);
    expect(Number(serverSdkSpan.startTimeUnixNano / 1_000_000n)).toBeGreaterThan(Date.now() - 60_000);
    expect(attribute(serverSdkSpan.attributes, 'http.response.status_code')).toEqual({ type: 'int', value: 200 });
    expect(attribute(serverSdkSpan.attributes, 'client.sample_rate')).toEqual({ type: 'double', value: 0.25 });
    expect(attribute(serverSdkSpan.attributes, 'feature.enabled')).toEqual({ type: 'bool', value: true });
    expect(attribute(serverSdkSpan.attributes, 'user.roles')).toEqual({
      type: 'array',
      value: [
        { type: 'string', value: 'admin' },
        { type: 'string', value: 'billing' },
      ],
    });
    // Bit 8: the exporter knows whether the parent is remote; a root has no remote parent.
    expect(serverSdkSpan.flags).toBe(0x100 | TraceFlags.SAMPLED);

    expect(handlerSpan).toMatchObject({
      parentSpanId: server.spanContext().spanId,
      kind: 'INTERNAL',
      status: { code: 'ERROR', message: 'bad id' },
    });
    expect(handlerSpan!.flags).toBe(0x100 | TraceFlags.SAMPLED);
    const exception = handlerSpan!.events[0]!;
    expect(exception.name).toBe('exception');
    expect(attribute(exception.attributes, 'exception.type')).toEqual({ type: 'string', value: 'TypeError' });
    expect(attribute(exception.attributes, 'exception.message')).toEqual({
      type: 'string',
      value: 'user id is not a number',
    });
    expect(attribute(exception.attributes, 'exception.stacktrace')).toMatchObject({ type: 'string' });

    // Bits 8 and 9: the parent is known to be remote.
    expect(consumerSpan).toMatchObject({
      traceId: remoteParent.traceId,
      parentSpanId: remoteParent.spanId,
      kind: 'CONSUMER',
      flags: 0x300 | TraceFlags.SAMPLED,
    });
  });
});

describe('metrics from the SDK exporters', () => {
  it('decode identically from protobuf and JSON (gzip): counter, up-down counter, gauge, histogram and exponential histogram', async () => {
    const provider = new MeterProvider({
      resource,
      views: [{ instrumentName: 'payload.size', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }],
      readers: [
        new PeriodicExportingMetricReader({
          exporter: new ProtoMetricExporter({
            url: `${baseUrl}/proto/v1/metrics`,
            temporalityPreference: AggregationTemporality.DELTA,
          }),
          exportIntervalMillis: 3_600_000,
        }),
        new PeriodicExportingMetricReader({
          exporter: new JsonMetricExporter({
            url: `${baseUrl}/json/v1/metrics`,
            compression: CompressionAlgorithm.GZIP,
            temporalityPreference: AggregationTemporality.DELTA,
          }),
          exportIntervalMillis: 3_600_000,
        }),
      ],
    });
    const meter = provider.getMeter('test-meter');
    meter.createCounter('orders.placed').add(3, { region: 'eu' });
    meter.createUpDownCounter('queue.depth').add(-2);
    meter.createGauge('cpu.temperature', { unit: 'Cel' }).record(61.5);
    const latency = meter.createHistogram('http.server.duration', { unit: 'ms' });
    latency.record(10);
    latency.record(30);
    const payload = meter.createHistogram('payload.size', { unit: 'By' });
    payload.record(100, { route: '/upload' });
    payload.record(300, { route: '/upload' });
    await provider.forceFlush();
    await provider.shutdown();

    const [protoRequest] = takeCaptured('/proto/v1/metrics');
    const [jsonRequest] = takeCaptured('/json/v1/metrics');
    const fromProto = decodeMetricsRequest(protoRequest!.body, otlpEncodingOf(protoRequest!.contentType));
    const fromJson = decodeMetricsRequest(jsonRequest!.body, otlpEncodingOf(jsonRequest!.contentType));
    expect(jsonRequest!.contentEncoding).toBe('gzip');
    // Collection times differ between the two readers; everything else matches.
    const withoutTimes = (metrics: OtlpMetric[]): unknown =>
      JSON.parse(JSON.stringify(metrics, (key, value: unknown) => (key.endsWith('UnixNano') ? undefined : value)));
    const metricsOf = (request: typeof fromProto): OtlpMetric[] =>
      request.resourceMetrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
    expect(withoutTimes(metricsOf(fromJson))).toEqual(withoutTimes(metricsOf(fromProto)));

    const byName = new Map(metricsOf(fromProto).map((metric) => [metric.name, metric]));
    expect(byName.get('orders.placed')!.data).toMatchObject({
      type: 'sum',
      isMonotonic: true,
      temporality: 'DELTA',
      points: [{ value: 3, attributes: [{ key: 'region', value: { type: 'string', value: 'eu' } }] }],
    });
    expect(byName.get('queue.depth')!.data).toMatchObject({ type: 'sum', isMonotonic: false, points: [{ value: -2 }] });
    expect(byName.get('cpu.temperature')).toMatchObject({
      unit: 'Cel',
      data: { type: 'gauge', points: [{ value: 61.5 }] },
    });
    expect(byName.get('http.server.duration')!.data).toMatchObject({
      type: 'histogram',
      temporality: 'DELTA',
      points: [{ count: 2, sum: 40 }],
    });
    expect(byName.get('payload.size')!.data).toMatchObject({
      type: 'exponentialHistogram',
      temporality: 'DELTA',
      points: [{ count: 2, sum: 400, attributes: [{ key: 'route', value: { type: 'string', value: '/upload' } }] }],
    });
    const point = (byName.get('orders.placed')!.data as { points: { timeUnixNano: bigint }[] }).points[0]!;
    expect(point.timeUnixNano).toBeGreaterThan(0n);
  });
});

describe('logs from the SDK exporters', () => {
  it('decode identically from protobuf and JSON: severity, body, trace context, attributes', async () => {
    const provider = new LoggerProvider({
      resource,
      processors: [
        new SimpleLogRecordProcessor({ exporter: new ProtoLogExporter({ url: `${baseUrl}/proto/v1/logs` }) }),
        new SimpleLogRecordProcessor({ exporter: new JsonLogExporter({ url: `${baseUrl}/json/v1/logs` }) }),
      ],
    });
    const logger = provider.getLogger('test-logger');
    const traceContext: SpanContext = {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
    };
    logger.emit({
      severityNumber: SeverityNumber.WARN,
      severityText: 'WARN',
      body: 'disk almost full',
      attributes: { 'disk.free_bytes': 1024 },
      context: trace.setSpanContext(context.active(), traceContext),
    });
    logger.emit({ severityNumber: SeverityNumber.INFO, body: { event: 'signup', plan: 'pro' } });
    await provider.forceFlush();
    await provider.shutdown();

    const fromProto = takeCaptured('/proto/v1/logs').map((request) => decodeLogsRequest(request.body, 'protobuf'));
    const fromJson = takeCaptured('/json/v1/logs').map((request) => decodeLogsRequest(request.body, 'json'));
    expect(fromJson).toEqual(fromProto);
    const records = fromProto.flatMap((request) =>
      request.resourceLogs.flatMap((rl) => rl.scopeLogs.flatMap((sl) => sl.logRecords)),
    );
    expect(records[0]).toMatchObject({
      severityNumber: 13,
      severityText: 'WARN',
      body: { type: 'string', value: 'disk almost full' },
      traceId: traceContext.traceId,
      spanId: traceContext.spanId,
      attributes: [{ key: 'disk.free_bytes', value: { type: 'int', value: 1024 } }],
    });
    expect(records[1]).toMatchObject({
      severityNumber: 9,
      traceId: '',
      spanId: '',
      body: {
        type: 'kvlist',
        value: [
          { key: 'event', value: { type: 'string', value: 'signup' } },
          { key: 'plan', value: { type: 'string', value: 'pro' } },
        ],
      },
    });
    expect(records[0]!.timeUnixNano).toBeGreaterThan(0n);
    expect(records[0]!.observedTimeUnixNano).toBeGreaterThan(0n);
  });
});
