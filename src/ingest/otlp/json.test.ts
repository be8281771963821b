import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from './errors.js';
import { decodeLogsRequest, decodeMetricsRequest, decodeTraceRequest, otlpEncodingOf } from './index.js';

const json = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value));

const TRACE_ID = '5B8EFFF798038103D269B633813FC60C';
const SPAN_ID = 'EEE19B7EC3C1B174';

const spanJson = {
  traceId: TRACE_ID,
  spanId: SPAN_ID,
  parentSpanId: '',
  flags: 257,
  name: 'GET /users/:id',
  kind: 2,
  startTimeUnixNano: '1700000000123456789',
  endTimeUnixNano: 1_700_000_000_223_456_000,
  attributes: [
    { key: 's', value: { stringValue: 'x' } },
    { key: 'i', value: { intValue: '9007199254740993' } },
    { key: 'n', value: { intValue: 42 } },
    { key: 'd', value: { doubleValue: 'NaN' } },
    { key: 'b', value: { boolValue: false } },
    { key: 'y', value: { bytesValue: 'AQL/' } },
    { key: 'a', value: { arrayValue: { values: [{ stringValue: 'v' }] } } },
    { key: 'm', value: { kvlistValue: { values: [{ key: 'k', value: { intValue: '1' } }] } } },
    { key: 'e', value: {} },
    { key: 'z' },
  ],
  events: [{ timeUnixNano: '1700000000200000000', name: 'exception', attributes: [] }],
  status: { code: 2, message: 'failed' },
  links: [{ traceId: TRACE_ID, spanId: SPAN_ID }],
  futureField: { anything: true },
};

const traceBody = (span: unknown, spanKey = 'spans') =>
  json({
    resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, [spanKey]: [span] }] }],
  });

function decodeError(
  body: Uint8Array,
  decode: (bytes: Uint8Array) => unknown = (bytes) => decodeTraceRequest(bytes, 'json'),
): string {
  try {
    decode(body);
  } catch (error) {
    expect(error).toBeInstanceOf(OtlpDecodeError);
    return (error as Error).message;
  }
  throw new Error('expected an OtlpDecodeError');
}

