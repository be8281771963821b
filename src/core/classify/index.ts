/**
 * Write-time classification of OTLP telemetry (pure): decoded trace requests to endpoints, tasks,
 * AI traces, issues and span rows re-rooted under their entity. The normalized model the decoders
 * produce (src/ingest/otlp) is defined here, so the core depends on no wire format.
 */
export {
  classifyTraces,
  type ClassifyContext,
  type StoredConversation,
  type TraceClassification,
} from './classify-traces.js';
export { JUNK_ENDPOINT, UNMATCHED_ENDPOINT } from './http.js';
export type { Rejections } from './rejections.js';
export * from './otlp-model.js';
