/**
 * Adversarial bodies at all four OTLP routes of the real service (chDB storage included): random
 * bytes, SDK-made protobuf and OTLP/JSON bodies truncated and mutated, random JSON, deep nesting,
 * huge strings, out-of-range enums and times, lone surrogates, truncated gzip. Every answer must
 * be 200, 400 or 413: never a 500, and never a 503 from a row the store refuses (which would fail
 * every request batched with it).
 *
 * Bodies are generated with fast-check up front and sent concurrently (as exporters do, so the
 * group-commit writer batches them); any request answered otherwise is sent again alone, to name
 * the body that caused it. Heap use is sampled after each round: it must stay bounded.
 */
import zlib from 'node:zlib';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import {
  JsonLogsSerializer,
  JsonMetricsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufMetricsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import {
  AggregationTemporality,
  AggregationType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesOf,
  fixed64Field,
  hexField,
  messageField,
  stringAttribute,
  stringField,
  varintField,
} from '../../support/otlp-protobuf.js';
import { byteEdits, jsonPaths, mutateBytes, replaceAt } from '../../support/otlp-fuzz.js';
import { registerUser, startTestService, type TestService } from '../../support/service.js';

const PROTOBUF = 'application/x-protobuf';
const ROUTES = {
  traces: '/api/otel/v1/traces',
  metrics: '/api/otel/v1/metrics',
  logs: '/api/otel/v1/logs',
  profiles: '/api/otel/v1development/profiles',
} as const;
type Signal = keyof typeof ROUTES;
const SIGNALS = Object.keys(ROUTES) as Signal[];
const ALLOWED = new Set([200, 400, 413]);
const CONCURRENCY = 32;
/** The heap may hold a few 10 MB bodies in flight, never thousands of them. */
const HEAP_BOUND_BYTES = 768 * 1024 * 1024;
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);

interface FuzzRequest {
  what: string;
  url: string;
  contentType: string;
  contentEncoding?: string;
  body: Buffer;
}

let service: TestService;
let token: string;
let maxHeap = 0;
const answered = new Map<number, number>();

beforeAll(async () => {
  service = await startTestService();
  token = (await registerUser(service.app)).project.token;
});

afterAll(async () => {
  await service?.close();
});

async function post(request: FuzzRequest): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': request.contentType };
  if (request.contentEncoding) headers['content-encoding'] = request.contentEncoding;
  const response = await service.app.inject({ method: 'POST', url: request.url, headers, payload: request.body });
  return response.statusCode;
}

const describeBody = (request: FuzzRequest) =>
  `${request.what} → ${request.url} (${request.contentType}${request.contentEncoding ? `, ${request.contentEncoding}` : ''}, ${request.body.length} bytes): ${request.body.subarray(0, 300).toString('base64')}`;

/**
 * Sends every request, CONCURRENCY at a time; answers other than 200/400/413 are retried alone
 * (a refused insert fails the whole group commit, so the culprit must be isolated).
 */
async function sendAll(requests: readonly FuzzRequest[]): Promise<void> {
  const suspects: FuzzRequest[] = [];
  for (let start = 0; start < requests.length; start += CONCURRENCY) {
    const slice = requests.slice(start, start + CONCURRENCY);
    const statuses = await Promise.all(slice.map(post));
    statuses.forEach((status, i) => {
      answered.set(status, (answered.get(status) ?? 0) + 1);
      if (!ALLOWED.has(status)) suspects.push(slice[i]!);
    });
  }
  maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed);
  const culprits: string[] = [];
  for (const suspect of suspects) {
    const status = await post(suspect);
    if (!ALLOWED.has(status)) culprits.push(`${status}: ${describeBody(suspect)}`);
  }
  expect(culprits).toEqual([]);
  // A batch with a refused row fails every request in it: none should have been seen at all.
  expect(suspects.map(describeBody)).toEqual([]);
}

const sample = <T>(arbitrary: fc.Arbitrary<T>, runs: number, offset: number): T[] =>
  fc.sample(arbitrary, { numRuns: runs, seed: SEED + offset });

// ---- valid bodies made by the SDK ---------------------------------------------------------------

