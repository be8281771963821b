import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exceptionHash } from '../../core/grouping.js';
import { NIL_UUID } from '../../core/records.js';
import { MAX_SKIPPED_DETAILS, parseReportPayload, type ReportContext, type ReportParseResult } from './payload.js';

const PROJECT_ID = '0b6c1f0e-5a3d-4c1e-9f7a-2d8e4b6a1c3f';
const ctx: ReportContext = { projectId: PROJECT_ID, remoteIp: '203.0.113.9', receivedAt: 1_714_560_000_000_000_000n };

const TRACE_ID = '6f9619ff-8b86-4011-b42d-00cf4fc964ff';
const SPAN_ID = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const OTHER_ID = '9a3f5c2e-7b1d-4e8f-a6c4-3d2b1e0f9a8b';
const SESSION_ID = 'c7d8e9f0-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
const EXCEPTION_ID = 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b';
/** 2024-05-01T10:00:00Z in nanoseconds. */
const MAY_FIRST = 1_714_557_600_000_000_000n;

type Json = Record<string, unknown>;

function trace(overrides: Json = {}): Json {
  return {
    id: TRACE_ID,
    endpoint: 'GET /users/:id',
    duration: 1_500_000,
    recordedAt: '2024-05-01T10:00:00.123456789Z',
    statusCode: 200,
    bodySize: 512,
    clientIP: '198.51.100.7',
    attributes: { 'user.id': '42', region: 'eu' },
    ...overrides,
  };
}

function span(overrides: Json = {}): Json {
  return { id: SPAN_ID, name: 'db.users.select', startTime: '2024-05-01T10:00:00.2Z', duration: 800_000, ...overrides };
}

function exception(overrides: Json = {}): Json {
  return {
    traceId: TRACE_ID,
    stackTrace: '*errors.errorString: user 42 not found\nfindUser()\n    /srv/app/users.go:31\n',
    recordedAt: '2024-05-01T10:00:00.5Z',
    isMessage: false,
    ...overrides,
  };
}

function metric(overrides: Json = {}): Json {
  return { name: 'mem.used', value: 184.25, recordedAt: '2024-05-01T10:00:30Z', ...overrides };
}

function session(overrides: Json = {}): Json {
  return {
    id: SESSION_ID,
    startedAt: '2024-05-01T10:00:00Z',
    attributes: { url: 'https://shop.example/cart', viewport: '1280x720', language: 'de-DE' },
    ...overrides,
  };
}

function recording(overrides: Json = {}): Json {
  return {
    sessionId: SESSION_ID,
    segmentIndex: 3,
    events: [
      { type: 2, timestamp: 1714557600000, data: { node: { id: 1 } } },
      { type: 3, timestamp: 1714557601000 },
    ],
    startedAt: '2024-05-01T10:00:00Z',
    endedAt: '2024-05-01T10:00:30Z',
    ...overrides,
  };
}

function payload(...frames: Json[]): Json {
  return { collectionFrames: frames, appVersion: '2.4.1', serverName: 'web-1' };
}

type ParsedReport = Extract<ReportParseResult, { ok: true }>;

function parse(json: unknown): ParsedReport {
  const result = parseReportPayload(json, ctx);
  if (!result.ok) throw new Error(`expected a valid payload, got: ${result.error}`);
  return result;
}

function firstOf<T>(records: T[]): T {
  expect(records).toHaveLength(1);
  return records[0] as T;
}

