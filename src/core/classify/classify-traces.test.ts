import { describe, expect, it } from 'vitest';
import { exceptionHash } from '../grouping.js';
import { NIL_UUID } from '../records.js';
import { classifyTraces, type TraceClassification } from './classify-traces.js';
import { SPAN_FLAG_HAS_IS_REMOTE, SPAN_FLAG_IS_REMOTE } from './otlp-model.js';
import {
  PROJECT_ID,
  RECEIVED_AT,
  START,
  span,
  spanUuid,
  TRACE_ID,
  TRACE_UUID,
  traceRequest,
  type SpanSpec,
} from '../../../test/support/test-spans.js';

const context = { projectId: PROJECT_ID, receivedAt: RECEIVED_AT };
const LOCAL_PARENT = SPAN_FLAG_HAS_IS_REMOTE;
const REMOTE_PARENT = SPAN_FLAG_HAS_IS_REMOTE | SPAN_FLAG_IS_REMOTE;
/** A server span of the route GET /ask (an endpoint wherever it stands). */
const ASK_ENDPOINT = {
  name: 'GET /ask',
  kind: 'SERVER',
  attributes: { 'http.request.method': 'GET', 'http.route': '/ask' },
} as const satisfies Omit<SpanSpec, 'spanId'>;
const HTTP_GET = { 'http.request.method': 'GET', 'http.route': '/api/users/:id', 'http.response.status_code': 200 };

function classify(...specs: SpanSpec[]): TraceClassification {
  return classifyTraces(traceRequest(...specs.map(span)), context);
}

/** What each table received, by name, so a row's expectation reads like the spec's table. */
function outcome({ batch, dropped }: TraceClassification) {
  return {
    endpoints: batch.endpoints.map((endpoint) => endpoint.name),
    tasks: batch.tasks.map((task) => task.name),
    aiTraces: batch.aiTraces.map((aiTrace) => aiTrace.name),
    spans: batch.spans.map((row) => row.name),
    dropped,
  };
}

const nothing = { endpoints: [], tasks: [], aiTraces: [], spans: [], dropped: 0 };

/** A row's first span: a root (span a…01). */
const root = (spec: Omit<SpanSpec, 'spanId'>): SpanSpec => ({ spanId: 'a000000000000001', ...spec });
/** A span whose parent is in the same process. */
const childOf = (parentSpanId: string, spec: SpanSpec): SpanSpec => ({ parentSpanId, flags: LOCAL_PARENT, ...spec });
/** A row's second span: an in-process child of the root (span a…02). */
const child = (spec: Omit<SpanSpec, 'spanId' | 'parentSpanId' | 'flags'>): SpanSpec =>
  childOf('a000000000000001', { spanId: 'a000000000000002', ...spec });

interface TableRow {
  row: string;
  spans: SpanSpec[];
  expected: ReturnType<typeof outcome>;
}