const NOW_MS = Date.now();

interface ValidBodies {
  protobuf: Record<Exclude<Signal, 'profiles'>, Uint8Array>;
  json: Record<Exclude<Signal, 'profiles'>, unknown>;
}

async function sdkBodies(): Promise<ValidBodies> {
  const resource = resourceFromAttributes({
    'service.name': 'fuzz',
    'service.version': '1.0.0',
    'host.name': 'fuzz-1',
  });

  const spanExporter = new InMemorySpanExporter();
  const tracing = new NodeTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const tracer = tracing.getTracer('fuzz');
  const server = tracer.startSpan('GET /users/:id', {
    kind: SpanKind.SERVER,
    attributes: {
      'http.request.method': 'GET',
      'http.route': '/users/:id',
      'http.response.status_code': 200,
      'client.address': '10.0.0.1',
      tags: ['a', 'b'],
    },
  });
  const inRequest = trace.setSpan(context.active(), server);
  const llm = tracer.startSpan(
    'chat',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.usage.output_tokens': 5,
        'gen_ai.usage.total_cost': 0.5,
        'gen_ai.input.messages': '[{"role":"user","parts":[{"type":"text","content":"hi"}]}]',
        'gen_ai.prompt.0.content': 'hello',
        'gen_ai.completion.0.tool_calls.0.name': 'lookup',
      },
    },
    inRequest,
  );
  llm.addEvent('gen_ai.choice', { index: 0, finish_reason: 'stop' });
  llm.end();
  const child = tracer.startSpan(
    'db',
    { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql' } },
    inRequest,
  );
  child.recordException(new Error('boom'));
  child.setStatus({ code: SpanStatusCode.ERROR });
  child.end();
  server.end();
  const consumer = tracer.startSpan('queue process', {
    kind: SpanKind.CONSUMER,
    attributes: { 'sightline.distributed_trace_id': '0af7651916cd43dd8448eb211c80319c' },
  });
  consumer.end();
  tracer.startSpan('cli', { attributes: { 'console.command': 'migrate' } }).end();
  const spans = spanExporter.getFinishedSpans();

  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const meters = new MeterProvider({
    resource,
    views: [{ instrumentName: 'sizes', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }],
    readers: [new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 })],
  });
  const meter = meters.getMeter('fuzz');
  meter.createCounter('count').add(2, { k: 'v' });
  meter.createUpDownCounter('level').add(-3);
  meter.createGauge('gauge').record(1.5);
  meter.createHistogram('latency').record(12);
  meter.createHistogram('sizes').record(100);
  await meters.forceFlush();
  const resourceMetrics = metricExporter.getMetrics()[0]!;
  await meters.shutdown();

  const logExporter = new InMemoryLogRecordExporter();
  const logging = new LoggerProvider({
    resource,
    processors: [new SimpleLogRecordProcessor({ exporter: logExporter })],
  });
  const logger = logging.getLogger('fuzz');
  logger.emit({
    severityNumber: SeverityNumber.WARN,
    body: 'text',
    attributes: { n: 1 },
    context: trace.setSpan(context.active(), server),
  });
  logger.emit({ severityNumber: SeverityNumber.ERROR, body: { structured: [1, 2, { deep: true }] } });
  const logs = logExporter.getFinishedLogRecords();

  const decodeJson = (bytes: Uint8Array | undefined) => JSON.parse(Buffer.from(bytes!).toString()) as unknown;
  return {
    protobuf: {
      traces: ProtobufTraceSerializer.serializeRequest(spans)!,
      metrics: ProtobufMetricsSerializer.serializeRequest(resourceMetrics)!,
      logs: ProtobufLogsSerializer.serializeRequest(logs)!,
    },
    json: {
      traces: decodeJson(JsonTraceSerializer.serializeRequest(spans)),
      metrics: decodeJson(JsonMetricsSerializer.serializeRequest(resourceMetrics)),
      logs: decodeJson(JsonLogsSerializer.serializeRequest(logs)),
    },
  };
}