describe('parseReportPayload: top level', () => {
  it.each<[string, unknown, string]>([
    ['null', null, 'payload must be a JSON object'],
    ['an array', [], 'payload must be a JSON object'],
    ['a string', '{}', 'payload must be a JSON object'],
    ['a number', 42, 'payload must be a JSON object'],
    ['no collectionFrames', { appVersion: '', serverName: '' }, 'collectionFrames must be an array'],
    [
      'collectionFrames null',
      { collectionFrames: null, appVersion: '', serverName: '' },
      'collectionFrames must be an array',
    ],
    [
      'collectionFrames an object',
      { collectionFrames: {}, appVersion: '', serverName: '' },
      'collectionFrames must be an array',
    ],
    ['no appVersion', { collectionFrames: [], serverName: '' }, 'appVersion must be a string'],
    ['appVersion a number', { collectionFrames: [], appVersion: 2, serverName: '' }, 'appVersion must be a string'],
    ['no serverName', { collectionFrames: [], appVersion: '' }, 'serverName must be a string'],
    ['serverName null', { collectionFrames: [], appVersion: '', serverName: null }, 'serverName must be a string'],
    ['a frame that is null', payload({}, null as unknown as Json), 'collectionFrames[1] must be an object'],
    ['a frame that is an array', payload([] as unknown as Json), 'collectionFrames[0] must be an object'],
    ['stackTraces an object', payload({ stackTraces: {} }), 'collectionFrames[0].stackTraces must be an array'],
    ['metrics a string', payload({ metrics: 'none' }), 'collectionFrames[0].metrics must be an array'],
    ['traces a number', payload({ traces: 0 }), 'collectionFrames[0].traces must be an array'],
    ['sessions an object', payload({ sessions: {} }), 'collectionFrames[0].sessions must be an array'],
    [
      'sessionRecordings true',
      payload({ sessionRecordings: true }),
      'collectionFrames[0].sessionRecordings must be an array',
    ],
  ])('refuses %s', (_case, json, error) => {
    expect(parseReportPayload(json, ctx)).toEqual({ ok: false, error });
  });

  it('names the first offending frame even after valid and broken records', () => {
    const json = payload({ traces: [trace(), { id: 'bad' }] }, { traces: [] }, { metrics: {} }, { traces: {} });
    expect(parseReportPayload(json, ctx)).toEqual({ ok: false, error: 'collectionFrames[2].metrics must be an array' });
  });

  it('accepts empty strings, no frames, and frames whose arrays are empty, null or omitted', () => {
    const result = parse({
      collectionFrames: [
        {},
        { stackTraces: [], metrics: [], traces: [], sessions: [], sessionRecordings: [] },
        { stackTraces: null, metrics: null, traces: null, sessions: null, sessionRecordings: null },
      ],
      appVersion: '',
      serverName: '',
    });
    expect(Object.values(result.batch).every((rows) => rows.length === 0)).toBe(true);
    expect(result.skipped).toEqual([]);
    expect(parse({ collectionFrames: [], appVersion: '', serverName: '' }).skippedCount).toBe(0);
  });

  it('accepts unknown fields at every level', () => {
    const result = parse({
      ...payload({
        traces: [trace({ sdk: 'go', spans: [span({ color: 'blue' })] })],
        stackTraces: [exception({ debugIds: { 'app.js': 'x' } })],
        metrics: [metric({ unit: 'MB' })],
        futureKind: [{}],
      }),
      protocolVersion: 3,
    });
    expect(result.batch.endpoints).toHaveLength(1);
    expect(result.batch.spans).toHaveLength(1);
    expect(result.batch.exceptions).toHaveLength(1);
    expect(result.batch.metricPoints).toHaveLength(1);
    expect(result.skipped).toEqual([]);
  });

  it('reads records of every frame', () => {
    const result = parse(payload({ metrics: [metric()] }, { metrics: [metric(), metric()] }));
    expect(result.batch.metricPoints).toHaveLength(3);
  });
});

/** The fields the default trace() gives its root row, endpoint or task alike. */
const ROOT_OF_TRACE = {
  projectId: PROJECT_ID,
  id: TRACE_ID,
  distributedTraceId: TRACE_ID,
  parentSpanId: NIL_UUID,
  isRoot: true,
  recordedAt: MAY_FIRST + 123_456_789n,
  durationNs: 1_500_000n,
  serverName: 'web-1',
  appVersion: '2.4.1',
  attributes: { 'user.id': '42', region: 'eu' },
  source: 'report',
};

