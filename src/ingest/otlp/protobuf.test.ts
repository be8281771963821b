import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from './errors.js';
import { decodeLogsRequest, decodeMetricsRequest, decodeTraceRequest } from './index.js';
import {
  bytesField,
  bytesOf,
  doubleField,
  fixed32Field,
  fixed64Field,
  hexField,
  messageField,
  stringAttribute,
  stringField,
  varint,
  varintField,
} from '../../../test/support/otlp-protobuf.js';

const TRACE_ID = '5b8efff798038103d269b633813fc60c';
const SPAN_ID = 'eee19b7ec3c1b174';

/** ExportTraceServiceRequest { resource_spans { scope_spans { spans: [span] } } }. */
const traceRequestWith = (...spanFields: number[][]): Uint8Array =>
  bytesOf(messageField(1, messageField(2, messageField(2, ...spanFields))));

const decodeSpan = (...spanFields: number[][]) =>
  decodeTraceRequest(traceRequestWith(...spanFields), 'protobuf').resourceSpans[0]!.scopeSpans[0]!.spans[0]!;

function decodeError(
  body: Uint8Array,
  decode: (bytes: Uint8Array) => unknown = (bytes) => decodeTraceRequest(bytes, 'protobuf'),
): OtlpDecodeError {
  try {
    decode(body);
  } catch (error) {
    expect(error).toBeInstanceOf(OtlpDecodeError);
    return error as OtlpDecodeError;
  }
  throw new Error('expected an OtlpDecodeError');
}