describe('the classification table, row by row', () => {
  const rows: TableRow[] = [
    {
      row: 'kind SERVER at a root → endpoint',
      spans: [root({ name: 'GET /api/users/:id', kind: 'SERVER', attributes: HTTP_GET })],
      expected: { ...nothing, endpoints: ['GET /api/users/:id'] },
    },
    {
      row: 'kind SERVER whose parent is in another process → endpoint',
      spans: [
        {
          spanId: 'a000000000000001',
          parentSpanId: 'f000000000000001',
          flags: REMOTE_PARENT,
          kind: 'SERVER',
          attributes: HTTP_GET,
        },
      ],
      expected: { ...nothing, endpoints: ['GET /api/users/:id'] },
    },
    {
      row: 'INTERNAL with HTTP attributes at a root → endpoint',
      spans: [root({ kind: 'INTERNAL', attributes: { 'http.method': 'post', 'http.route': '/orders' } })],
      expected: { ...nothing, endpoints: ['POST /orders'] },
    },
    {
      row: 'kind CONSUMER at a root → task',
      spans: [root({ name: 'orders process', kind: 'CONSUMER' })],
      expected: { ...nothing, tasks: ['orders process'] },
    },
    {
      row: 'kind CONSUMER as a child → task',
      spans: [
        root({
          name: 'POST /orders',
          kind: 'SERVER',
          attributes: { 'http.request.method': 'POST', 'http.route': '/orders' },
        }),
        child({ name: 'orders process', kind: 'CONSUMER' }),
      ],
      expected: { ...nothing, endpoints: ['POST /orders'], tasks: ['orders process'] },
    },
    {
      row: 'root INTERNAL with console.command → task named by the command',
      spans: [root({ name: 'command', kind: 'INTERNAL', attributes: { 'console.command': 'app:reindex' } })],
      expected: { ...nothing, tasks: ['app:reindex'] },
    },
    {
      row: 'gen_ai.* attributes at a root → AI trace',
      spans: [root({ name: 'chat gpt-4o', kind: 'CLIENT', attributes: { 'gen_ai.operation.name': 'chat' } })],
      expected: { ...nothing, aiTraces: ['chat gpt-4o'] },
    },
    {
      row: 'gen_ai.* attributes on a child → AI trace',
      spans: [root(ASK_ENDPOINT), child({ name: 'chat', kind: 'CLIENT', attributes: { 'gen_ai.system': 'openai' } })],
      expected: { ...nothing, endpoints: ['GET /ask'], aiTraces: ['chat'] },
    },
    {
      row: 'any other span with a parent → span row',
      spans: [
        root({ name: 'GET /api/users/:id', kind: 'SERVER', attributes: HTTP_GET }),
        child({ name: 'SELECT users', kind: 'CLIENT' }),
      ],
      expected: { ...nothing, endpoints: ['GET /api/users/:id'], spans: ['SELECT users'] },
    },
    {
      row: 'root without HTTP attributes, not CONSUMER, no gen_ai, no console.command → dropped with its children',
      spans: [root({ name: 'cron tick', kind: 'INTERNAL' }), child({ name: 'SELECT jobs', kind: 'CLIENT' })],
      expected: { ...nothing, dropped: 2 },
    },
    {
      row: 'root CLIENT span → dropped',
      spans: [root({ name: 'GET', kind: 'CLIENT', attributes: { 'url.full': 'https://example.com/' } })],
      expected: { ...nothing, dropped: 1 },
    },
  ];
  it.each(rows)('$row', ({ spans, expected }) => {
    expect(outcome(classify(...spans))).toEqual(expected);
  });

  it('an exception event on any span → an issue attributed to the owning entity', () => {
    const result = classify(
      root({ name: 'GET /api/users/:id', kind: 'SERVER', attributes: HTTP_GET }),
      child({
        name: 'SELECT users',
        kind: 'CLIENT',
        events: [
          {
            name: 'exception',
            attributes: {
              'exception.type': 'QueryFailedError',
              'exception.message': 'relation "users" does not exist',
            },
          },
        ],
      }),
    );
    expect(result.batch.exceptions).toEqual([
      {
        projectId: PROJECT_ID,
        hash: exceptionHash('QueryFailedError: relation "users" does not exist', false),
        dedupKey: `${TRACE_ID}-a000000000000002-0`,
        recordedAt: START + 1_000n,
        stackTrace: 'QueryFailedError: relation "users" does not exist',
        rawStackTrace: '',
        isMessage: false,
        traceId: TRACE_UUID,
        isTask: false,
        sessionId: NIL_UUID,
        sessionRecordingId: NIL_UUID,
        distributedTraceId: TRACE_UUID,
        serverName: 'checkout',
        appVersion: '1.4.2',
        attributes: { 'exception.type': 'QueryFailedError', 'exception.message': 'relation "users" does not exist' },
        source: 'otlp',
      },
    ]);
  });
});