describe('parseReportPayload: traces', () => {
  it('maps an endpoint trace to a root endpoint record', () => {
    const endpoint = firstOf(parse(payload({ traces: [trace()] })).batch.endpoints);
    expect(endpoint).toEqual({
      ...ROOT_OF_TRACE,
      name: 'GET /users/:id',
      method: 'GET',
      route: '/users/:id',
      statusCode: 200,
      bodySize: 512,
      clientIp: '198.51.100.7',
      streaming: false,
    });
  });

  it.each([
    ['GET /users/:id', 'GET', '/users/:id'],
    ['POST /', 'POST', '/'],
    ['PROPFIND /dav/files', 'PROPFIND', '/dav/files'],
    ['GET /search files', 'GET', '/search files'],
    ['UNMATCHED', '', ''],
    ['middleware - patched', '', ''],
    ['get /users', '', ''],
    ['GET', '', ''],
    ['GET users', '', ''],
    ['GET  /users', '', ''],
    ['', '', ''],
  ])('splits endpoint %j into method %j and route %j', (name, method, route) => {
    const endpoint = firstOf(parse(payload({ traces: [trace({ endpoint: name })] })).batch.endpoints);
    expect(endpoint).toMatchObject({ name, method, route });
  });

  it('maps a task trace to a root task record with its status code', () => {
    const json = payload({
      traces: [trace({ isTask: true, endpoint: 'nightly invoice run', statusCode: 0, bodySize: 0, clientIP: '' })],
    });
    const { batch } = parse(json);
    expect(batch.endpoints).toEqual([]);
    expect(firstOf(batch.tasks)).toEqual({
      ...ROOT_OF_TRACE,
      name: 'nightly invoice run',
      statusCode: 0,
    });
  });

  it.each([false, null, undefined])('reads isTask %s as an endpoint', (isTask) => {
    const { batch } = parse(payload({ traces: [trace({ isTask })] }));
    expect(batch.endpoints).toHaveLength(1);
    expect(batch.tasks).toHaveLength(0);
  });

  it('stores ids in lower case', () => {
    const json = payload({
      traces: [trace({ id: TRACE_ID.toUpperCase(), spans: [span({ id: SPAN_ID.toUpperCase() })] })],
    });
    const { batch } = parse(json);
    expect(firstOf(batch.endpoints).id).toBe(TRACE_ID);
    expect(firstOf(batch.spans)).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID });
  });

  it('accepts UUIDs of any version', () => {
    const ids = [
      '00000000-0000-1000-8000-000000000000',
      '01890a5d-ac96-774b-bcce-b302099a8057',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    ];
    const { batch } = parse(payload({ traces: ids.map((id) => trace({ id })) }));
    expect(batch.endpoints.map((endpoint) => endpoint.id)).toEqual(ids);
  });

  it.each([
    ['sightline.distributed_trace_id', { 'sightline.distributed_trace_id': OTHER_ID }, {}, OTHER_ID],
    ['traceway.distributed_trace_id', { 'traceway.distributed_trace_id': OTHER_ID.toUpperCase() }, {}, OTHER_ID],
    ['an invalid attribute', { 'sightline.distributed_trace_id': 'abc' }, {}, TRACE_ID],
    ['the distributedTraceId field', {}, { distributedTraceId: OTHER_ID }, OTHER_ID],
    ['an invalid distributedTraceId field', {}, { distributedTraceId: 'abc' }, TRACE_ID],
    [
      'the attribute over the field',
      { 'traceway.distributed_trace_id': OTHER_ID },
      { distributedTraceId: SPAN_ID },
      OTHER_ID,
    ],
  ])('takes the distributed trace id from %s', (_source, attributes, fields, expected) => {
    const { batch } = parse(payload({ traces: [trace({ attributes, ...fields })] }));
    expect(firstOf(batch.endpoints).distributedTraceId).toBe(expected);
  });

  it('accepts omitted and null attributes, and JSON-encodes values that are not strings', () => {
    const { batch } = parse(
      payload({
        traces: [
          trace({ attributes: undefined }),
          trace({ attributes: null }),
          trace({ attributes: { n: 3, ok: true, none: null, list: [1, 'a'], s: 'x' } }),
        ],
      }),
    );
    expect(batch.endpoints.map((endpoint) => endpoint.attributes)).toEqual([
      {},
      {},
      { n: '3', ok: 'true', none: 'null', list: '[1,"a"]', s: 'x' },
    ]);
  });

  it('preserves nanoseconds and offsets of recordedAt', () => {
    const { batch } = parse(
      payload({
        traces: [
          trace({ recordedAt: '2024-05-01T10:00:00.123456789Z' }),
          trace({ recordedAt: '2024-05-01T12:00:00.123456789+02:00' }),
          trace({ recordedAt: '2024-05-01T10:00:00.000000001-00:00' }),
        ],
      }),
    );
    expect(batch.endpoints.map((endpoint) => endpoint.recordedAt)).toEqual([
      MAY_FIRST + 123_456_789n,
      MAY_FIRST + 123_456_789n,
      MAY_FIRST + 1n,
    ]);
  });

  it('keeps durations up to the largest safe integer exactly', () => {
    const { batch } = parse(
      payload({ traces: [trace({ duration: Number.MAX_SAFE_INTEGER }), trace({ duration: 0 })] }),
    );
    expect(batch.endpoints.map((endpoint) => endpoint.durationNs)).toEqual([9_007_199_254_740_991n, 0n]);
  });

  it.each<[string, Json, string]>([
    ['a bad id', { id: 'not-a-uuid' }, 'id must be a UUID'],
    ['an id with braces', { id: `{${TRACE_ID.slice(1, -1)}}` }, 'id must be a UUID'],
    ['an id without dashes', { id: `${TRACE_ID.replaceAll('-', '')}0000` }, 'id must be a UUID'],
    ['an id with a letter past f', { id: `g${TRACE_ID.slice(1)}` }, 'id must be a UUID'],
    ['an id with a non-ASCII digit', { id: `\uff10${TRACE_ID.slice(1)}` }, 'id must be a UUID'],
    ['an id with a dash out of place', { id: `${TRACE_ID.slice(0, 7)}-${TRACE_ID.slice(8)}` }, 'id must be a UUID'],
    ['a missing id', { id: undefined }, 'id must be a UUID'],
    ['a missing endpoint', { endpoint: undefined }, 'endpoint must be a string'],
    ['a numeric endpoint', { endpoint: 404 }, 'endpoint must be a string'],
    ['a negative duration', { duration: -1 }, 'duration must be a non-negative integer of nanoseconds'],
    ['a fractional duration', { duration: 1.5 }, 'duration must be a non-negative integer of nanoseconds'],
    ['a duration beyond 2^53', { duration: 2 ** 60 }, 'duration must be a non-negative integer of nanoseconds'],
    ['a duration string', { duration: '1500' }, 'duration must be a non-negative integer of nanoseconds'],
    ['a missing recordedAt', { recordedAt: undefined }, 'recordedAt must be an RFC 3339 timestamp from 1900 to 2262'],
    [
      'an unparseable recordedAt',
      { recordedAt: 'yesterday' },
      'recordedAt must be an RFC 3339 timestamp from 1900 to 2262',
    ],
    ['a numeric recordedAt', { recordedAt: 1714557600 }, 'recordedAt must be an RFC 3339 timestamp from 1900 to 2262'],
    ['statusCode 1000', { statusCode: 1000 }, 'statusCode must be an integer from 0 to 999'],
    ['statusCode -1', { statusCode: -1 }, 'statusCode must be an integer from 0 to 999'],
    ['statusCode 200.5', { statusCode: 200.5 }, 'statusCode must be an integer from 0 to 999'],
    ['statusCode "200"', { statusCode: '200' }, 'statusCode must be an integer from 0 to 999'],
    ['a missing bodySize', { bodySize: undefined }, 'bodySize must be a non-negative integer'],
    ['a negative bodySize', { bodySize: -5 }, 'bodySize must be a non-negative integer'],
    ['a missing clientIP', { clientIP: undefined }, 'clientIP must be a string'],
    ['attributes as an array', { attributes: [['a', 'b']] }, 'attributes must be an object'],
    ['attributes as a string', { attributes: 'a=b' }, 'attributes must be an object'],
    ['isTask as a string', { isTask: 'true' }, 'isTask must be a boolean'],
  ])('skips a trace with %s', (_case, overrides, reason) => {
    const result = parse(payload({ traces: [trace({ id: OTHER_ID }), trace({ ...overrides, spans: [span()] })] }));
    expect(result.skipped).toEqual([{ path: 'collectionFrames[0].traces[1]', reason }]);
    expect(result.skippedCount).toBe(1);
    expect(result.batch.endpoints.map((endpoint) => endpoint.id)).toEqual([OTHER_ID]);
    expect(result.batch.spans).toEqual([]);
  });

  it.each([null, 7, 'trace'])('skips a trace that is %j', (value) => {
    const result = parse(payload({ traces: [value] }));
    expect(result.skipped).toEqual([{ path: 'collectionFrames[0].traces[0]', reason: 'record must be an object' }]);
  });
});