describe('protobuf trace requests', () => {
  it('decodes every field the model keeps, and resource and scope', () => {
    const body = bytesOf(
      messageField(
        1,
        messageField(1, stringAttribute(1, 'service.name', 'checkout')),
        messageField(
          2,
          messageField(1, stringField(1, 'scope'), stringField(2, '2.0'), stringAttribute(3, 'scope.attr', 'x')),
          messageField(
            2,
            hexField(1, TRACE_ID),
            hexField(2, SPAN_ID),
            stringField(3, 'rojo=00f067aa0ba902b7'),
            hexField(4, '0102030405060708'),
            fixed32Field(16, 0x301),
            stringField(5, 'GET /users/:id'),
            varintField(6, 2),
            fixed64Field(7, 1_700_000_000_123_456_789n),
            fixed64Field(8, 1_700_000_000_223_456_789n),
            stringAttribute(9, 'http.route', '/users/:id'),
            messageField(9, stringField(1, 'http.response.status_code'), messageField(2, varintField(3, 404))),
            messageField(9, stringField(1, 'neg'), messageField(2, varintField(3, -5))),
            messageField(9, stringField(1, 'big'), messageField(2, varintField(3, 2n ** 62n))),
            messageField(9, stringField(1, 'ratio'), messageField(2, doubleField(4, 0.5))),
            messageField(9, stringField(1, 'ok'), messageField(2, varintField(2, 1))),
            messageField(9, stringField(1, 'raw'), messageField(2, bytesField(7, [1, 2, 255]))),
            messageField(
              9,
              stringField(1, 'list'),
              messageField(
                2,
                messageField(5, messageField(1, stringField(1, 'a')), messageField(1, varintField(3, 7))),
              ),
            ),
            messageField(9, stringField(1, 'map'), messageField(2, messageField(6, stringAttribute(1, 'k', 'v')))),
            messageField(9, stringField(1, 'unset')),
            varintField(10, 3),
            messageField(
              11,
              fixed64Field(1, 1_700_000_000_200_000_000n),
              stringField(2, 'exception'),
              stringAttribute(3, 'exception.message', 'boom'),
            ),
            messageField(13, hexField(1, TRACE_ID), hexField(2, SPAN_ID)),
            messageField(15, stringField(2, 'failed'), varintField(3, 2)),
          ),
        ),
      ),
    );
    const { resourceSpans } = decodeTraceRequest(body, 'protobuf');
    expect(resourceSpans[0]!.resource.attributes).toEqual([
      { key: 'service.name', value: { type: 'string', value: 'checkout' } },
    ]);
    expect(resourceSpans[0]!.scopeSpans[0]!.scope).toEqual({
      name: 'scope',
      version: '2.0',
      attributes: [{ key: 'scope.attr', value: { type: 'string', value: 'x' } }],
    });
    expect(resourceSpans[0]!.scopeSpans[0]!.spans[0]).toEqual({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      parentSpanId: '0102030405060708',
      flags: 0x301,
      name: 'GET /users/:id',
      kind: 'SERVER',
      startTimeUnixNano: 1_700_000_000_123_456_789n,
      endTimeUnixNano: 1_700_000_000_223_456_789n,
      attributes: [
        { key: 'http.route', value: { type: 'string', value: '/users/:id' } },
        { key: 'http.response.status_code', value: { type: 'int', value: 404 } },
        { key: 'neg', value: { type: 'int', value: -5 } },
        { key: 'big', value: { type: 'int', value: 2n ** 62n } },
        { key: 'ratio', value: { type: 'double', value: 0.5 } },
        { key: 'ok', value: { type: 'bool', value: true } },
        { key: 'raw', value: { type: 'bytes', value: Uint8Array.from([1, 2, 255]) } },
        {
          key: 'list',
          value: {
            type: 'array',
            value: [
              { type: 'string', value: 'a' },
              { type: 'int', value: 7 },
            ],
          },
        },
        { key: 'map', value: { type: 'kvlist', value: [{ key: 'k', value: { type: 'string', value: 'v' } }] } },
        { key: 'unset', value: { type: 'empty' } },
      ],
      events: [
        {
          timeUnixNano: 1_700_000_000_200_000_000n,
          name: 'exception',
          attributes: [{ key: 'exception.message', value: { type: 'string', value: 'boom' } }],
        },
      ],
      status: { code: 'ERROR', message: 'failed' },
    });
  });

  it('an empty body is an empty request', () => {
    expect(decodeTraceRequest(new Uint8Array(0), 'protobuf')).toEqual({ resourceSpans: [] });
  });

  // Such a time failed the store's insert (and with it every request batched alongside) before.
  it("reads a time past 2262 (beyond int64 nanoseconds, the store's range) as not set", () => {
    const span = decodeSpan(
      fixed64Field(7, 2n ** 63n - 1n),
      fixed64Field(8, 2n ** 63n),
      messageField(11, fixed64Field(1, 2n ** 64n - 1n)),
    );
    expect([span.startTimeUnixNano, span.endTimeUnixNano, span.events[0]!.timeUnixNano]).toEqual([
      2n ** 63n - 1n,
      0n,
      0n,
    ]);
  });

  it('skips unknown fields of every wire type, and known fields sent with another wire type', () => {
    const span = decodeSpan(
      hexField(2, SPAN_ID),
      varintField(99, 1),
      fixed64Field(98, 5n),
      fixed32Field(97, 5),
      stringField(96, 'future'),
      // name (5) as a varint: not the string it should be, so it is skipped like an unknown field.
      varintField(5, 12),
    );
    expect(span).toMatchObject({ spanId: SPAN_ID, name: '' });
  });

  it.each([
    ['a truncated varint', [0x0a, 0x80]],
    ['a length past the end', [0x0a, 0x05, 0x00]],
    ['a varint longer than 10 bytes', [0x08, ...Array(10).fill(0xff), 0x01]],
    ['field number 0', [0x02, 0x00]],
    ['a group (wire type 3)', [0x0b]],
    ['an end-group (wire type 4)', [0x0c]],
    ['wire type 6', [0x0e]],
    ['a truncated fixed64', [0x09, 1, 2, 3]],
  ])('rejects %s', (_problem, bytes) => {
    expect(decodeError(Uint8Array.from(bytes)).message).toMatch(/^malformed protobuf at byte \d+: /);
  });

  it('rejects an embedded message whose field runs past the message, even if the buffer goes on', () => {
    // ResourceSpans of 2 bytes holding a 5-byte string, followed by unrelated bytes.
    const body = Uint8Array.from([0x0a, 0x02, 0x1a, 0x05, 0x61, 0x62, 0x63, 0x64, 0x65]);
    expect(decodeError(body).message).toContain('runs past the end of its message');
  });

  it('rejects span kinds and status codes outside their enums', () => {
    expect(decodeError(traceRequestWith(varintField(6, 6))).message).toContain('Span.kind 6 is not one of 0-5');
    expect(decodeError(traceRequestWith(varintField(6, -1))).message).toContain('Span.kind -1');
    expect(decodeError(traceRequestWith(messageField(15, varintField(3, 3)))).message).toContain('Status.code 3');
  });

  it('rejects ids of the wrong length', () => {
    expect(decodeError(traceRequestWith(bytesField(1, [1, 2, 3]))).message).toContain(
      'Span.trace_id must be 16 bytes, got 3',
    );
    expect(decodeError(traceRequestWith(bytesField(2, Array(16).fill(1)))).message).toContain(
      'Span.span_id must be 8 bytes, got 16',
    );
  });

  it('rejects attribute values nested deeper than the limit', () => {
    // AnyValue { array_value = 5 { values = 1: AnyValue { ... string_value = 1 } } }, 40 levels deep.
    let anyValue: number[] = stringField(1, 'leaf');
    for (let depth = 0; depth < 40; depth++) anyValue = messageField(5, messageField(1, anyValue));
    expect(
      decodeError(traceRequestWith(messageField(9, stringField(1, 'deep'), messageField(2, anyValue)))).message,
    ).toContain('nested deeper than 32 levels');
  });
});

