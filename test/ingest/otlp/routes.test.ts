/**
 * The OTLP/HTTP routes' answers, on the real service (chDB): who may send, what a body may be,
 * and what a success looks like in each encoding, read back from storage where it matters.
 * Classification itself is proven by sdk-end-to-end.test.ts and the classifier's unit tests.
 */
import { request as httpRequest } from 'node:http';
import zlib from 'node:zlib';
import { context, SpanKind, trace } from '@opentelemetry/api';
import {
  JsonTraceSerializer,
  ProtobufMetricsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesOf,
  doubleField,
  fixed64Field,
  hexField,
  messageField,
  stringAttribute,
  stringField,
  varintField,
} from '../../support/otlp-protobuf.js';
import { listeningTestService, registerUser, type ListeningTestService } from '../../support/service.js';
import { usageMonth } from '../../../src/ingest/usage.js';
import { organizationIngestBytes, projectIngestUsage } from '../../../src/store/meta/repositories/ingest-usage.js';

const PROTOBUF = 'application/x-protobuf';
const ROUTES = [
  '/api/otel/v1/traces',
  '/api/otel/v1/metrics',
  '/api/otel/v1/logs',
  '/api/otel/v1development/profiles',
] as const;
const TEN_MB = 10 * 1024 * 1024;
/** Records must be recent: older rows fall outside the tables' retention (TTL) at once. */
const NOW = BigInt(Date.now()) * 1_000_000n;

let service: ListeningTestService;
let token: string;
let sessionToken: string;
let projectId: string;
let organizationId: string;

/** Real SDK spans: a SERVER request with a child, serialized by the SDK's own serializers. */
function sdkSpans(route: string): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'routes-test' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('routes-test');
  const server = tracer.startSpan(`GET ${route}`, {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': 'GET', 'http.route': route, 'http.response.status_code': 200 },
  });
  tracer.startSpan('db.query', { kind: SpanKind.CLIENT }, trace.setSpan(context.active(), server)).end();
  server.end();
  return exporter.getFinishedSpans();
}

const send = (url: string, payload: Buffer | Uint8Array | string, headers: Record<string, string> = {}) =>
  service.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': PROTOBUF, ...headers },
    payload: Buffer.from(payload as Uint8Array),
  } as InjectOptions);

/**
 * The error of a failed export as its client reads it: a protobuf request's answer is a
 * google.rpc.Status (code = 1, message = 2), decoded here by hand; a JSON request's is `{error}`.
 */
function exportError(response: {
  headers: Record<string, unknown>;
  rawPayload: Buffer;
  json: () => { error: string };
}) {
  if (response.headers['content-type'] !== PROTOBUF) return { code: undefined, message: response.json().error };
  const bytes = response.rawPayload;
  let pos = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[pos++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  let code: number | undefined;
  let message = '';
  while (pos < bytes.length) {
    const tag = varint();
    if (tag === 0x08) code = varint();
    else if (tag === 0x12) {
      const length = varint();
      message = bytes.subarray(pos, pos + length).toString('utf8');
      pos += length;
    } else throw new Error(`unexpected field tag ${tag} in a Status`);
  }
  return { code, message };
}

const query = <T = Record<string, unknown>>(sql: string, params: Record<string, string> = {}) =>
  service.services.telemetry.query<T>(sql, { project: projectId, ...params });

async function endpointNamed(name: string): Promise<Record<string, unknown>[]> {
  return query(
    `SELECT name, status_code, server_name FROM endpoints FINAL WHERE project_id = {project:UUID} AND name = {name:String}`,
    { name },
  );
}

beforeAll(async () => {
  service = await listeningTestService();
  const registered = await registerUser(service.app);
  token = registered.project.token;
  sessionToken = registered.token;
  projectId = registered.project.id;
  organizationId = registered.organization.id;
});

afterAll(async () => {
  await service?.close();
});

describe('credentials', () => {
  const body = Buffer.alloc(0);
  it.each([
    ['no Authorization header', undefined],
    [
      'a token reformatted with UUID dashes',
      () =>
        `Bearer ${token.slice(0, 8)}-${token.slice(8, 12)}-${token.slice(12, 16)}-${token.slice(16, 20)}-${token.slice(20)}`,
    ],
    ['the token in upper case', () => `Bearer ${token.toUpperCase()}`],
    ['a scheme other than `Bearer `', () => `bearer ${token}`],
    ['an unknown token', () => `Bearer ${'0'.repeat(32)}`],
    ['a dashboard session token', () => `Bearer ${sessionToken}`],
  ])('%s: 401 with an empty body, on every route', async (_case, authorization) => {
    for (const url of ROUTES) {
      const headers: Record<string, string> = { 'content-type': PROTOBUF };
      if (authorization) headers.authorization = authorization();
      const response = await service.app.inject({ method: 'POST', url, headers, payload: body });
      expect(response.statusCode, url).toBe(401);
      expect(response.body, url).toBe('');
    }
  });

  it('CORS preflight answers without a token, allowing the headers a browser exporter sends', async () => {
    for (const url of ROUTES) {
      const response = await service.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, content-encoding',
        },
      });
      expect(response.statusCode, url).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
      expect(String(response.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/)).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'content-encoding']),
      );
      expect(Number(response.headers['access-control-max-age'])).toBeGreaterThan(0);
    }
    // The export itself carries the allow-origin header too.
    const exported = await send(ROUTES[0], ProtobufTraceSerializer.serializeRequest(sdkSpans('/cors'))!, {
      origin: 'https://app.example.com',
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });
});