describe('parseReportPayload: spans', () => {
  it('maps spans to internal span rows under their trace', () => {
    const json = payload({ traces: [trace({ spans: [span(), span({ id: OTHER_ID, name: 'http.client.post' })] })] });
    const { batch } = parse(json);
    expect(batch.spans).toEqual([
      {
        projectId: PROJECT_ID,
        traceId: TRACE_ID,
        spanId: SPAN_ID,
        parentSpanId: NIL_UUID,
        name: 'db.users.select',
        kind: 'INTERNAL',
        startTime: MAY_FIRST + 200_000_000n,
        durationNs: 800_000n,
        statusCode: 0,
        attributes: {},
        events: [],
      },
      expect.objectContaining({ spanId: OTHER_ID, name: 'http.client.post' }),
    ]);
  });

  it('hangs task spans under the task', () => {
    const { batch } = parse(payload({ traces: [trace({ isTask: true, spans: [span()] })] }));
    expect(firstOf(batch.spans).traceId).toBe(firstOf(batch.tasks).id);
  });

  it('keeps a well-formed attribute map a client adds to a span, and ignores a malformed one', () => {
    const json = payload({
      traces: [
        trace({ spans: [span({ attributes: { 'db.table': 'users' } }), span({ id: OTHER_ID, attributes: 'x' })] }),
      ],
    });
    expect(parse(json).batch.spans.map((row) => row.attributes)).toEqual([{ 'db.table': 'users' }, {}]);
  });

  it.each([undefined, null, []])('accepts spans %j', (spans) => {
    const result = parse(payload({ traces: [trace({ spans })] }));
    expect(result.batch.endpoints).toHaveLength(1);
    expect(result.batch.spans).toEqual([]);
    expect(result.skipped).toEqual([]);
  });

  it('keeps the trace when spans is not an array', () => {
    const result = parse(payload({ traces: [trace({ spans: { 0: span() } })] }));
    expect(result.batch.endpoints).toHaveLength(1);
    expect(result.skipped).toEqual([{ path: 'collectionFrames[0].traces[0]', reason: 'spans must be an array' }]);
  });

  it.each<[string, unknown, string]>([
    ['a bad id', span({ id: 'span-1' }), 'id must be a UUID'],
    ['a missing name', span({ name: undefined }), 'name must be a string'],
    [
      'a bad startTime',
      span({ startTime: '2024-05-01T10:00:00' }),
      'startTime must be an RFC 3339 timestamp from 1900 to 2262',
    ],
    ['a fractional duration', span({ duration: 0.5 }), 'duration must be a non-negative integer of nanoseconds'],
    ['a negative duration', span({ duration: -10 }), 'duration must be a non-negative integer of nanoseconds'],
    ['no object', 'span', 'record must be an object'],
  ])('skips only a span with %s', (_case, badSpan, reason) => {
    const json = payload(
      {},
      { traces: [trace({ id: OTHER_ID }), trace({ spans: [span(), badSpan, span({ id: OTHER_ID })] })] },
    );
    const result = parse(json);
    expect(result.skipped).toEqual([{ path: 'collectionFrames[1].traces[1].spans[1]', reason }]);
    expect(result.batch.endpoints).toHaveLength(2);
    expect(result.batch.spans.map((row) => row.spanId)).toEqual([SPAN_ID, OTHER_ID]);
  });
});