describe('protobuf metric requests', () => {
  const metricsRequest = (...metricFields: number[][]) =>
    bytesOf(messageField(1, messageField(2, messageField(2, ...metricFields))));
  const decodeMetric = (...metricFields: number[][]) =>
    decodeMetricsRequest(metricsRequest(...metricFields), 'protobuf').resourceMetrics[0]!.scopeMetrics[0]!.metrics[0]!;
  const numberPoint = (...fields: number[][]) => messageField(1, fixed64Field(3, 1_000n), ...fields);

  it('decodes gauges, sums with temporality and histograms', () => {
    expect(
      decodeMetric(
        stringField(1, 'g'),
        stringField(3, 'ms'),
        messageField(5, numberPoint(doubleField(4, 1.5), stringAttribute(7, 'a', 'b'))),
      ),
    ).toEqual({
      name: 'g',
      description: '',
      unit: 'ms',
      data: {
        type: 'gauge',
        points: [
          {
            attributes: [{ key: 'a', value: { type: 'string', value: 'b' } }],
            startTimeUnixNano: 0n,
            timeUnixNano: 1_000n,
            value: 1.5,
            flags: 0,
          },
        ],
      },
    });
    // as_int is sfixed64 (wire type 1), negative here.
    expect(
      decodeMetric(messageField(7, numberPoint(fixed64Field(6, -3n)), varintField(2, 2), varintField(3, 1))).data,
    ).toMatchObject({
      type: 'sum',
      temporality: 'CUMULATIVE',
      isMonotonic: true,
      points: [{ value: -3 }],
    });
    expect(
      decodeMetric(
        messageField(
          9,
          messageField(1, fixed64Field(3, 1n), fixed64Field(4, 4n), doubleField(5, 10)),
          varintField(2, 1),
        ),
      ).data,
    ).toEqual({
      type: 'histogram',
      temporality: 'DELTA',
      points: [{ attributes: [], startTimeUnixNano: 0n, timeUnixNano: 1n, count: 4, sum: 10, flags: 0 }],
    });
    expect(decodeMetric(numberPoint()).data).toEqual({ type: 'none' });
  });

  it('decodes exponential histogram points by their own field numbers: count and sum, buckets skipped', () => {
    const point = messageField(
      1,
      stringAttribute(1, 'a', 'b'),
      fixed64Field(2, 5n),
      fixed64Field(3, 9n),
      fixed64Field(4, 3n),
      doubleField(5, 7.5),
      varintField(6, 3), // scale (sint32 zigzag)
      fixed64Field(7, 1n), // zero_count
      messageField(8, varintField(1, 2), messageField(2, varint(1), varint(1))), // positive buckets
      varintField(10, 1), // flags
      doubleField(12, 0.5), // min
      doubleField(13, 4), // max
    );
    expect(
      decodeMetric(
        messageField(10, point, messageField(1, fixed64Field(3, 9n), fixed64Field(4, 2n)), varintField(2, 2)),
      ).data,
    ).toEqual({
      type: 'exponentialHistogram',
      temporality: 'CUMULATIVE',
      points: [
        {
          attributes: [{ key: 'a', value: { type: 'string', value: 'b' } }],
          startTimeUnixNano: 5n,
          timeUnixNano: 9n,
          count: 3,
          sum: 7.5,
          flags: 1,
        },
        // sum is optional: absent stays absent.
        { attributes: [], startTimeUnixNano: 0n, timeUnixNano: 9n, count: 2, sum: undefined, flags: 0 },
      ],
    });
  });

  it('decodes summary points with their quantile values; an absent sum is 0', () => {
    const quantile = (q: number, value: number) => messageField(6, doubleField(1, q), doubleField(2, value));
    const point = messageField(
      1,
      stringAttribute(7, 'a', 'b'),
      fixed64Field(2, 5n),
      fixed64Field(3, 9n),
      fixed64Field(4, 4n),
      doubleField(5, 10),
      quantile(0.5, 2),
      quantile(0.99, 4.5),
      varintField(8, 1),
    );
    expect(decodeMetric(messageField(11, point, messageField(1, fixed64Field(3, 9n), messageField(6)))).data).toEqual({
      type: 'summary',
      points: [
        {
          attributes: [{ key: 'a', value: { type: 'string', value: 'b' } }],
          startTimeUnixNano: 5n,
          timeUnixNano: 9n,
          count: 4,
          sum: 10,
          quantileValues: [
            { quantile: 0.5, value: 2 },
            { quantile: 0.99, value: 4.5 },
          ],
          flags: 1,
        },
        {
          attributes: [],
          startTimeUnixNano: 0n,
          timeUnixNano: 9n,
          count: 0,
          sum: 0,
          quantileValues: [{ quantile: 0, value: 0 }],
          flags: 0,
        },
      ],
    });
  });

  it('a truncated summary quantile is a decode error', () => {
    const truncated = messageField(11, messageField(1, messageField(6, [9, 0, 0])));
    expect(
      decodeError(metricsRequest(truncated), (bytes) => decodeMetricsRequest(bytes, 'protobuf')).message,
    ).toContain('8-byte value runs past the end of its message');
  });

  it('a number point with neither as_double nor as_int has no value', () => {
    expect(decodeMetric(messageField(5, numberPoint())).data).toMatchObject({ points: [{ value: undefined }] });
  });

  it('rejects temporality outside its enum', () => {
    expect(
      decodeError(metricsRequest(messageField(7, varintField(2, 3))), (bytes) =>
        decodeMetricsRequest(bytes, 'protobuf'),
      ).message,
    ).toContain('Sum.aggregation_temporality 3');
  });
});