describe('entry points and the remote parent', () => {
  const child = (flags: number, kind: 'SERVER' | 'INTERNAL' = 'SERVER'): SpanSpec => ({
    spanId: 'b000000000000002',
    parentSpanId: 'b000000000000001',
    flags,
    name: 'GET /inner',
    kind,
    attributes: { 'http.request.method': 'GET', 'http.route': '/inner' },
  });
  const parent: SpanSpec = {
    spanId: 'b000000000000001',
    name: 'GET /outer',
    kind: 'SERVER',
    attributes: { 'http.request.method': 'GET', 'http.route': '/outer' },
  };

  it('flags: has-is-remote + is-remote makes an entry point even with the parent in the batch', () => {
    expect(outcome(classify(parent, child(REMOTE_PARENT))).endpoints).toEqual(['GET /outer', 'GET /inner']);
  });

  it('flags: has-is-remote without is-remote is an in-process child even with the parent absent', () => {
    const result = classify(child(LOCAL_PARENT));
    expect(outcome(result)).toEqual({ ...nothing, spans: ['GET /inner'] });
    // The enclosing entity is in another batch: the trace's root endpoint is assumed.
    expect(result.batch.spans[0]!.traceId).toBe(TRACE_UUID);
  });

  it('no flags: a parent absent from the batch is in another process', () => {
    expect(outcome(classify(child(0))).endpoints).toEqual(['GET /inner']);
  });

  it('no flags: a parent present in the batch is in the same process', () => {
    expect(outcome(classify(parent, child(0)))).toEqual({
      ...nothing,
      endpoints: ['GET /outer'],
      spans: ['GET /inner'],
    });
  });

  it('an in-process sub-handler (INTERNAL child with HTTP attributes) stays a span row', () => {
    expect(outcome(classify(parent, child(LOCAL_PARENT, 'INTERNAL')))).toEqual({
      ...nothing,
      endpoints: ['GET /outer'],
      spans: ['GET /inner'],
    });
  });

  it('UNSPECIFIED kind counts as INTERNAL', () => {
    expect(
      outcome(
        classify({
          spanId: 'b000000000000001',
          kind: 'UNSPECIFIED',
          attributes: { 'http.method': 'GET', 'http.route': '/x' },
        }),
      ).endpoints,
    ).toEqual(['GET /x']);
  });
});