describe('parseReportPayload: exceptions', () => {
  it('maps an exception with its grouping hash and content key', () => {
    const raw = exception({
      isTask: true,
      sessionId: SESSION_ID,
      sessionRecordingId: EXCEPTION_ID,
      attributes: { tenant: 'acme' },
    });
    const row = firstOf(parse(payload({ stackTraces: [raw] })).batch.exceptions);
    expect(row).toEqual({
      projectId: PROJECT_ID,
      hash: exceptionHash(raw.stackTrace as string, false),
      dedupKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      recordedAt: MAY_FIRST + 500_000_000n,
      stackTrace: raw.stackTrace,
      rawStackTrace: '',
      isMessage: false,
      traceId: TRACE_ID,
      isTask: true,
      sessionId: SESSION_ID,
      sessionRecordingId: EXCEPTION_ID,
      distributedTraceId: TRACE_ID,
      serverName: 'web-1',
      appVersion: '2.4.1',
      attributes: { tenant: 'acme' },
      source: 'report',
    });
  });

  it('hashes a message as its raw text', () => {
    const raw = exception({ stackTrace: 'Checkout took 12 s', isMessage: true });
    const row = firstOf(parse(payload({ stackTraces: [raw] })).batch.exceptions);
    expect(row.hash).toBe(exceptionHash('Checkout took 12 s', true));
    expect(row.isMessage).toBe(true);
  });

  it.each([null, undefined, ''])('links a traceId of %j to no trace, and defaults the optional fields', (traceId) => {
    const row = firstOf(parse(payload({ stackTraces: [exception({ traceId })] })).batch.exceptions);
    expect(row).toMatchObject({
      traceId: NIL_UUID,
      distributedTraceId: NIL_UUID,
      isTask: false,
      sessionId: NIL_UUID,
      sessionRecordingId: NIL_UUID,
      attributes: {},
    });
  });

  it('takes the distributed trace id of its trace from the same payload, in any frame order', () => {
    const overridden = trace({ attributes: { 'sightline.distributed_trace_id': OTHER_ID } });
    const sameFrame = parse(payload({ stackTraces: [exception()], traces: [overridden] }));
    const earlierFrame = parse(payload({ traces: [overridden] }, { stackTraces: [exception()] }));
    expect(firstOf(sameFrame.batch.exceptions).distributedTraceId).toBe(OTHER_ID);
    expect(firstOf(earlierFrame.batch.exceptions).distributedTraceId).toBe(OTHER_ID);
  });

  it('prefers a valid distributedTraceId field and ignores an invalid one', () => {
    const { batch } = parse(
      payload({
        stackTraces: [
          exception({ distributedTraceId: SESSION_ID.toUpperCase() }),
          exception({ distributedTraceId: 42 }),
        ],
      }),
    );
    expect(batch.exceptions.map((row) => row.distributedTraceId)).toEqual([SESSION_ID, TRACE_ID]);
  });

  describe('dedupKey', () => {
    const keyOf = (raw: Json, context: ReportContext = ctx): string => {
      const result = parseReportPayload(payload({ stackTraces: [raw] }), context);
      if (!result.ok) throw new Error(result.error);
      return firstOf(result.batch.exceptions).dedupKey;
    };

    it('is equal for a re-sent occurrence, whatever the project, request or unrelated fields', () => {
      const otherRequest = { projectId: OTHER_ID, remoteIp: '192.0.2.1', receivedAt: ctx.receivedAt + 5n };
      expect(keyOf(exception({ attributes: { retry: '1' } }), otherRequest)).toBe(keyOf(exception()));
      expect(keyOf(exception({ recordedAt: '2024-05-01T12:00:00.5+02:00' }))).toBe(keyOf(exception()));
    });

    it.each<[string, Json]>([
      ['recordedAt', { recordedAt: '2024-05-01T10:00:00.500000001Z' }],
      ['stackTrace', { stackTrace: '*errors.errorString: user 43 not found\nfindUser()\n    /srv/app/users.go:31\n' }],
      ['isMessage', { isMessage: true }],
      ['traceId', { traceId: null }],
      ['sessionId', { sessionId: SESSION_ID }],
    ])('changes with %s', (_field, overrides) => {
      expect(keyOf(exception(overrides))).not.toBe(keyOf(exception()));
    });
  });

  it.each<[string, Json, string]>([
    ['a missing stackTrace', { stackTrace: undefined }, 'stackTrace must be a string'],
    ['a stackTrace array', { stackTrace: ['Error: x'] }, 'stackTrace must be a string'],
    ['a missing isMessage', { isMessage: undefined }, 'isMessage must be a boolean'],
    ['isMessage 0', { isMessage: 0 }, 'isMessage must be a boolean'],
    [
      'a bad recordedAt',
      { recordedAt: '2024-05-01T10:00:00.5+2:00' },
      'recordedAt must be an RFC 3339 timestamp from 1900 to 2262',
    ],
    ['a bad traceId', { traceId: 'trace-1' }, 'traceId must be a UUID'],
    ['isTask 1', { isTask: 1 }, 'isTask must be a boolean'],
    ['a bad sessionId', { sessionId: 17 }, 'sessionId must be a UUID'],
    ['a bad sessionRecordingId', { sessionRecordingId: 'rec' }, 'sessionRecordingId must be a UUID'],
    ['attributes as an array', { attributes: [] }, 'attributes must be an object'],
  ])('skips an exception with %s', (_case, overrides, reason) => {
    const result = parse(payload({ stackTraces: [exception(), exception(overrides)] }));
    expect(result.skipped).toEqual([{ path: 'collectionFrames[0].stackTraces[1]', reason }]);
    expect(result.batch.exceptions).toHaveLength(1);
  });
});

