/**
 * Builders of normalized OTLP model values for the classifier's tests: spans written as plain
 * objects with plain attribute values, wrapped into one trace request.
 */
import type {
  AnyValue,
  KeyValue,
  OtlpSpan,
  OtlpSpanEvent,
  OtlpTraceRequest,
} from '../../src/core/classify/otlp-model.js';

type PlainValue = string | number | boolean | readonly string[];
export type PlainAttributes = Record<string, PlainValue>;

export const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
export const TRACE_UUID = '0af76519-16cd-43dd-8448-eb211c80319c';
export const PROJECT_ID = '6f1d2c3b-4a59-4e87-9a0b-1c2d3e4f5a6b';
export const RECEIVED_AT = 1_700_000_100_000_000_000n;
export const START = 1_700_000_000_000_000_000n;

/** The UUID form of a span id (low 8 bytes). */
export const spanUuid = (spanId: string): string => `00000000-0000-0000-${spanId.slice(0, 4)}-${spanId.slice(4)}`;

function typedValue(value: PlainValue): AnyValue {
  if (typeof value === 'string') return { type: 'string', value };
  if (typeof value === 'boolean') return { type: 'bool', value };
  if (typeof value === 'number') return Number.isInteger(value) ? { type: 'int', value } : { type: 'double', value };
  return { type: 'array', value: value.map((element) => typedValue(element)) };
}

export function keyValues(attributes: PlainAttributes = {}): KeyValue[] {
  return Object.entries(attributes).map(([key, value]) => ({ key, value: typedValue(value) }));
}

export interface SpanSpec extends Partial<Omit<OtlpSpan, 'attributes' | 'events'>> {
  spanId: string;
  attributes?: PlainAttributes;
  events?: { name: string; attributes?: PlainAttributes; timeUnixNano?: bigint }[];
}

export function span({ attributes, events, ...fields }: SpanSpec): OtlpSpan {
  return {
    traceId: TRACE_ID,
    parentSpanId: '',
    flags: 0,
    name: 'span',
    kind: 'INTERNAL',
    startTimeUnixNano: START,
    endTimeUnixNano: START + 5_000_000n,
    status: { code: 'UNSET', message: '' },
    ...fields,
    attributes: keyValues(attributes),
    events: (events ?? []).map(
      (event): OtlpSpanEvent => ({
        name: event.name,
        timeUnixNano: event.timeUnixNano ?? START + 1_000n,
        attributes: keyValues(event.attributes),
      }),
    ),
  };
}

export function traceRequest(...spans: OtlpSpan[]): OtlpTraceRequest {
  return {
    resourceSpans: [
      {
        resource: { attributes: keyValues({ 'service.name': 'checkout', 'service.version': '1.4.2' }) },
        scopeSpans: [{ scope: { name: 'test', version: '1', attributes: [] }, spans }],
      },
    ],
  };
}