describe('root and non-root ids', () => {
  it('a root entity has the trace id; a non-root one its span id, parent span id and is_root false', () => {
    const result = classify(
      { spanId: 'c000000000000001', ...ASK_ENDPOINT },
      childOf('c000000000000001', {
        spanId: 'c000000000000002',
        name: 'llm',
        kind: 'CLIENT',
        attributes: { 'gen_ai.request.model': 'gpt-4o' },
      }),
    );
    expect(result.batch.endpoints[0]).toMatchObject({
      id: TRACE_UUID,
      isRoot: true,
      parentSpanId: NIL_UUID,
      distributedTraceId: TRACE_UUID,
    });
    expect(result.batch.aiTraces[0]).toMatchObject({
      id: spanUuid('c000000000000002'),
      isRoot: false,
      parentSpanId: spanUuid('c000000000000001'),
      distributedTraceId: TRACE_UUID,
    });
  });

  it('re-roots descendants of a promoted non-root entity under it; siblings keep the endpoint', () => {
    const result = classify(
      { spanId: 'd000000000000001', ...ASK_ENDPOINT },
      childOf('d000000000000001', {
        spanId: 'd000000000000002',
        name: 'handler',
        kind: 'INTERNAL',
      }),
      childOf('d000000000000002', {
        spanId: 'd000000000000003',
        name: 'llm',
        kind: 'INTERNAL',
        attributes: { 'gen_ai.system': 'openai' },
      }),
      childOf('d000000000000003', {
        spanId: 'd000000000000004',
        name: 'POST api.openai.com',
        kind: 'CLIENT',
      }),
      childOf('d000000000000002', {
        spanId: 'd000000000000005',
        name: 'SELECT history',
        kind: 'CLIENT',
      }),
    );
    const owners = Object.fromEntries(result.batch.spans.map((row) => [row.name, row.traceId]));
    expect(owners).toEqual({
      handler: TRACE_UUID,
      'POST api.openai.com': spanUuid('d000000000000003'),
      'SELECT history': TRACE_UUID,
    });
    const openAiCall = result.batch.spans.find((row) => row.name === 'POST api.openai.com')!;
    // Span rows carry the decoder's hex span ids, which the row encoder stores as these UUIDs' low half.
    expect(openAiCall).toMatchObject({ spanId: 'd000000000000004', parentSpanId: 'd000000000000003' });
  });

  it('a nested AI trace inside an AI trace is a non-root AI trace of its own', () => {
    const result = classify(
      {
        spanId: 'e000000000000001',
        name: 'ai.generateText',
        kind: 'INTERNAL',
        attributes: { 'gen_ai.request.model': 'gpt-4o' },
      },
      childOf('e000000000000001', {
        spanId: 'e000000000000002',
        name: 'ai.generateText.doGenerate',
        kind: 'CLIENT',
        attributes: { 'gen_ai.request.model': 'gpt-4o' },
      }),
    );
    expect(result.batch.aiTraces.map(({ id, isRoot, parentSpanId }) => ({ id, isRoot, parentSpanId }))).toEqual([
      { id: TRACE_UUID, isRoot: true, parentSpanId: NIL_UUID },
      { id: spanUuid('e000000000000002'), isRoot: false, parentSpanId: spanUuid('e000000000000001') },
    ]);
  });

  it('the distributed trace id override (sightline. or traceway.) applies to the entity and the entities under it', () => {
    const override = '11111111-2222-4333-8444-555555555555';
    const result = classify(
      {
        spanId: 'f000000000000001',
        kind: 'SERVER',
        attributes: {
          'http.request.method': 'GET',
          'http.route': '/a',
          'traceway.distributed_trace_id': override.toUpperCase(),
        },
      },
      childOf('f000000000000001', {
        spanId: 'f000000000000002',
        kind: 'CONSUMER',
        name: 'job',
      }),
      childOf('f000000000000002', {
        spanId: 'f000000000000003',
        kind: 'CLIENT',
        events: [{ name: 'exception', attributes: { 'exception.message': 'boom' } }],
      }),
    );
    expect(result.batch.endpoints[0]!.distributedTraceId).toBe(override);
    expect(result.batch.tasks[0]!.distributedTraceId).toBe(override);
    expect(result.batch.exceptions[0]!.distributedTraceId).toBe(override);
  });

  it.each([
    ['sightline.distributed_trace_id', '4bf92f3577b34da6a3ce929d0e0e4736', '4bf92f35-77b3-4da6-a3ce-929d0e0e4736'],
    ['traceway.distributed_trace_id', 'not-an-id', TRACE_UUID],
    ['sightline.distributed_trace_id', '00000000-0000-0000-0000-000000000000', TRACE_UUID],
  ])('override %s = %s gives %s', (key, value, expected) => {
    const result = classify({ spanId: 'f000000000000001', kind: 'CONSUMER', attributes: { [key]: value } });
    expect(result.batch.tasks[0]!.distributedTraceId).toBe(expected);
  });
});