describe('OTLP/JSON trace requests', () => {
  it('decode hex ids (any case), int64 strings and numbers, integer enums, every AnyValue type; unknown fields are ignored', () => {
    const span = decodeTraceRequest(traceBody(spanJson), 'json').resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect(span).toEqual({
      traceId: TRACE_ID.toLowerCase(),
      spanId: SPAN_ID.toLowerCase(),
      parentSpanId: '',
      flags: 257,
      name: 'GET /users/:id',
      kind: 'SERVER',
      startTimeUnixNano: 1_700_000_000_123_456_789n,
      endTimeUnixNano: BigInt(1_700_000_000_223_456_000),
      attributes: [
        { key: 's', value: { type: 'string', value: 'x' } },
        { key: 'i', value: { type: 'int', value: 9_007_199_254_740_993n } },
        { key: 'n', value: { type: 'int', value: 42 } },
        { key: 'd', value: { type: 'double', value: Number.NaN } },
        { key: 'b', value: { type: 'bool', value: false } },
        { key: 'y', value: { type: 'bytes', value: Uint8Array.from([1, 2, 255]) } },
        { key: 'a', value: { type: 'array', value: [{ type: 'string', value: 'v' }] } },
        { key: 'm', value: { type: 'kvlist', value: [{ key: 'k', value: { type: 'int', value: 1 } }] } },
        { key: 'e', value: { type: 'empty' } },
        { key: 'z', value: { type: 'empty' } },
      ],
      events: [{ timeUnixNano: 1_700_000_000_200_000_000n, name: 'exception', attributes: [] }],
      status: { code: 'ERROR', message: 'failed' },
    });
  });

  it('accepts the proto field names and enum value names too', () => {
    const camel = decodeTraceRequest(
      traceBody({
        traceId: TRACE_ID,
        spanId: SPAN_ID,
        parentSpanId: 'a1a2a3a4a5a6a7a8',
        kind: 5,
        startTimeUnixNano: '5',
        status: { code: 1 },
      }),
      'json',
    );
    const snake = json({
      resource_spans: [
        {
          scope_spans: [
            {
              scope: { name: 's' },
              spans: [
                {
                  trace_id: TRACE_ID,
                  span_id: SPAN_ID,
                  parent_span_id: 'a1a2a3a4a5a6a7a8',
                  kind: 'SPAN_KIND_CONSUMER',
                  start_time_unix_nano: 5,
                  status: { code: 'STATUS_CODE_OK' },
                },
              ],
            },
          ],
        },
      ],
    });
    expect(decodeTraceRequest(snake, 'json')).toEqual(camel);
  });

  it('reads null as "not set" and an empty object as an empty request', () => {
    expect(decodeTraceRequest(json({}), 'json')).toEqual({ resourceSpans: [] });
    expect(decodeTraceRequest(json({ resourceSpans: [{ resource: null, scopeSpans: null }] }), 'json')).toEqual({
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [] }],
    });
  });

  it.each([
    ['malformed JSON', Buffer.from('{"resourceSpans": ['), /^malformed JSON: /],
    ['invalid UTF-8', Uint8Array.from([0x7b, 0xff, 0x7d]), /^malformed JSON: /],
    ['a top level that is not an object', json([1, 2]), /\(body\) must be an object/],
    ['resourceSpans that is not an array', json({ resourceSpans: {} }), /resourceSpans must be an array/],
    [
      'a span kind outside the enum',
      traceBody({ kind: 9 }),
      /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.kind must be an integer from 0 to 5/,
    ],
    [
      'an unknown enum name',
      traceBody({ kind: 'SERVER' }),
      /kind must be an integer from 0 to 5 \(SPAN_KIND_\*\), got "SERVER"/,
    ],
    [
      'a status code outside the enum',
      traceBody({ status: { code: 3 } }),
      /status\.code must be an integer from 0 to 2/,
    ],
    ['a trace id of the wrong length', traceBody({ traceId: 'abcd' }), /traceId must be 32 hex characters/],
    ['a base64 span id', traceBody({ spanId: '7uGbfsPBsXQ=' }), /spanId must be 16 hex characters/],
    ['a fractional timestamp', traceBody({ startTimeUnixNano: 1.5 }), /startTimeUnixNano must be a 64-bit integer/],
    ['a negative timestamp', traceBody({ startTimeUnixNano: '-1' }), /startTimeUnixNano must be a 64-bit integer/],
    [
      'a timestamp that is not a number',
      traceBody({ endTimeUnixNano: 'soon' }),
      /endTimeUnixNano must be a 64-bit integer/,
    ],
    [
      'an int64 beyond 64 bits',
      traceBody({ attributes: [{ key: 'k', value: { intValue: '9223372036854775808' } }] }),
      /intValue must be a 64-bit integer/,
    ],
    [
      'a string value of another type',
      traceBody({ attributes: [{ key: 'k', value: { stringValue: 5 } }] }),
      /attributes\[0\]\.value\.stringValue must be a string/,
    ],
    [
      'a double that is not a number',
      traceBody({ attributes: [{ key: 'k', value: { doubleValue: 'many' } }] }),
      /doubleValue must be a number/,
    ],
    [
      'bytes that are not base64',
      traceBody({ attributes: [{ key: 'k', value: { bytesValue: '***' } }] }),
      /bytesValue must be a base64 string/,
    ],
    [
      'attributes that are not an array',
      traceBody({ attributes: { k: 'v' } }),
      /spans\[0\]\.attributes must be an array/,
    ],
    ['a span that is not an object', traceBody('span'), /spans\[0\] must be an object/],
    ['a null span', traceBody(null), /spans\[0\] must be a span object/],
    ['flags out of range', traceBody({ flags: -1 }), /flags must be an integer from 0 to 4294967295/],
  ])('rejects %s', (_problem, body, message) => {
    expect(decodeError(body)).toMatch(message);
  });

  it('rejects attribute values nested deeper than the limit', () => {
    let value: unknown = { stringValue: 'leaf' };
    for (let depth = 0; depth < 40; depth++) value = { arrayValue: { values: [value] } };
    expect(decodeError(traceBody({ attributes: [{ key: 'deep', value }] }))).toMatch(
      /nests attribute values deeper than 32 levels/,
    );
  });

  // Both failed the store's insert (and with it every request batched alongside) before.
  it("reads a time past 2262 (beyond int64 nanoseconds, the store's range) as not set", () => {
    const body = traceBody({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      startTimeUnixNano: '9223372036854775807',
      endTimeUnixNano: '9223372036854775808',
      events: [{ timeUnixNano: '18446744073709551615' }],
    });
    const span = decodeTraceRequest(body, 'json').resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect([span.startTimeUnixNano, span.endTimeUnixNano, span.events[0]!.timeUnixNano]).toEqual([
      2n ** 63n - 1n,
      0n,
      0n,
    ]);
  });

  it('replaces lone surrogates written as \\u escapes with U+FFFD, in keys and values', () => {
    const body = Buffer.from(
      String.raw`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"a\ud800b","attributes":[{"key":"k\udc00","value":{"stringValue":"\ud83d\ude00 \ud83d"}}]}]}]}]}`,
    );
    const span = decodeTraceRequest(body, 'json').resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect(span.name).toBe('a\ufffdb');
    expect(span.attributes).toEqual([{ key: 'k\ufffd', value: { type: 'string', value: '\u{1f600} \ufffd' } }]);
  });
});