describe('parseReportPayload: metrics', () => {
  it('maps a metric to a metric point', () => {
    const row = firstOf(parse(payload({ metrics: [metric()] })).batch.metricPoints);
    expect(row).toEqual({
      projectId: PROJECT_ID,
      name: 'mem.used',
      value: 184.25,
      recordedAt: MAY_FIRST + 30_000_000_000n,
      dimensions: {},
      serverName: 'web-1',
      dedupKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      source: 'report',
    });
  });

  it('accepts any name and any finite value', () => {
    const values = [0, -3.5, 1e300, Number.MIN_VALUE];
    const { batch } = parse(payload({ metrics: values.map((value) => metric({ name: '', value })) }));
    expect(batch.metricPoints.map((row) => row.value)).toEqual(values);
  });

  it("keeps the reference clients' tags as dimensions, and ignores malformed tags", () => {
    const { batch } = parse(payload({ metrics: [metric({ tags: { pool: 'db', shard: 2 } }), metric({ tags: 'x' })] }));
    expect(batch.metricPoints.map((row) => row.dimensions)).toEqual([{ pool: 'db', shard: '2' }, {}]);
  });

  describe('dedupKey', () => {
    const keyOf = (raw: Json, serverName = 'web-1'): string =>
      firstOf(parse({ ...payload({ metrics: [raw] }), serverName }).batch.metricPoints).dedupKey;

    it('is equal for a re-sent point', () => {
      expect(keyOf(metric())).toBe(keyOf(metric()));
      expect(keyOf(metric({ tags: {} }))).toBe(keyOf(metric()));
    });

    it.each<[string, Json, string?]>([
      ['name', { name: 'mem.total' }],
      ['recordedAt', { recordedAt: '2024-05-01T10:00:30.000000001Z' }],
      ['value', { value: 184.26 }],
      ['serverName', {}, 'web-2'],
      ['tags', { tags: { pool: 'db' } }],
    ])('changes with %s', (_field, overrides, serverName) => {
      expect(keyOf(metric(overrides), serverName)).not.toBe(keyOf(metric()));
    });

    it('cannot be forged by moving text between the name and the server name', () => {
      expect(keyOf(metric({ name: 'b|c' }), 'a')).not.toBe(keyOf(metric({ name: 'c' }), 'a|b'));
    });
  });

  it.each<[string, Json, string]>([
    ['a missing name', { name: undefined }, 'name must be a string'],
    ['a string value', { value: '12' }, 'value must be a finite number'],
    ['a null value', { value: null }, 'value must be a finite number'],
    ['an infinite value', { value: Number.POSITIVE_INFINITY }, 'value must be a finite number'],
    ['a NaN value', { value: Number.NaN }, 'value must be a finite number'],
    ['a bad recordedAt', { recordedAt: '2024-05-01' }, 'recordedAt must be an RFC 3339 timestamp from 1900 to 2262'],
  ])('skips a metric with %s', (_case, overrides, reason) => {
    const result = parse(payload({ metrics: [metric(overrides), metric()] }));
    expect(result.skipped).toEqual([{ path: 'collectionFrames[0].metrics[0]', reason }]);
    expect(result.batch.metricPoints).toHaveLength(1);
  });
});

describe('parseReportPayload: sessions', () => {
  it('maps an open session, stamping the request address', () => {
    const row = firstOf(parse(payload({ sessions: [session({ clientIP: '10.0.0.2' })] })).batch.sessions);
    expect(row).toEqual({
      projectId: PROJECT_ID,
      id: SESSION_ID,
      startedAt: MAY_FIRST,
      endedAt: null,
      durationNs: null,
      clientIp: '203.0.113.9',
      attributes: {
        url: 'https://shop.example/cart',
        viewport: '1280x720',
        language: 'de-DE',
        'client.ip': '203.0.113.9',
      },
      distributedTraceId: NIL_UUID,
      updatedAt: ctx.receivedAt,
    });
  });

  it('maps a closed session with its duration', () => {
    const row = firstOf(
      parse(payload({ sessions: [session({ endedAt: '2024-05-01T10:14:59.999999999Z' })] })).batch.sessions,
    );
    expect(row.endedAt).toBe(MAY_FIRST + 899_999_999_999n);
    expect(row.durationNs).toBe(899_999_999_999n);
  });

  it.each([null, undefined])('reads endedAt %j as open', (endedAt) => {
    const row = firstOf(parse(payload({ sessions: [session({ endedAt })] })).batch.sessions);
    expect(row).toMatchObject({ endedAt: null, durationNs: null });
  });

  it('overrides a client-sent client.ip, keeps caller keys as received and JSON-encodes non-strings', () => {
    const attributes = { 'client.ip': '127.0.0.1', url: '/checkout', plan: 'pro', cart: { items: 3 }, beta: true };
    const row = firstOf(parse(payload({ sessions: [session({ attributes })] })).batch.sessions);
    expect(row.attributes).toEqual({
      'client.ip': '203.0.113.9',
      url: '/checkout',
      plan: 'pro',
      cart: '{"items":3}',
      beta: 'true',
    });
  });

  it.each([null, undefined])('stamps client.ip into attributes that are %j', (attributes) => {
    const row = firstOf(parse(payload({ sessions: [session({ attributes })] })).batch.sessions);
    expect(row.attributes).toEqual({ 'client.ip': '203.0.113.9' });
  });

  it('does not change the payload', () => {
    const raw = session();
    parse(payload({ sessions: [raw] }));
    expect(raw.attributes).toEqual(session().attributes);
  });

  it('keeps a distributedTraceId', () => {
    const row = firstOf(parse(payload({ sessions: [session({ distributedTraceId: OTHER_ID })] })).batch.sessions);
    expect(row.distributedTraceId).toBe(OTHER_ID);
  });

  it.each<[string, Json, string]>([
    ['a bad id', { id: 'session-1' }, 'id must be a UUID'],
    ['a missing startedAt', { startedAt: undefined }, 'startedAt must be an RFC 3339 timestamp from 1900 to 2262'],
    ['a bad endedAt', { endedAt: 'later' }, 'endedAt must be an RFC 3339 timestamp from 1900 to 2262'],
    ['endedAt before startedAt', { endedAt: '2024-05-01T09:59:59.999999999Z' }, 'endedAt must not be before startedAt'],
    ['a bad distributedTraceId', { distributedTraceId: 'x' }, 'distributedTraceId must be a UUID'],
    ['attributes as a string', { attributes: 'url=/' }, 'attributes must be an object'],
  ])('skips a session with %s', (_case, overrides, reason) => {
    const result = parse(payload({ sessions: [session(overrides)] }));
    expect(result.skipped).toEqual([{ path: 'collectionFrames[0].sessions[0]', reason }]);
    expect(result.batch.sessions).toEqual([]);
  });
});