describe('success answers', () => {
  it('protobuf: 200 with an empty ExportServiceResponse (an empty body), on every route, and the data stored', async () => {
    const bodies: Record<(typeof ROUTES)[number], Uint8Array> = {
      '/api/otel/v1/traces': ProtobufTraceSerializer.serializeRequest(sdkSpans('/protobuf'))!,
      '/api/otel/v1/metrics': bytesOf(
        messageField(
          1,
          messageField(
            2,
            messageField(
              2,
              stringField(1, 'jobs.queued'),
              messageField(5, messageField(1, fixed64Field(3, NOW), fixed64Field(6, 3n))),
            ),
          ),
        ),
      ),
      '/api/otel/v1/logs': bytesOf(
        messageField(
          1,
          messageField(
            2,
            messageField(2, fixed64Field(1, NOW), varintField(2, 9), messageField(5, stringField(1, 'hello protobuf'))),
          ),
        ),
      ),
      '/api/otel/v1development/profiles': bytesOf(
        messageField(
          1,
          messageField(1, stringAttribute(1, 'service.name', 'profiled')),
          messageField(2, messageField(2, messageField(2, varintField(1, 1)))),
        ),
      ),
    };
    for (const url of ROUTES) {
      const response = await send(url, bodies[url]);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe(PROTOBUF);
      expect(response.rawPayload.length, url).toBe(0);
    }
    expect(await endpointNamed('GET /protobuf')).toEqual([
      { name: 'GET /protobuf', status_code: 200, server_name: 'routes-test' },
    ]);
    expect(
      await query(`SELECT value FROM metric_points FINAL WHERE project_id = {project:UUID} AND name = 'jobs.queued'`),
    ).toEqual([{ value: 3 }]);
    expect(
      await query(
        `SELECT severity_number, body FROM logs FINAL WHERE project_id = {project:UUID} AND body = 'hello protobuf'`,
      ),
    ).toEqual([{ severity_number: 9, body: 'hello protobuf' }]);
    // Profiles: the raw body in the object store, a row with its time, service and sample count.
    const [profile] = await query<{
      object_key: string;
      service_name: string;
      sample_count: number;
      byte_size: number;
      content_type: string;
    }>(
      `SELECT object_key, service_name, sample_count, byte_size, content_type FROM profiles WHERE project_id = {project:UUID} AND content_type = {type:String}`,
      { type: PROTOBUF },
    );
    expect(profile).toMatchObject({
      service_name: 'profiled',
      sample_count: 1,
      byte_size: bodies['/api/otel/v1development/profiles'].length,
    });
    expect(Buffer.from((await service.services.objects.get(profile!.object_key))!)).toEqual(
      Buffer.from(bodies['/api/otel/v1development/profiles']),
    );
  });

  it('JSON: 200 with `{}`, on every route, whatever the non-protobuf content type', async () => {
    const bodies: Record<(typeof ROUTES)[number], string> = {
      '/api/otel/v1/traces': Buffer.from(JsonTraceSerializer.serializeRequest(sdkSpans('/json'))!).toString(),
      '/api/otel/v1/metrics': JSON.stringify({
        resourceMetrics: [
          {
            scopeMetrics: [
              {
                metrics: [{ name: 'jobs.json', gauge: { dataPoints: [{ timeUnixNano: String(NOW), asDouble: 2.5 }] } }],
              },
            ],
          },
        ],
      }),
      '/api/otel/v1/logs': JSON.stringify({
        resourceLogs: [
          {
            scopeLogs: [
              { logRecords: [{ timeUnixNano: String(NOW), severityNumber: 17, body: { stringValue: 'hello json' } }] },
            ],
          },
        ],
      }),
      '/api/otel/v1development/profiles': JSON.stringify({
        resourceProfiles: [{ scopeProfiles: [{ profiles: [{ samples: [{}, {}] }] }] }],
      }),
    };
    for (const [url, contentType] of ROUTES.map(
      (route, i) =>
        [route, ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json'][i]!] as const,
    )) {
      const response = await send(url, bodies[url], { 'content-type': contentType });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.body, url).toBe('{}');
    }
    expect(await endpointNamed('GET /json')).toEqual([
      { name: 'GET /json', status_code: 200, server_name: 'routes-test' },
    ]);
    expect(
      await query(`SELECT value FROM metric_points FINAL WHERE project_id = {project:UUID} AND name = 'jobs.json'`),
    ).toEqual([{ value: 2.5 }]);
    expect(
      await query(`SELECT severity_number FROM logs FINAL WHERE project_id = {project:UUID} AND body = 'hello json'`),
    ).toEqual([{ severity_number: 17 }]);
  });

  it('stores Summary points, protobuf and OTLP/JSON, as .avg, .count and quantiles, with no partial_success', async () => {
    const quantile = (q: number, value: number) => messageField(6, doubleField(1, q), doubleField(2, value));
    const point = messageField(
      1,
      stringAttribute(7, 'rpc.method', 'Get'),
      fixed64Field(3, NOW),
      fixed64Field(4, 4n),
      doubleField(5, 10),
      quantile(0.5, 2),
      quantile(0.9, 4),
      quantile(0.99, 5),
    );
    const protobuf = await send(
      '/api/otel/v1/metrics',
      bytesOf(messageField(1, messageField(2, messageField(2, stringField(1, 'rpc.proto'), messageField(11, point))))),
    );
    expect(protobuf.statusCode).toBe(200);
    expect(protobuf.rawPayload).toHaveLength(0);

    const summary = {
      dataPoints: [
        {
          timeUnixNano: String(NOW),
          count: '3',
          sum: '6',
          quantileValues: [
            { quantile: 0.5, value: 1 },
            { quantile: 0.95, value: '2.5' },
          ],
        },
      ],
    };
    const json = await send(
      '/api/otel/v1/metrics',
      JSON.stringify({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'rpc.json', summary }] }] }] }),
      { 'content-type': 'application/json' },
    );
    expect(json.statusCode).toBe(200);
    expect(json.body).toBe('{}');

    const rows = await query(
      `SELECT name, value, dimensions['temporality'] AS temporality, dimensions['rpc.method'] AS method
       FROM metric_points FINAL WHERE project_id = {project:UUID} AND name LIKE 'rpc.%' ORDER BY name`,
    );
    expect(rows).toEqual([
      { name: 'rpc.json.avg', value: 2, temporality: 'cumulative', method: '' },
      { name: 'rpc.json.count', value: 3, temporality: 'cumulative', method: '' },
      { name: 'rpc.json.p50', value: 1, temporality: 'cumulative', method: '' },
      { name: 'rpc.json.p95', value: 2.5, temporality: 'cumulative', method: '' },
      { name: 'rpc.proto.avg', value: 2.5, temporality: 'cumulative', method: 'Get' },
      { name: 'rpc.proto.count', value: 4, temporality: 'cumulative', method: 'Get' },
      { name: 'rpc.proto.p50', value: 2, temporality: 'cumulative', method: 'Get' },
      { name: 'rpc.proto.p90', value: 4, temporality: 'cumulative', method: 'Get' },
      { name: 'rpc.proto.p99', value: 5, temporality: 'cumulative', method: 'Get' },
    ]);
  });

  it('reports rejected records in partial_success, encoded like the request, and counts them in usage', async () => {
    // Two points without a time: there is no instant to file them at.
    const timeless = messageField(
      2,
      stringField(1, 'timeless.gauge'),
      messageField(5, messageField(1, fixed64Field(6, 1n)), messageField(1, fixed64Field(6, 2n))),
    );
    const gauge = messageField(
      2,
      stringField(1, 'kept.gauge'),
      messageField(5, messageField(1, fixed64Field(3, NOW), fixed64Field(6, 1n))),
    );
    const protobuf = await send('/api/otel/v1/metrics', bytesOf(messageField(1, messageField(2, timeless, gauge))));
    expect(protobuf.statusCode).toBe(200);
    expect(ProtobufMetricsSerializer.deserializeResponse(protobuf.rawPayload)).toEqual({
      partialSuccess: { rejectedDataPoints: 2, errorMessage: 'data points without time_unix_nano were rejected' },
    });
    expect(
      await query(`SELECT value FROM metric_points FINAL WHERE project_id = {project:UUID} AND name = 'kept.gauge'`),
    ).toEqual([{ value: 1 }]);

    // A span without ids cannot be stored; the valid one beside it is.
    const spans = JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(sdkSpans('/partial'))!).toString()) as {
      resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
    };
    spans.resourceSpans[0]!.scopeSpans[0]!.spans.push({ name: 'no ids', kind: 1 });
    const json = await send('/api/otel/v1/traces', JSON.stringify(spans), { 'content-type': 'application/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual({
      partialSuccess: { rejectedSpans: '1', errorMessage: 'spans without a valid trace_id and span_id were rejected' },
    });
    expect(await endpointNamed('GET /partial')).toHaveLength(1);

    const usage = await projectIngestUsage(service.services.meta, projectId, usageMonth(new Date()));
    expect(usage!.skippedRecords).toBe(3);
    expect(await organizationIngestBytes(service.services.meta, organizationId, usageMonth(new Date()))).toBe(
      usage!.bytes,
    );
  });
});