/** Hand-made protobuf bodies with fields the SDK never sends (times at the edges, every value kind). */
const HAND_MADE_PROTOBUF: Array<[Signal, Uint8Array]> = [
  [
    'traces',
    bytesOf(
      messageField(
        1,
        messageField(1, stringAttribute(1, 'service.name', 'hand')),
        messageField(
          2,
          messageField(
            2,
            hexField(1, '5b8efff798038103d269b633813fc60c'),
            hexField(2, 'a000000000000001'),
            hexField(4, 'a000000000000009'),
            stringField(5, 'GET /x'),
            varintField(6, 2),
            fixed64Field(7, 2n ** 64n - 1n),
            fixed64Field(8, 1n),
            stringAttribute(9, 'http.route', '/x'),
            messageField(
              11,
              fixed64Field(1, 2n ** 63n),
              stringField(2, 'exception'),
              stringAttribute(3, 'exception.stacktrace', 'Error: x\n    at y'),
            ),
          ),
        ),
      ),
    ),
  ],
  [
    'metrics',
    bytesOf(
      messageField(
        1,
        messageField(
          2,
          messageField(
            2,
            stringField(1, 'edge'),
            messageField(5, messageField(1, fixed64Field(3, 2n ** 64n - 1n), fixed64Field(6, 5n))),
          ),
        ),
      ),
    ),
  ],
  [
    'logs',
    bytesOf(
      messageField(
        1,
        messageField(
          2,
          messageField(
            2,
            fixed64Field(1, 2n ** 63n),
            fixed64Field(11, 2n ** 63n + 5n),
            varintField(2, 24),
            messageField(5, stringField(1, 'edge')),
          ),
        ),
      ),
    ),
  ],
  [
    'profiles',
    bytesOf(
      messageField(
        1,
        messageField(1, stringAttribute(1, 'service.name', 'p')),
        messageField(2, messageField(2, messageField(2, varintField(1, 1)))),
      ),
    ),
  ],
];

/** OTLP/JSON ExportMetricsServiceRequest text of one metric. */
const metricsDocument = (metric: unknown): string =>
  JSON.stringify({ resourceMetrics: [{ scopeMetrics: [{ metrics: [metric] }] }] });

/** A protobuf ExportTraceServiceRequest of one span (trace 5b8e…, span a000…01) with these fields besides its ids. */
const oneSpanBody = (...fields: number[][]): Buffer =>
  Buffer.from(
    bytesOf(
      messageField(
        1,
        messageField(
          2,
          messageField(2, hexField(1, '5b8efff798038103d269b633813fc60c'), hexField(2, 'a000000000000001'), ...fields),
        ),
      ),
    ),
  );

/** A body of each encoding whose one enum field (span kind or status, temporality, severity) is `value`. */
function enumBodies(
  field: 'kind' | 'status' | 'temporality' | 'severity',
  value: number,
): { what: string; signal: Signal; document: string; protobuf: Uint8Array } {
  const now = String(BigInt(NOW_MS) * 1_000_000n);
  const protobufValue = BigInt(value);
  switch (field) {
    case 'kind':
    case 'status': {
      const span =
        field === 'kind'
          ? { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'a000000000000001', kind: value }
          : { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'a000000000000001', status: { code: value } };
      return {
        what: `span ${field} ${value}`,
        signal: 'traces',
        document: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }),
        protobuf: oneSpanBody(
          field === 'kind' ? varintField(6, protobufValue) : messageField(15, varintField(3, protobufValue)),
        ),
      };
    }
    case 'temporality':
      return {
        what: `temporality ${value}`,
        signal: 'metrics',
        document: metricsDocument({
          name: 'm',
          sum: { aggregationTemporality: value, dataPoints: [{ timeUnixNano: now, asInt: '1' }] },
        }),
        protobuf: bytesOf(
          messageField(
            1,
            messageField(2, messageField(2, stringField(1, 'm'), messageField(7, varintField(2, protobufValue)))),
          ),
        ),
      };
    default:
      return {
        what: `severity ${value}`,
        signal: 'logs',
        document: JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ severityNumber: value }] }] }] }),
        protobuf: bytesOf(messageField(1, messageField(2, messageField(2, varintField(2, protobufValue))))),
      };
  }
}