describe('endpoint names and details', () => {
  const endpoint = (attributes: SpanSpec['attributes'], name = 'span name') =>
    classify({ spanId: 'a100000000000001', name, kind: 'SERVER', attributes }).batch.endpoints[0]!;

  it.each([
    [{ 'http.request.method': 'GET' }, 'UNMATCHED'],
    [{ 'http.request.method': 'GET', 'http.route': '' }, 'UNMATCHED'],
    [{ 'http.request.method': 'GET', 'http.route': '/' }, 'UNMATCHED'],
    [{ 'http.request.method': 'GET', 'http.route': '/*' }, 'UNMATCHED'],
    [{ 'http.request.method': 'GET', 'http.route': '/**' }, 'UNMATCHED'],
    [{ 'http.request.method': 'GET', 'http.route': '*/*' }, 'UNMATCHED'],
    [{ 'http.request.method': 'GET', 'http.route': '/api/*' }, 'GET /api/*'],
    [{ 'http.request.method': 'get', 'http.route': '/users/:id' }, 'GET /users/:id'],
    [
      { 'http.request.method': '_OTHER', 'http.request.method_original': 'PURGE', 'http.route': '/cache' },
      'PURGE /cache',
    ],
    [{ 'rpc.system': 'grpc' }, 'span name'],
  ])('%o is named %s', (attributes, name) => {
    expect(endpoint(attributes).name).toBe(name);
  });

  it('a 404 on a matched route keeps the route name', () => {
    expect(
      endpoint({ 'http.request.method': 'GET', 'http.route': '/users/:id', 'http.response.status_code': 404 }),
    ).toMatchObject({
      name: 'GET /users/:id',
      statusCode: 404,
    });
  });

  it('carries method, route, status, body size, client address', () => {
    expect(
      endpoint({
        'http.request.method': 'POST',
        'http.route': '/orders',
        'http.response.status_code': 201,
        'http.response.body.size': 512,
        'client.address': '203.0.113.9',
      }),
    ).toMatchObject({
      method: 'POST',
      route: '/orders',
      statusCode: 201,
      bodySize: 512,
      clientIp: '203.0.113.9',
      streaming: false,
      serverName: 'checkout',
      appVersion: '1.4.2',
    });
  });

  it('an ERROR status without an HTTP status is a 500', () => {
    expect(
      classify({ spanId: 'a100000000000001', kind: 'SERVER', status: { code: 'ERROR', message: '' } }).batch
        .endpoints[0]!.statusCode,
    ).toBe(500);
  });

  it.each([
    [{ 'http.response.header.content-type': ['text/event-stream; charset=utf-8'] }, true],
    [{ 'http.response.status_code': 101 }, true],
    [{ 'http.request.header.upgrade': ['websocket'] }, true],
    [{ 'http.response.header.content-type': ['application/json'] }, false],
  ])('streaming response %o → %s', (attributes, streaming) => {
    expect(endpoint({ 'http.request.method': 'GET', 'http.route': '/events', ...attributes }).streaming).toBe(
      streaming,
    );
  });

  it('times: recorded at the start, duration from start to end', () => {
    expect(endpoint(HTTP_GET)).toMatchObject({ recordedAt: START, durationNs: 5_000_000n });
  });
});

describe('junk rows', () => {
  const middleware: SpanSpec = childOf('a200000000000001', {
    spanId: 'a200000000000002',
    name: 'middleware - query',
    kind: 'INTERNAL',
    attributes: { 'http.route': '/users/:id', 'express.type': 'middleware' },
  });

  it('a span with http.route but no method, separated from its parent, is a root endpoint named middleware - patched with status 0', () => {
    const result = classify({
      ...middleware,
      attributes: { ...middleware.attributes, 'http.response.status_code': 200 },
    });
    expect(result.batch.endpoints).toHaveLength(1);
    expect(result.batch.endpoints[0]).toMatchObject({
      name: 'middleware - patched',
      statusCode: 0,
      isRoot: true,
      id: TRACE_UUID,
      parentSpanId: NIL_UUID,
    });
  });

  it('the same span beside its parent is a span row', () => {
    const result = classify(
      {
        spanId: 'a200000000000001',
        kind: 'SERVER',
        attributes: { 'http.request.method': 'GET', 'http.route': '/users/:id' },
      },
      middleware,
    );
    expect(outcome(result)).toEqual({ ...nothing, endpoints: ['GET /users/:id'], spans: ['middleware - query'] });
  });
});

