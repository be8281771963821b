import { describe, expect, it } from 'vitest';
import type { AnyValue, OtlpLogRecord } from '../../core/classify/otlp-model.js';
import { keyValues, PROJECT_ID, RECEIVED_AT } from '../../../test/support/test-spans.js';
import { convertLogs } from './index.js';

const context = { projectId: PROJECT_ID, receivedAt: RECEIVED_AT };

const record = (fields: Partial<OtlpLogRecord>): OtlpLogRecord => ({
  timeUnixNano: 5n,
  observedTimeUnixNano: 6n,
  severityNumber: 0,
  severityText: '',
  body: { type: 'empty' },
  attributes: [],
  flags: 0,
  traceId: '',
  spanId: '',
  eventName: '',
  ...fields,
});

function convert(...records: OtlpLogRecord[]) {
  return convertLogs(
    {
      resourceLogs: [
        {
          resource: { attributes: keyValues({ 'service.name': 'checkout', 'host.name': 'h1' }) },
          scopeLogs: [{ scope: { name: '', version: '', attributes: [] }, logRecords: records }],
        },
      ],
    },
    context,
  );
}

describe('log conversion', () => {
  it('keeps severity, body, trace context, service and attributes', () => {
    const [log] = convert(
      record({
        severityNumber: 17,
        severityText: 'error',
        body: { type: 'string', value: 'payment failed' },
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        attributes: keyValues({ 'order.id': 42 }),
      }),
    );
    expect(log).toEqual({
      projectId: PROJECT_ID,
      timestamp: 5n,
      observedTimestamp: 6n,
      severityNumber: 17,
      severityText: 'error',
      body: 'payment failed',
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      serviceName: 'checkout',
      attributes: { 'order.id': '42' },
      resourceAttributes: { 'service.name': 'checkout', 'host.name': 'h1' },
      dedupKey: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
    });
  });

  it.each([
    [9, 'INFO'],
    [10, 'INFO2'],
    [13, 'WARN'],
    [17, 'ERROR'],
    [24, 'FATAL4'],
    [0, ''],
  ])('names severity %i %s when the text is missing', (severityNumber, severityText) => {
    expect(convert(record({ severityNumber }))[0]!.severityText).toBe(severityText);
  });

  it.each<[AnyValue, string]>([
    [{ type: 'kvlist', value: keyValues({ event: 'signup', retries: 2 }) }, '{"event":"signup","retries":2}'],
    [
      {
        type: 'array',
        value: [
          { type: 'bool', value: true },
          { type: 'int', value: 2n ** 60n },
        ],
      },
      '[true,"1152921504606846976"]',
    ],
    [{ type: 'double', value: 1.25 }, '1.25'],
    [{ type: 'empty' }, ''],
  ])('JSON-encodes a structured body %o', (body, expected) => {
    expect(convert(record({ body }))[0]!.body).toBe(expected);
  });

  it('falls back to the observed time, then the receive time; all-zero ids count as absent', () => {
    const [observedOnly, neither] = convert(
      record({ timeUnixNano: 0n, traceId: '00000000000000000000000000000000', spanId: '0000000000000000' }),
      record({ timeUnixNano: 0n, observedTimeUnixNano: 0n }),
    );
    expect(observedOnly).toMatchObject({ timestamp: 6n, observedTimestamp: 6n, traceId: '', spanId: '' });
    expect(neither).toMatchObject({ timestamp: RECEIVED_AT, observedTimestamp: RECEIVED_AT });
  });

  it('keeps event_name as the event.name attribute', () => {
    expect(convert(record({ eventName: 'app.crash' }))[0]!.attributes).toEqual({ 'event.name': 'app.crash' });
  });

  it('the same record gets the same dedup key; a different one another', () => {
    const [a, b, c] = convert(
      record({ body: { type: 'string', value: 'x' } }),
      record({ body: { type: 'string', value: 'x' } }),
      record({ body: { type: 'string', value: 'y' } }),
    );
    expect(a!.dedupKey).toBe(b!.dedupKey);
    expect(a!.dedupKey).not.toBe(c!.dedupKey);
  });
});