// ---- mutations ----------------------------------------------------------------------------------

const BYTE_EDITS = byteEdits(['flip', 'insert', 'cut', 'duplicate'], 6);

/** Values chosen to hit the edges of every column: ids, times, enums, numbers, text. */
const edgeValue = fc.oneof(
  fc.constantFrom(
    '18446744073709551615',
    '18446744073709551616',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775809',
    '-1',
    '0',
    '1e400',
    'NaN',
    'Infinity',
    '-Infinity',
    '',
    '00000000000000000000000000000000',
    'ffffffffffffffffffffffffffffffff',
    '\ud800',
    'a\udc00b',
    '\u0000',
    '/',
    '/**',
    '*/*',
    'GET /api/*',
    'text/event-stream',
  ),
  fc.constantFrom(
    -1,
    0,
    1,
    2,
    3,
    5,
    6,
    24,
    25,
    255,
    256,
    65_535,
    65_536,
    2 ** 31,
    2 ** 32,
    2 ** 53 + 1,
    1e308,
    -1e308,
    0.5,
    -0.0,
  ),
  fc.constantFrom(true, false, null, [], {}),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }),
);

// ---- the properties -----------------------------------------------------------------------------

describe('every OTLP route answers 200, 400 or 413 to whatever it is sent', () => {
  let valid: ValidBodies;
  beforeAll(async () => {
    valid = await sdkBodies();
  });

  it('random bytes as protobuf, and as JSON', async () => {
    const requests = sample(
      fc.tuple(fc.constantFrom(...SIGNALS), fc.uint8Array({ maxLength: 600 }), fc.boolean()),
      800,
      1,
    ).map(([signal, bytes, asJson]) => ({
      what: 'random bytes',
      url: ROUTES[signal],
      contentType: asJson ? 'application/json' : PROTOBUF,
      body: Buffer.from(bytes),
    }));
    await sendAll(requests);
  });

  it('SDK-made and hand-made protobuf bodies, truncated and mutated, at their own route and at others', async () => {
    const bases: Array<[Signal, Uint8Array]> = [
      ...(Object.entries(valid.protobuf) as Array<[Signal, Uint8Array]>),
      ...HAND_MADE_PROTOBUF,
    ];
    // The intact bodies first: they must be stored (200) on their own route.
    for (const [signal, body] of bases)
      expect(
        await post({ what: 'intact', url: ROUTES[signal], contentType: PROTOBUF, body: Buffer.from(body) }),
        signal,
      ).toBe(200);
    const arbitrary = fc.tuple(
      fc.constantFrom(...bases),
      BYTE_EDITS,
      fc.oneof(fc.constant<Signal | undefined>(undefined), fc.constantFrom(...SIGNALS)),
    );
    const requests = sample(arbitrary, 1500, 2).map(([[signal, body], edits, otherRoute]) => ({
      what: `mutated ${signal} protobuf`,
      url: ROUTES[otherRoute ?? signal],
      contentType: PROTOBUF,
      body: mutateBytes(body, edits),
    }));
    await sendAll(requests);
  });

  it('random text and JSON values as OTLP/JSON', async () => {
    const requests = [
      ...sample(fc.tuple(fc.constantFrom(...SIGNALS), fc.string({ unit: 'binary', maxLength: 300 })), 300, 3).map(
        ([signal, text]) => ({
          what: 'random text',
          url: ROUTES[signal],
          contentType: 'application/json',
          body: Buffer.from(text),
        }),
      ),
      ...sample(fc.tuple(fc.constantFrom(...SIGNALS), fc.jsonValue({ maxDepth: 6 })), 500, 4).map(
        ([signal, value]) => ({
          what: 'random JSON',
          url: ROUTES[signal],
          contentType: 'application/json',
          body: Buffer.from(JSON.stringify(value) ?? 'null'),
        }),
      ),
    ];
    await sendAll(requests);
  });

  it('SDK-made OTLP/JSON with one value replaced by an edge value or any JSON value', async () => {
    const bases = Object.entries(valid.json).map(([signal, document]) => ({
      signal: signal as Signal,
      document,
      paths: jsonPaths(document),
    }));
    for (const { signal, document } of bases) {
      expect(
        await post({
          what: 'intact',
          url: ROUTES[signal],
          contentType: 'application/json',
          body: Buffer.from(JSON.stringify(document)),
        }),
        signal,
      ).toBe(200);
    }
    const arbitrary = fc
      .constantFrom(...bases)
      .chain((base) =>
        fc.tuple(
          fc.constant(base),
          fc.array(fc.tuple(fc.constantFrom(...base.paths), edgeValue), { minLength: 1, maxLength: 3 }),
        ),
      );
    const requests = sample(arbitrary, 2000, 5).map(([{ signal, document }, replacements]) => ({
      what: `mutated ${signal} JSON`,
      url: ROUTES[signal],
      contentType: 'application/json',
      body: Buffer.from(
        JSON.stringify(replacements.reduce<unknown>((doc, [path, value]) => replaceAt(doc, path, value), document)),
      ),
    }));
    await sendAll(requests);
  });

  it('enum values out of range, in both encodings', async () => {
    const enumCase = fc.tuple(
      fc.constantFrom('kind', 'status', 'temporality', 'severity'),
      fc.integer({ min: -(2 ** 31), max: 2 ** 32 }),
      fc.boolean(),
    );
    const requests = sample(enumCase, 400, 6).map(([field, value, json]): FuzzRequest => {
      const { what, signal, document, protobuf } = enumBodies(field, value);
      return json
        ? { what, url: ROUTES[signal], contentType: 'application/json', body: Buffer.from(document) }
        : { what, url: ROUTES[signal], contentType: PROTOBUF, body: Buffer.from(protobuf) };
    });
    await sendAll(requests);
  });

  it('deep nesting, huge strings and bodies around the cap', async () => {
    const depth = 100_000;
    const deepArrays = '['.repeat(depth) + ']'.repeat(depth);
    let deepValue = '{"stringValue":"leaf"}';
    for (let i = 0; i < 2_000; i++) deepValue = `{"kvlistValue":{"values":[{"key":"k","value":${deepValue}}]}}`;
    let deepProtobuf: number[] = stringField(1, 'leaf');
    // 1,000 levels of kvlist (the decoders stop at 32; building deeper ones here is quadratic).
    for (let i = 0; i < 1_000; i++)
      deepProtobuf = messageField(5, messageField(1, stringField(1, 'k'), messageField(2, deepProtobuf)));
    const span = (attributeJson: string) =>
      `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"a000000000000001","kind":2,"attributes":[{"key":"http.request.method","value":{"stringValue":"GET"}},{"key":"x","value":${attributeJson}}]}]}]}]}`;
    const huge = 'x'.repeat(4 * 1024 * 1024);
    const hugeMessage = JSON.stringify(
      JSON.stringify([{ role: 'user', content: '['.repeat(50_000) + ']'.repeat(50_000) }]),
    );
    const requests: FuzzRequest[] = [
      ...SIGNALS.map((signal) => ({
        what: 'deeply nested arrays',
        url: ROUTES[signal],
        contentType: 'application/json',
        body: Buffer.from(deepArrays),
      })),
      ...SIGNALS.map((signal) => ({
        what: 'deeply nested object',
        url: ROUTES[signal],
        contentType: 'application/json',
        body: Buffer.from(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
      })),
      {
        what: 'deeply nested kvlist value',
        url: ROUTES.traces,
        contentType: 'application/json',
        body: Buffer.from(span(deepValue)),
      },
      {
        what: 'deeply nested protobuf value',
        url: ROUTES.traces,
        contentType: PROTOBUF,
        body: oneSpanBody(messageField(9, stringField(1, 'x'), messageField(2, deepProtobuf))),
      },
      {
        what: 'a 4 MB attribute',
        url: ROUTES.traces,
        contentType: 'application/json',
        body: Buffer.from(span(JSON.stringify({ stringValue: huge }))),
      },
      {
        what: 'a 4 MB log body',
        url: ROUTES.logs,
        contentType: 'application/json',
        body: Buffer.from(
          JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: huge } }] }] }] }),
        ),
      },
      {
        what: 'a 4 MB metric name',
        url: ROUTES.metrics,
        contentType: 'application/json',
        body: Buffer.from(
          metricsDocument({
            name: huge,
            gauge: { dataPoints: [{ timeUnixNano: String(BigInt(NOW_MS) * 1_000_000n), asDouble: 1 }] },
          }),
        ),
      },
      {
        what: 'a conversation nested 50,000 deep',
        url: ROUTES.traces,
        contentType: 'application/json',
        body: Buffer.from(
          `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"a000000000000002","kind":3,"attributes":[{"key":"gen_ai.input.messages","value":{"stringValue":${hugeMessage}}}]}]}]}]}`,
        ),
      },
      {
        what: '50,000 attributes',
        url: ROUTES.traces,
        contentType: PROTOBUF,
        body: oneSpanBody(...Array.from({ length: 50_000 }, (_, i) => stringAttribute(9, `k${i}`, 'v'))),
      },
      {
        what: '20,000 spans in a parent cycle',
        url: ROUTES.traces,
        contentType: PROTOBUF,
        body: Buffer.from(
          bytesOf(
            messageField(
              1,
              messageField(
                2,
                ...Array.from({ length: 20_000 }, (_, i) =>
                  messageField(
                    2,
                    hexField(1, '5b8efff798038103d269b633813fc60c'),
                    hexField(2, (i + 1).toString(16).padStart(16, '0')),
                    hexField(4, (((i + 1) % 20_000) + 1).toString(16).padStart(16, '0')),
                    stringAttribute(9, 'http.request.method', 'GET'),
                  ),
                ),
              ),
            ),
          ),
        ),
      },
      ...SIGNALS.map((signal) => ({
        what: 'a plain body over the cap',
        url: ROUTES[signal],
        contentType: PROTOBUF,
        body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x0a),
      })),
    ];
    await sendAll(requests);
  });

  it('gzip: truncated, with trailing garbage, corrupted, and random bytes that claim gzip', async () => {
    const compressed = [
      ...Object.entries(valid.protobuf).map(
        ([signal, body]) => [signal as Signal, PROTOBUF, zlib.gzipSync(body)] as const,
      ),
      ...Object.entries(valid.json).map(
        ([signal, document]) =>
          [signal as Signal, 'application/json', zlib.gzipSync(JSON.stringify(document))] as const,
      ),
    ];
    const arbitrary = fc.tuple(
      fc.constantFrom(...compressed),
      fc.oneof(fc.constant('truncate'), fc.constant('append'), fc.constant('corrupt'), fc.constant('random')),
      fc.nat(),
      fc.uint8Array({ minLength: 1, maxLength: 64 }),
    );
    const requests = sample(arbitrary, 400, 7).map(([[signal, contentType, gzipped], kind, at, bytes]) => {
      let body: Buffer;
      if (kind === 'truncate') body = gzipped.subarray(0, at % gzipped.length);
      else if (kind === 'append') body = Buffer.concat([gzipped, bytes]);
      else if (kind === 'corrupt')
        body = mutateBytes(gzipped, [{ at: 10 + (at % (gzipped.length - 10)), byte: bytes[0]!, kind: 'flip' }]);
      else body = Buffer.from(bytes);
      return { what: `${kind} gzip ${signal}`, url: ROUTES[signal], contentType, contentEncoding: 'gzip', body };
    });
    await sendAll(requests);
  });

  it('answered every request with 200, 400 or 413, and kept the heap bounded', () => {
    console.info(
      `OTLP route fuzz: ${[...answered].map(([status, count]) => `${count} × ${status}`).join(', ')}; heap peak ${Math.round(maxHeap / 1024 / 1024)} MB`,
    );
    expect([...answered.keys()].filter((status) => !ALLOWED.has(status))).toEqual([]);
    // Both outcomes were exercised in quantity: stored and refused.
    expect(answered.get(200)).toBeGreaterThan(500);
    expect(answered.get(400)).toBeGreaterThan(500);
    expect(maxHeap).toBeLessThan(HEAP_BOUND_BYTES);
  });
});