describe('issues', () => {
  const throwing = (spanId: string, parentSpanId: string) => ({
    spanId,
    parentSpanId,
    flags: LOCAL_PARENT,
    kind: 'INTERNAL' as const,
    events: [
      {
        name: 'exception',
        attributes: {
          'exception.type': 'Error',
          'exception.message': 'x',
          'exception.stacktrace': 'Error: x\n    at handler (/app/a.js:1:1)',
        },
      },
    ],
  });

  it('two exception events for one throw (two wrapping spans) count two', () => {
    const result = classify(
      { spanId: 'a300000000000001', kind: 'SERVER', attributes: HTTP_GET },
      throwing('a300000000000002', 'a300000000000001'),
      throwing('a300000000000003', 'a300000000000002'),
    );
    expect(result.batch.exceptions).toHaveLength(2);
    expect(new Set(result.batch.exceptions.map((exception) => exception.hash)).size).toBe(1);
    expect(new Set(result.batch.exceptions.map((exception) => exception.dedupKey)).size).toBe(2);
    expect(result.batch.exceptions[0]!.stackTrace).toBe('Error: x\n    at handler (/app/a.js:1:1)');
    expect(result.batch.exceptions[0]!.attributes).toEqual({ 'exception.type': 'Error', 'exception.message': 'x' });
  });

  it('an exception recorded on a task is attributed to the task', () => {
    const result = classify(
      { spanId: 'a300000000000001', kind: 'SERVER', attributes: HTTP_GET },
      { ...throwing('a300000000000002', 'a300000000000001'), kind: 'CONSUMER', name: 'send email' },
    );
    expect(result.batch.exceptions[0]).toMatchObject({ traceId: spanUuid('a300000000000002'), isTask: true });
    expect(result.batch.tasks[0]).toMatchObject({ id: spanUuid('a300000000000002'), name: 'send email' });
  });

  it('spans the spec drops take their exceptions with them', () => {
    expect(classify({ ...throwing('a300000000000001', ''), parentSpanId: '' }).batch.exceptions).toEqual([]);
  });
});

describe('span rows', () => {
  it('carry the span as a waterfall row: entity id, span ids as sent (hex), kind, times, status, attributes, events', () => {
    const result = classify(
      { spanId: 'a400000000000001', kind: 'SERVER', attributes: HTTP_GET },
      childOf('a400000000000001', {
        spanId: 'a400000000000002',
        name: 'cache lookup',
        kind: 'UNSPECIFIED',
        status: { code: 'ERROR', message: 'miss' },
        attributes: { 'cache.key': 'user:1', 'cache.hit': false, 'cache.ttl': 30 },
        events: [{ name: 'evicted', attributes: { 'cache.size': 1.5 } }],
      }),
    );
    expect(result.batch.spans).toEqual([
      {
        projectId: PROJECT_ID,
        traceId: TRACE_UUID,
        spanId: 'a400000000000002',
        parentSpanId: 'a400000000000001',
        name: 'cache lookup',
        kind: 'INTERNAL',
        startTime: START,
        durationNs: 5_000_000n,
        statusCode: 500,
        attributes: { 'cache.key': 'user:1', 'cache.hit': 'false', 'cache.ttl': '30' },
        events: [{ time: START + 1_000n, name: 'evicted', attributes: { 'cache.size': '1.5' } }],
      },
    ]);
  });

  it('a span without a start time is filed at the time the request was received', () => {
    const result = classify({ spanId: 'a400000000000001', kind: 'CONSUMER', startTimeUnixNano: 0n });
    expect(result.batch.tasks[0]).toMatchObject({ recordedAt: RECEIVED_AT, durationNs: 0n });
  });

  it('rejects spans without a valid trace or span id', () => {
    const result = classify(
      { spanId: '', kind: 'SERVER' },
      { spanId: 'a400000000000001', traceId: '00000000000000000000000000000000', kind: 'SERVER' },
      { spanId: 'a400000000000002', kind: 'SERVER' },
    );
    expect(result.rejected).toEqual({
      count: 2,
      messages: ['spans without a valid trace_id and span_id were rejected'],
    });
    expect(result.batch.endpoints).toHaveLength(1);
  });

  it('a parent cycle in a malformed batch terminates', () => {
    const result = classify(
      { spanId: 'a500000000000001', parentSpanId: 'a500000000000002', flags: LOCAL_PARENT, name: 'one' },
      { spanId: 'a500000000000002', parentSpanId: 'a500000000000001', flags: LOCAL_PARENT, name: 'two' },
    );
    expect(outcome(result).spans).toEqual(['one', 'two']);
  });
});