describe('parseReportPayload: session recordings', () => {
  it('maps a session segment and hands back its events', () => {
    const raw = recording({ logs: [{ type: 'log', level: 'warn', message: 'slow' }], actions: [] });
    const result = parse(payload({ sessionRecordings: [raw] }));
    const key = `recordings/${PROJECT_ID}/${SESSION_ID}/noexception/3.json.gz`;
    const eventsJson = JSON.stringify(raw.events);
    expect(firstOf(result.batch.sessionRecordings)).toEqual({
      projectId: PROJECT_ID,
      sessionId: SESSION_ID,
      exceptionId: NIL_UUID,
      segmentIndex: 3,
      startedAt: MAY_FIRST,
      endedAt: MAY_FIRST + 30_000_000_000n,
      eventCount: 2,
      byteSize: eventsJson.length,
      objectKey: key,
      logs: '[{"type":"log","level":"warn","message":"slow"}]',
      actions: '[]',
      receivedAt: ctx.receivedAt,
    });
    expect(result.recordingObjects).toEqual([{ key, events: raw.events, eventsJson }]);
  });

  it.each([
    ['an exception clip', { sessionId: undefined, exceptionId: EXCEPTION_ID }, `nosession/${EXCEPTION_ID}/3`],
    ['an exception inside a session', { exceptionId: EXCEPTION_ID }, `${SESSION_ID}/${EXCEPTION_ID}/3`],
    ['a session segment', {}, `${SESSION_ID}/noexception/3`],
    ['upper-case ids', { sessionId: SESSION_ID.toUpperCase() }, `${SESSION_ID}/noexception/3`],
  ])('keys the object of %s deterministically', (_case, overrides, keyPart) => {
    const row = firstOf(parse(payload({ sessionRecordings: [recording(overrides)] })).batch.sessionRecordings);
    expect(row.objectKey).toBe(`recordings/${PROJECT_ID}/${keyPart}.json.gz`);
  });

  it('defaults segmentIndex, times, logs and actions', () => {
    const raw = { exceptionId: EXCEPTION_ID, events: [] };
    const row = firstOf(parse(payload({ sessionRecordings: [raw] })).batch.sessionRecordings);
    expect(row).toMatchObject({
      sessionId: NIL_UUID,
      segmentIndex: 0,
      startedAt: ctx.receivedAt,
      endedAt: ctx.receivedAt,
      eventCount: 0,
      byteSize: 2,
      logs: '[]',
      actions: '[]',
    });
  });

  it('measures byteSize in UTF-8 bytes', () => {
    const events = [{ text: 'Grüße ✓ 👋' }];
    const row = firstOf(parse(payload({ sessionRecordings: [recording({ events })] })).batch.sessionRecordings);
    expect(row.byteSize).toBe(new TextEncoder().encode(JSON.stringify(events)).length);
  });

  it.each([{}, { exceptionId: null, sessionId: null }, { exceptionId: '', sessionId: '' }])(
    'drops a recording with neither exceptionId nor sessionId: %j',
    (ids) => {
      const result = parse(payload({ sessionRecordings: [recording({ sessionId: undefined, ...ids })] }));
      expect(result.batch.sessionRecordings).toEqual([]);
      expect(result.recordingObjects).toEqual([]);
      expect(result.skipped).toEqual([
        { path: 'collectionFrames[0].sessionRecordings[0]', reason: 'recording has neither exceptionId nor sessionId' },
      ]);
    },
  );

  it.each<[string, Json, string]>([
    ['a bad exceptionId', { exceptionId: 'e-1' }, 'exceptionId must be a UUID'],
    ['a bad sessionId', { sessionId: 5 }, 'sessionId must be a UUID'],
    ['a negative segmentIndex', { segmentIndex: -1 }, 'segmentIndex must be an integer from 0 to 4294967295'],
    ['a fractional segmentIndex', { segmentIndex: 1.5 }, 'segmentIndex must be an integer from 0 to 4294967295'],
    ['a segmentIndex beyond UInt32', { segmentIndex: 2 ** 32 }, 'segmentIndex must be an integer from 0 to 4294967295'],
    ['missing events', { events: undefined }, 'events must be an array'],
    ['events as an object', { events: { 0: {} } }, 'events must be an array'],
    ['logs as a string', { logs: 'x' }, 'logs must be an array'],
    ['actions as an object', { actions: {} }, 'actions must be an array'],
    ['a bad startedAt', { startedAt: '10:00' }, 'startedAt must be an RFC 3339 timestamp from 1900 to 2262'],
    ['a bad endedAt', { endedAt: 0 }, 'endedAt must be an RFC 3339 timestamp from 1900 to 2262'],
  ])('skips a recording with %s', (_case, overrides, reason) => {
    const result = parse(payload({ sessionRecordings: [recording(overrides)] }));
    expect(result.skipped).toEqual([{ path: 'collectionFrames[0].sessionRecordings[0]', reason }]);
    expect(result.batch.sessionRecordings).toEqual([]);
    expect(result.recordingObjects).toEqual([]);
  });
});

