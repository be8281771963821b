/**
 * OpenTelemetry ids as the UUIDs the stores key on (records.ts): a 16-byte trace id is a UUID as
 * is; an 8-byte span id is the low 8 bytes of a UUID whose high 8 bytes are zero.
 */
import type { Attributes, Uuid } from '../records.js';

/** 32 lowercase hex characters to 8-4-4-4-12. */
export function traceIdToUuid(traceIdHex: string): Uuid {
  const h = traceIdHex;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** 16 lowercase hex characters to 00000000-0000-0000-xxxx-xxxxxxxxxxxx. */
export function spanIdToUuid(spanIdHex: string): Uuid {
  return `00000000-0000-0000-${spanIdHex.slice(0, 4)}-${spanIdHex.slice(4, 16)}`;
}

/** DESIGN §4: our vendor prefix, and the one existing clients of the report protocol send. */
const DISTRIBUTED_TRACE_ID_ATTRIBUTES = ['sightline.distributed_trace_id', 'traceway.distributed_trace_id'] as const;

const UUID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX_FORM = /^[0-9a-f]{32}$/;
const ALL_ZEROS = /^[0-]+$/;

/**
 * The distributed trace id a span's attributes override the derived one with: a UUID, or 32 hex
 * characters (the form OpenTelemetry writes trace ids in). Malformed or all-zero values are
 * ignored, so a client bug cannot merge unrelated traces.
 */
export function distributedTraceIdOverride(attributes: Attributes): Uuid | undefined {
  for (const key of DISTRIBUTED_TRACE_ID_ATTRIBUTES) {
    const value = attributes[key]?.trim().toLowerCase();
    if (value === undefined || ALL_ZEROS.test(value)) continue;
    if (UUID_FORM.test(value)) return value;
    if (HEX_FORM.test(value)) return traceIdToUuid(value);
  }
  return undefined;
}
