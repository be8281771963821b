/**
 * Export responses (ExportTraceServiceResponse and its metrics, logs and profiles twins), encoded
 * like the request. All four are `{ partial_success = 1 }` with `{ rejected_<items> = 1 (int64),
 * error_message = 2 }` inside; OTLP says to leave partial_success out when nothing was rejected
 * and there is no message, which makes a full success an empty body (protobuf) or `{}` (JSON).
 */
import type { Rejections } from '../../core/classify/rejections.js';
import type { OtlpEncoding } from './encoding.js';
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT } from './wire.js';

export type OtlpSignal = 'traces' | 'metrics' | 'logs' | 'profiles';

export interface ExportResponse {
  body: Uint8Array;
  contentType: string;
}

const REJECTED_JSON_FIELD: Record<OtlpSignal, string> = {
  traces: 'rejectedSpans',
  metrics: 'rejectedDataPoints',
  logs: 'rejectedLogRecords',
  profiles: 'rejectedProfiles',
};

/** `rejected`: the items (spans, data points, log records, profiles) not stored, and why. */
export function encodeExportResponse(
  signal: OtlpSignal,
  encoding: OtlpEncoding,
  rejected?: Rejections,
): ExportResponse {
  const errorMessage = rejected?.messages.join('; ') ?? '';
  const rejectedCount = rejected?.count ?? 0;
  const partialSuccess = rejectedCount > 0 || errorMessage !== '';
  if (encoding === 'json') {
    const body = partialSuccess
      ? // int64 is a decimal string in the protobuf JSON mapping.
        { partialSuccess: { [REJECTED_JSON_FIELD[signal]]: String(rejectedCount), errorMessage } }
      : {};
    return { body: Buffer.from(JSON.stringify(body)), contentType: 'application/json' };
  }
  return {
    body: partialSuccess ? encodePartialSuccess(rejectedCount, errorMessage) : new Uint8Array(0),
    contentType: 'application/x-protobuf',
  };
}

function encodePartialSuccess(rejected: number, errorMessage: string): Uint8Array {
  const inner: number[] = [];
  if (rejected > 0) inner.push((1 << 3) | WIRE_VARINT, ...varint(rejected));
  if (errorMessage !== '') {
    const text = Buffer.from(errorMessage);
    inner.push((2 << 3) | WIRE_LENGTH_DELIMITED, ...varint(text.length), ...text);
  }
  return Uint8Array.from([(1 << 3) | WIRE_LENGTH_DELIMITED, ...varint(inner.length), ...inner]);
}

/**
 * gRPC status codes of the HTTP statuses the OTLP routes answer. OTLP says clients should not act
 * on the code (the HTTP status and Retry-After govern retries); it is there for their logs.
 */
const GRPC_CODE_OF_STATUS: Record<number, number> = {
  400: 3, // INVALID_ARGUMENT
  401: 16, // UNAUTHENTICATED
  403: 7, // PERMISSION_DENIED
  404: 5, // NOT_FOUND
  408: 4, // DEADLINE_EXCEEDED
  413: 3, // INVALID_ARGUMENT: this body will never fit
  415: 3,
  429: 8, // RESOURCE_EXHAUSTED
  500: 13, // INTERNAL
  503: 14, // UNAVAILABLE
};
const GRPC_UNKNOWN = 2;

/**
 * A failed export's body as OTLP/HTTP specifies it for protobuf: a `google.rpc.Status` message
 * (`code = 1`, `message = 2`), which the Collector's and the Java SDK's exporters decode and log.
 */
export function encodeErrorStatus(httpStatus: number, message: string): Uint8Array {
  const code = GRPC_CODE_OF_STATUS[httpStatus] ?? GRPC_UNKNOWN;
  const text = Buffer.from(message);
  return Uint8Array.from([
    (1 << 3) | WIRE_VARINT,
    ...varint(code),
    (2 << 3) | WIRE_LENGTH_DELIMITED,
    ...varint(text.length),
    ...text,
  ]);
}

/** Base-128 varint of a non-negative safe integer. */
function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}