describe('parseReportPayload: skipped records', () => {
  it(`lists the first ${MAX_SKIPPED_DETAILS} skipped records and counts all`, () => {
    const result = parse(payload({ metrics: Array.from({ length: 250 }, () => ({})) }));
    expect(result.skippedCount).toBe(250);
    expect(result.skipped).toHaveLength(MAX_SKIPPED_DETAILS);
    expect(result.skipped.at(-1)).toEqual({
      path: `collectionFrames[0].metrics[${MAX_SKIPPED_DETAILS - 1}]`,
      reason: 'name must be a string',
    });
  });
});

describe('parseReportPayload: large batches', () => {
  it('converts every record of a large payload', () => {
    const hex = (n: number): string => n.toString(16).padStart(12, '0');
    const frames = Array.from({ length: 12 }, (_, f) => ({
      traces: Array.from({ length: 1000 }, (_, i) => {
        const n = f * 1000 + i;
        return trace({
          id: `00000000-0000-4000-8000-${hex(n)}`,
          spans: [0, 1, 2].map((s) => span({ id: `00000000-0000-4000-9000-${hex(n * 3 + s)}` })),
        });
      }),
      stackTraces: Array.from({ length: 50 }, () => exception()),
      metrics: Array.from({ length: 100 }, (_, i) => metric({ value: i })),
    }));
    const result = parse(payload(...frames));
    expect(result.batch.endpoints).toHaveLength(12_000);
    expect(result.batch.spans).toHaveLength(36_000);
    expect(result.batch.exceptions).toHaveLength(600);
    expect(result.batch.metricPoints).toHaveLength(1200);
    expect(new Set(result.batch.spans.map((row) => row.spanId)).size).toBe(36_000);
    expect(result.skippedCount).toBe(0);
  });
});

describe('parseReportPayload: robustness', () => {
  const answersWithoutThrowing = (json: unknown): boolean => {
    const result = parseReportPayload(json, ctx);
    return result.ok ? Array.isArray(result.skipped) : typeof result.error === 'string';
  };

  it('answers any JSON value without throwing', () => {
    fc.assert(fc.property(fc.jsonValue(), answersWithoutThrowing), { numRuns: 2000 });
  });

  it('answers records of arbitrary fields and values without throwing', () => {
    // Values a field is likely to hold, so that records get past their first checks.
    const fieldValue = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.uuid(),
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      fc.integer({ min: -1, max: 2 ** 40 }),
      fc.boolean(),
    );
    const fieldNames = Object.keys({ ...trace(), ...span(), ...exception(), ...session(), ...recording(), tags: 0 });
    const records = fc.array(fc.dictionary(fc.constantFrom(...fieldNames), fieldValue), { maxLength: 5 });
    const frame = fc.dictionary(
      fc.constantFrom('stackTraces', 'metrics', 'traces', 'sessions', 'sessionRecordings'),
      records,
    );
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 3 }), (frames) => answersWithoutThrowing(payload(...frames))),
      { numRuns: 1000 },
    );
  });

  it('answers any mutation of a valid payload without throwing', () => {
    const valid = payload({
      traces: [trace({ spans: [span(), span({ id: OTHER_ID })], isTask: false })],
      stackTraces: [exception({ sessionId: SESSION_ID, sessionRecordingId: EXCEPTION_ID, attributes: { a: 'b' } })],
      metrics: [metric({ tags: { a: 'b' } })],
      sessions: [session({ endedAt: '2024-05-01T10:10:00Z', distributedTraceId: OTHER_ID })],
      sessionRecordings: [recording({ exceptionId: EXCEPTION_ID, logs: [], actions: [] })],
    });
    const paths = pathsOf(valid);
    const mutation = fc.array(
      fc.record({ path: fc.constantFrom(...paths), value: fc.option(fc.jsonValue(), { nil: undefined }) }),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(mutation, (changes) => {
        const json = structuredClone(valid);
        for (const { path, value } of changes) setAt(json, path, value);
        return answersWithoutThrowing(json);
      }),
      { numRuns: 3000 },
    );
  });
});

/** Every path to a value inside `value`, as lists of keys. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix];
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      paths.push(...pathsOf(child, [...prefix, Array.isArray(value) ? Number(key) : key]));
    }
  }
  return paths;
}

/** Replaces (or, with `undefined`, removes) the value at `path`; the root itself cannot be replaced. */
function setAt(root: unknown, path: (string | number)[], value: unknown): void {
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    const child = parent[key];
    if (typeof child !== 'object' || child === null) return;
    parent = child as Record<string | number, unknown>;
  }
  const last = path.at(-1);
  if (last === undefined) return;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}