describe('protobuf log requests', () => {
  const logsRequest = (...recordFields: number[][]) =>
    bytesOf(messageField(1, messageField(2, messageField(2, ...recordFields))));

  it('decodes a log record', () => {
    const record = decodeLogsRequest(
      logsRequest(
        fixed64Field(1, 5n),
        fixed64Field(11, 6n),
        varintField(2, 17),
        stringField(3, 'ERROR'),
        messageField(5, stringField(1, 'failed')),
        stringAttribute(6, 'k', 'v'),
        fixed32Field(8, 1),
        hexField(9, TRACE_ID),
        hexField(10, SPAN_ID),
        stringField(12, 'app.crash'),
      ),
      'protobuf',
    ).resourceLogs[0]!.scopeLogs[0]!.logRecords[0];
    expect(record).toEqual({
      timeUnixNano: 5n,
      observedTimeUnixNano: 6n,
      severityNumber: 17,
      severityText: 'ERROR',
      body: { type: 'string', value: 'failed' },
      attributes: [{ key: 'k', value: { type: 'string', value: 'v' } }],
      flags: 1,
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      eventName: 'app.crash',
    });
  });

  it('rejects severity numbers outside 0-24', () => {
    expect(
      decodeError(logsRequest(varintField(2, 25)), (bytes) => decodeLogsRequest(bytes, 'protobuf')).message,
    ).toContain('LogRecord.severity_number 25');
  });
});
