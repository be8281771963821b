/**
 * Property tests: whatever the body, decoding either answers a model or throws OtlpDecodeError
 * (never another exception, never a hang), and what it answers the classifier and converters
 * accept without throwing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyTraces } from '../../core/classify/classify-traces.js';
import { OtlpDecodeError } from './errors.js';
import {
  convertLogs,
  convertMetrics,
  decodeLogsRequest,
  decodeMetricsRequest,
  decodeTraceRequest,
  inspectProfilesRequest,
  type OtlpEncoding,
} from './index.js';
import {
  bytesOf,
  doubleField,
  fixed32Field,
  fixed64Field,
  hexField,
  messageField,
  stringAttribute,
  stringField,
  varintField,
} from '../../../test/support/otlp-protobuf.js';
import { byteEdits, jsonPaths, mutateBytes, replaceAt } from '../../../test/support/otlp-fuzz.js';

const context = { projectId: '6f1d2c3b-4a59-4e87-9a0b-1c2d3e4f5a6b', receivedAt: 1n };

/** Decodes as each signal and feeds what decodes onward; only OtlpDecodeError may escape decoding. */
function decodesOrRejects(body: Uint8Array, encoding: OtlpEncoding): void {
  const attempts = [
    () => classifyTraces(decodeTraceRequest(body, encoding), context),
    () => convertMetrics(decodeMetricsRequest(body, encoding), context),
    () => convertLogs(decodeLogsRequest(body, encoding), context),
    () => inspectProfilesRequest(body, encoding),
  ];
  for (const attempt of attempts) {
    try {
      attempt();
    } catch (error) {
      if (!(error instanceof OtlpDecodeError)) throw error;
    }
  }
}

const span = (spanId: string, parentSpanId: string, kind: number) =>
  messageField(
    2,
    hexField(1, '5b8efff798038103d269b633813fc60c'),
    hexField(2, spanId),
    ...(parentSpanId === '' ? [] : [hexField(4, parentSpanId)]),
    fixed32Field(16, 0x101),
    stringField(5, 'GET /users/:id'),
    varintField(6, kind),
    fixed64Field(7, 1_700_000_000_000_000_000n),
    fixed64Field(8, 1_700_000_000_100_000_000n),
    stringAttribute(9, 'http.request.method', 'GET'),
    stringAttribute(9, 'http.route', '/users/:id'),
    stringAttribute(9, 'gen_ai.prompt.0.content', 'hi'),
    messageField(
      9,
      stringField(1, 'list'),
      messageField(2, messageField(5, messageField(1, varintField(3, 7)), messageField(1, doubleField(4, 1.5)))),
    ),
    messageField(11, fixed64Field(1, 5n), stringField(2, 'exception'), stringAttribute(3, 'exception.message', 'boom')),
    messageField(15, stringField(2, 'failed'), varintField(3, 2)),
  );

const VALID_PROTOBUF_BODIES = [
  bytesOf(
    messageField(
      1,
      messageField(1, stringAttribute(1, 'service.name', 'api')),
      messageField(2, span('a000000000000001', '', 2), span('a000000000000002', 'a000000000000001', 1)),
    ),
  ),
  bytesOf(
    messageField(
      1,
      messageField(
        2,
        messageField(
          2,
          stringField(1, 'g'),
          messageField(5, messageField(1, fixed64Field(3, 9n), doubleField(4, 1), stringAttribute(7, 'k', 'v'))),
        ),
        messageField(
          2,
          stringField(1, 'h'),
          messageField(
            9,
            messageField(1, fixed64Field(3, 9n), fixed64Field(4, 2n), doubleField(5, 3)),
            varintField(2, 2),
          ),
        ),
        messageField(2, stringField(1, 's'), messageField(11, messageField(1))),
      ),
    ),
  ),
  bytesOf(
    messageField(
      1,
      messageField(
        2,
        messageField(
          2,
          fixed64Field(1, 5n),
          varintField(2, 9),
          messageField(5, stringField(1, 'log')),
          hexField(9, '5b8efff798038103d269b633813fc60c'),
        ),
      ),
    ),
  ),
];

const VALID_JSON_BODY = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'api' } }] },
      scopeSpans: [
        {
          scope: { name: 's' },
          spans: [
            {
              traceId: '5b8efff798038103d269b633813fc60c',
              spanId: 'a000000000000001',
              kind: 2,
              flags: 257,
              startTimeUnixNano: '1700000000000000000',
              attributes: [
                { key: 'http.request.method', value: { stringValue: 'GET' } },
                {
                  key: 'n',
                  value: {
                    arrayValue: {
                      values: [
                        { intValue: '3' },
                        { kvlistValue: { values: [{ key: 'k', value: { doubleValue: 1 } }] } },
                      ],
                    },
                  },
                },
              ],
              events: [{ name: 'exception', timeUnixNano: '5', attributes: [] }],
              status: { code: 2 },
            },
          ],
        },
      ],
    },
  ],
  resourceMetrics: [
    {
      scopeMetrics: [
        {
          metrics: [{ name: 'g', sum: { dataPoints: [{ timeUnixNano: '9', asInt: '4' }], aggregationTemporality: 1 } }],
        },
      ],
    },
  ],
  resourceLogs: [{ scopeLogs: [{ logRecords: [{ severityNumber: 9, body: { stringValue: 'x' } }] }] }],
};

const JSON_PATHS = jsonPaths(VALID_JSON_BODY);

describe('decoding never throws anything but OtlpDecodeError', () => {
  it('on arbitrary bytes as protobuf', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (body) => decodesOrRejects(body, 'protobuf')),
      { numRuns: 2000 },
    );
  });

  it('on valid protobuf bodies with bytes flipped, inserted or cut', () => {
    const mutation = fc.record({
      base: fc.constantFrom(...VALID_PROTOBUF_BODIES),
      edits: byteEdits(['flip', 'insert', 'cut'], 4),
    });
    fc.assert(
      fc.property(mutation, ({ base, edits }) => decodesOrRejects(mutateBytes(base, edits), 'protobuf')),
      { numRuns: 3000 },
    );
  });

  it('on arbitrary text and JSON values as OTLP/JSON', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => decodesOrRejects(Buffer.from(text), 'json')),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) =>
        decodesOrRejects(Buffer.from(JSON.stringify(value)), 'json'),
      ),
      { numRuns: 1000 },
    );
  });

  it('on a valid OTLP/JSON body with any one value replaced by any JSON value', () => {
    const replacement = fc.record({ path: fc.constantFrom(...JSON_PATHS), value: fc.jsonValue({ maxDepth: 3 }) });
    fc.assert(
      fc.property(replacement, ({ path, value }) =>
        decodesOrRejects(Buffer.from(JSON.stringify(replaceAt(VALID_JSON_BODY, path, value))), 'json'),
      ),
      { numRuns: 3000 },
    );
  });

  it('on any enum number: in range decodes, out of range is an OtlpDecodeError', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (kind) => {
        const body = bytesOf(messageField(1, messageField(2, messageField(2, varintField(6, kind)))));
        const json = Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ kind }] }] }] }));
        for (const [encoding, bytes] of [
          ['protobuf', body],
          ['json', json],
        ] as const) {
          if (kind >= 0 && kind <= 5)
            expect(decodeTraceRequest(bytes, encoding).resourceSpans[0]!.scopeSpans[0]!.spans).toHaveLength(1);
          else expect(() => decodeTraceRequest(bytes, encoding)).toThrow(OtlpDecodeError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