describe('bodies', () => {
  it('gzip-compressed bodies are read (protobuf and JSON)', async () => {
    const protobuf = await send(
      '/api/otel/v1/traces',
      zlib.gzipSync(ProtobufTraceSerializer.serializeRequest(sdkSpans('/gzip-protobuf'))!),
      { 'content-encoding': 'gzip' },
    );
    expect(protobuf.statusCode).toBe(200);
    const json = await send(
      '/api/otel/v1/traces',
      zlib.gzipSync(JsonTraceSerializer.serializeRequest(sdkSpans('/gzip-json'))!),
      { 'content-encoding': 'gzip', 'content-type': 'application/json' },
    );
    expect(json.statusCode).toBe(200);
    expect(await endpointNamed('GET /gzip-protobuf')).toHaveLength(1);
    expect(await endpointNamed('GET /gzip-json')).toHaveLength(1);
  });

  it('a body sent chunked, with no Content-Length (as the SDK exporters send), over a real socket', async () => {
    const body = zlib.gzipSync(ProtobufTraceSerializer.serializeRequest(sdkSpans('/chunked'))!);
    const { status, headers } = await new Promise<{ status: number; headers: Record<string, unknown> }>(
      (resolve, reject) => {
        const request = httpRequest(`${service.url}/api/otel/v1/traces`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': PROTOBUF, 'content-encoding': 'gzip' },
        });
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers }));
        });
        request.on('error', reject);
        // Three writes, no Content-Length: Node sends Transfer-Encoding: chunked.
        const third = Math.ceil(body.length / 3);
        request.write(body.subarray(0, third));
        request.write(body.subarray(third, 2 * third));
        request.end(body.subarray(2 * third));
        expect(request.getHeader('content-length')).toBeUndefined();
      },
    );
    expect(status).toBe(200);
    expect(headers['content-type']).toBe(PROTOBUF);
    expect(await endpointNamed('GET /chunked')).toHaveLength(1);
  });

  it('413 past 10 MB after decompression: a gzip bomb, and a plain body', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(TEN_MB + 1));
    expect(bomb.length).toBeLessThan(64 * 1024);
    for (const url of ROUTES) {
      const response = await send(url, bomb, { 'content-encoding': 'gzip' });
      expect(response.statusCode, url).toBe(413);
      expect(exportError(response), url).toEqual({
        code: 3,
        message: expect.stringMatching(/too large|exceeds|10485760|10 MB/i),
      });
    }
    const json = await send('/api/otel/v1/logs', Buffer.alloc(TEN_MB + 1, 0x20), {
      'content-type': 'application/json',
    });
    expect(json.statusCode).toBe(413);
    expect(json.json().error).toMatch(/too large|exceeds|10485760|10 MB/i);
    // Exactly the cap passes the reader and reaches the decoder (zero bytes are no protobuf: 400, not 413).
    const atCap = await send('/api/otel/v1/traces', zlib.gzipSync(Buffer.alloc(TEN_MB)), {
      'content-encoding': 'gzip',
    });
    expect(atCap.statusCode).toBe(400);
    expect(exportError(atCap).message).toMatch(/protobuf/);
  });

  it.each([
    [
      'malformed protobuf (a field running past the end)',
      '/api/otel/v1/traces',
      Uint8Array.from([0x0a, 0x10, 0x0a, 0x02]),
      PROTOBUF,
      /protobuf|truncated|past|end/i,
    ],
    [
      'protobuf of another message (a span id of 3 bytes)',
      '/api/otel/v1/traces',
      bytesOf(messageField(1, messageField(2, messageField(2, hexField(2, 'abcdef'))))),
      PROTOBUF,
      /span_?id/i,
    ],
    ['malformed JSON', '/api/otel/v1/traces', '{"resourceSpans": [', 'application/json', /malformed JSON/],
    ['JSON that is not an object', '/api/otel/v1/logs', '[1, 2]', 'application/json', /\(body\) must be an object/],
    [
      'a span kind outside its enum (protobuf)',
      '/api/otel/v1/traces',
      bytesOf(messageField(1, messageField(2, messageField(2, varintField(6, 9))))),
      PROTOBUF,
      /kind/i,
    ],
    [
      'a span kind outside its enum (JSON)',
      '/api/otel/v1/traces',
      JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ kind: 9 }] }] }] }),
      'application/json',
      /spans\[0\]\.kind/,
    ],
    [
      'a temporality outside its enum',
      '/api/otel/v1/metrics',
      JSON.stringify({
        resourceMetrics: [
          { scopeMetrics: [{ metrics: [{ name: 'm', sum: { aggregationTemporality: 7, dataPoints: [] } }] }] },
        ],
      }),
      'application/json',
      /aggregationTemporality/,
    ],
    [
      'a severity number outside 0-24',
      '/api/otel/v1/logs',
      JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ severityNumber: 25 }] }] }] }),
      'application/json',
      /severityNumber/,
    ],
    ['a body that claims gzip and is not', '/api/otel/v1/traces', 'not gzip at all', PROTOBUF, /gzip/],
    ['a Content-Type that is no media type', '/api/otel/v1/traces', '{}', 'json', /Content-Type/],
  ])(
    '400 naming the problem, as a Status to protobuf and as JSON to JSON: %s',
    async (_case, url, body, contentType, message) => {
      const headers: Record<string, string> = { 'content-type': contentType };
      if (_case.includes('claims gzip')) headers['content-encoding'] = 'gzip';
      const response = await send(url, body, headers);
      expect(response.statusCode).toBe(400);
      if (contentType === PROTOBUF) {
        expect(response.headers['content-type']).toBe(PROTOBUF);
        expect(exportError(response)).toEqual({ code: 3, message: expect.stringMatching(message) });
      } else {
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.json().error).toMatch(message);
      }
    },
  );
});
