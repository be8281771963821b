/**
 * OTLP/HTTP ingest, pure part: request bodies (already decompressed) to the normalized model
 * (src/core/classify/otlp-model.ts), metric and log records, and the export responses.
 *
 * A route picks the encoding with `otlpEncodingOf`, decodes, hands traces to `classifyTraces`
 * (src/core/classify) and metrics and logs to `convertMetrics` / `convertLogs`, and answers with
 * `encodeExportResponse` in the request's encoding, reporting rejected items as partial success.
 * An OtlpDecodeError (the only error decoding throws) becomes a 400 carrying its message.
 */
import type { OtlpLogsRequest, OtlpMetricsRequest, OtlpTraceRequest } from '../../core/classify/otlp-model.js';
import type { OtlpEncoding } from './encoding.js';
import { decodeLogsRequestJson, decodeMetricsRequestJson, decodeTraceRequestJson } from './json.js';
import { decodeLogsRequestProtobuf, decodeMetricsRequestProtobuf, decodeTraceRequestProtobuf } from './protobuf.js';

export { convertLogs } from './convert-logs.js';
export { convertMetrics, TEMPORALITY_DIMENSION, type MetricsConversion } from './convert-metrics.js';
export { otlpEncodingOf, type OtlpEncoding } from './encoding.js';
export { OtlpDecodeError } from './errors.js';
export { encodeErrorStatus, encodeExportResponse, type ExportResponse, type OtlpSignal } from './response.js';
export { inspectProfilesRequest, type OtlpProfilesSummary } from './profiles.js';

export function decodeTraceRequest(body: Uint8Array, encoding: OtlpEncoding): OtlpTraceRequest {
  return encoding === 'protobuf' ? decodeTraceRequestProtobuf(body) : decodeTraceRequestJson(body);
}

export function decodeMetricsRequest(body: Uint8Array, encoding: OtlpEncoding): OtlpMetricsRequest {
  return encoding === 'protobuf' ? decodeMetricsRequestProtobuf(body) : decodeMetricsRequestJson(body);
}

export function decodeLogsRequest(body: Uint8Array, encoding: OtlpEncoding): OtlpLogsRequest {
  return encoding === 'protobuf' ? decodeLogsRequestProtobuf(body) : decodeLogsRequestJson(body);
}