describe('OTLP/JSON metric and log requests', () => {
  it('decode metrics of every type', () => {
    const body = json({
      resourceMetrics: [
        {
          scopeMetrics: [
            {
              metrics: [
                { name: 'g', gauge: { dataPoints: [{ timeUnixNano: '10', asDouble: 1.5 }] } },
                {
                  name: 's',
                  sum: {
                    dataPoints: [{ timeUnixNano: '10', asInt: '-3' }],
                    aggregationTemporality: 2,
                    isMonotonic: true,
                  },
                },
                {
                  name: 'h',
                  histogram: {
                    data_points: [
                      { time_unix_nano: '10', count: '4', sum: 10, bucketCounts: ['1', '3'], explicitBounds: [5] },
                    ],
                    aggregation_temporality: 1,
                  },
                },
                {
                  name: 'e',
                  exponentialHistogram: {
                    dataPoints: [
                      {
                        timeUnixNano: '10',
                        count: '3',
                        sum: '7.5',
                        scale: 3,
                        zeroCount: '1',
                        positive: { offset: 2, bucketCounts: ['1', '1'] },
                        min: 0.5,
                        max: 4,
                      },
                      { time_unix_nano: '10', count: 2 },
                    ],
                    aggregationTemporality: 'AGGREGATION_TEMPORALITY_CUMULATIVE',
                  },
                },
                {
                  name: 'q',
                  summary: {
                    dataPoints: [
                      {
                        timeUnixNano: '10',
                        count: '4',
                        sum: 10,
                        quantileValues: [
                          { quantile: 0.5, value: 2 },
                          { quantile: '0.99', value: '4.5' },
                        ],
                      },
                      { time_unix_nano: '10', quantile_values: [{}] },
                    ],
                  },
                },
              ],
            },
          ],
        },
      ],
    });
    const metrics = decodeMetricsRequest(body, 'json').resourceMetrics[0]!.scopeMetrics[0]!.metrics;
    expect(metrics.map((metric) => metric.data)).toEqual([
      { type: 'gauge', points: [{ attributes: [], startTimeUnixNano: 0n, timeUnixNano: 10n, value: 1.5, flags: 0 }] },
      {
        type: 'sum',
        points: [{ attributes: [], startTimeUnixNano: 0n, timeUnixNano: 10n, value: -3, flags: 0 }],
        temporality: 'CUMULATIVE',
        isMonotonic: true,
      },
      {
        type: 'histogram',
        points: [{ attributes: [], startTimeUnixNano: 0n, timeUnixNano: 10n, count: 4, sum: 10, flags: 0 }],
        temporality: 'DELTA',
      },
      {
        type: 'exponentialHistogram',
        points: [
          { attributes: [], startTimeUnixNano: 0n, timeUnixNano: 10n, count: 3, sum: 7.5, flags: 0 },
          { attributes: [], startTimeUnixNano: 0n, timeUnixNano: 10n, count: 2, sum: undefined, flags: 0 },
        ],
        temporality: 'CUMULATIVE',
      },
      {
        type: 'summary',
        points: [
          // Doubles may be strings.
          {
            attributes: [],
            startTimeUnixNano: 0n,
            timeUnixNano: 10n,
            count: 4,
            sum: 10,
            quantileValues: [
              { quantile: 0.5, value: 2 },
              { quantile: 0.99, value: 4.5 },
            ],
            flags: 0,
          },
          // Absent doubles are 0, as in protobuf.
          {
            attributes: [],
            startTimeUnixNano: 0n,
            timeUnixNano: 10n,
            count: 0,
            sum: 0,
            quantileValues: [{ quantile: 0, value: 0 }],
            flags: 0,
          },
        ],
      },
    ]);
  });

  it('rejects mis-typed summary quantiles, naming their path', () => {
    const summaryWith = (quantileValues: unknown) =>
      json({
        resourceMetrics: [
          { scopeMetrics: [{ metrics: [{ name: 'q', summary: { dataPoints: [{ quantileValues }] } }] }] },
        ],
      });
    const decode = (bytes: Uint8Array) => decodeMetricsRequest(bytes, 'json');
    expect(decodeError(summaryWith([{ quantile: 'half', value: 1 }]), decode)).toMatch(
      /summary\.dataPoints\[0\]\.quantileValues\[0\]\.quantile must be a number/,
    );
    expect(decodeError(summaryWith([7]), decode)).toMatch(/quantileValues\[0\] must be an object/);
    expect(decodeError(summaryWith({}), decode)).toMatch(/quantileValues must be an array/);
  });

  it('rejects a temporality outside its enum', () => {
    const body = json({
      resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 's', sum: { aggregationTemporality: 7 } }] }] }],
    });
    expect(decodeError(body, (bytes) => decodeMetricsRequest(bytes, 'json'))).toMatch(
      /sum\.aggregationTemporality must be an integer from 0 to 2/,
    );
  });

  it('decode log records, severity by number or name', () => {
    const body = json({
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                {
                  timeUnixNano: '5',
                  severityNumber: 'SEVERITY_NUMBER_WARN2',
                  body: { kvlistValue: { values: [{ key: 'k', value: { boolValue: true } }] } },
                  traceId: TRACE_ID,
                  eventName: 'e',
                },
                { observed_time_unix_nano: '6', severity_number: 9, severity_text: 'INFO' },
              ],
            },
          ],
        },
      ],
    });
    const [first, second] = decodeLogsRequest(body, 'json').resourceLogs[0]!.scopeLogs[0]!.logRecords;
    expect(first).toMatchObject({
      timeUnixNano: 5n,
      severityNumber: 14,
      traceId: TRACE_ID.toLowerCase(),
      spanId: '',
      eventName: 'e',
      body: { type: 'kvlist' },
    });
    expect(second).toMatchObject({
      timeUnixNano: 0n,
      observedTimeUnixNano: 6n,
      severityNumber: 9,
      severityText: 'INFO',
      body: { type: 'empty' },
    });
  });

  it('rejects severity numbers outside 0-24', () => {
    const body = json({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ severityNumber: 25 }] }] }] });
    expect(decodeError(body, (bytes) => decodeLogsRequest(bytes, 'json'))).toMatch(
      /severityNumber must be an integer from 0 to 24/,
    );
  });
});

describe('encoding of a request', () => {
  it.each([
    ['application/x-protobuf', 'protobuf'],
    ['Application/X-Protobuf; charset=binary', 'protobuf'],
    ['application/json', 'json'],
    ['text/plain', 'json'],
    [undefined, 'json'],
  ])('%s is read as %s', (contentType, encoding) => {
    expect(otlpEncodingOf(contentType)).toBe(encoding);
  });
});
