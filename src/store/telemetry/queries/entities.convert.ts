/** Rows of the endpoint, task, AI trace, entity and span queries as camelCase domain items. */
import type { AiCall } from '../../../core/records.js';
import type { EndpointAggregate, TaskAggregate } from '../../../core/ranking.js';
import { isoOf, nullIfNil } from './convert.js';

export interface EndpointAggregateRow {
  group_key: string;
  any_route: string;
  any_method: string;
  requests: number;
  server_errors: number;
  client_errors: number;
  latency_requests: number;
  satisfied: number;
  tolerating: number;
  streaming_requests: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  last_seen: string;
}

export const toEndpointAggregate = (row: EndpointAggregateRow): EndpointAggregate => ({
  name: row.group_key,
  method: row.any_method,
  route: row.any_route,
  requests: row.requests,
  serverErrors: row.server_errors,
  clientErrors: row.client_errors,
  latencyRequests: row.latency_requests,
  satisfied: row.satisfied,
  tolerating: row.tolerating,
  streamingRequests: row.streaming_requests,
  p50Ms: row.p50_ms,
  p95Ms: row.p95_ms,
  p99Ms: row.p99_ms,
  lastSeen: isoOf(row.last_seen),
});

export interface TaskAggregateRow {
  name: string;
  count: number;
  failures: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  last_seen: string;
}

export const toTaskAggregate = (row: TaskAggregateRow): TaskAggregate => ({
  name: row.name,
  count: row.count,
  failures: row.failures,
  p50Ms: row.p50_ms,
  p95Ms: row.p95_ms,
  p99Ms: row.p99_ms,
  lastSeen: isoOf(row.last_seen),
});

export interface TraceSummary {
  id: string;
  recordedAt: string | null;
  durationMs: number;
  statusCode: number;
  distributedTraceId: string | null;
  serverName: string;
  attributes: Record<string, string>;
}

export interface TraceSummaryRow {
  id: string;
  recorded_at: string;
  duration_ns: number;
  status_code: number;
  distributed_trace_id: string;
  server_name: string;
  attributes: Record<string, string>;
}

export const toTraceSummary = (row: TraceSummaryRow): TraceSummary => ({
  id: row.id,
  recordedAt: isoOf(row.recorded_at),
  durationMs: row.duration_ns / 1e6,
  statusCode: row.status_code,
  distributedTraceId: nullIfNil(row.distributed_trace_id),
  serverName: row.server_name,
  attributes: row.attributes,
});

export interface AiTraceItem extends AiCall {
  id: string;
  recordedAt: string | null;
  durationMs: number;
  distributedTraceId: string | null;
}

export interface AiRow {
  id: string;
  name: string;
  recorded_at: string;
  duration_ns: number;
  model: string;
  provider: string;
  operation: string;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  input_cost: number;
  output_cost: number;
  total_cost: number;
  finish_reason: string;
  tool_calls: number;
  is_error: boolean;
  distributed_trace_id: string;
  conversation_id: string;
  conversation_key: string;
}

export const toAiItem = (row: AiRow): AiTraceItem => ({
  id: row.id,
  name: row.name,
  recordedAt: isoOf(row.recorded_at),
  durationMs: row.duration_ns / 1e6,
  model: row.model,
  provider: row.provider,
  operation: row.operation,
  inputTokens: row.input_tokens,
  outputTokens: row.output_tokens,
  cachedTokens: row.cached_tokens,
  reasoningTokens: row.reasoning_tokens,
  inputCost: row.input_cost,
  outputCost: row.output_cost,
  totalCost: row.total_cost,
  finishReason: row.finish_reason,
  toolCalls: row.tool_calls,
  isError: Boolean(row.is_error),
  distributedTraceId: nullIfNil(row.distributed_trace_id),
  conversationId: row.conversation_id,
});

export type EntityKind = 'endpoint' | 'task' | 'ai';

export interface EntityRef {
  projectId: string;
  kind: EntityKind;
  id: string;
  name: string;
  recordedAt: string | null;
  durationMs: number;
  statusCode: number;
  isRoot: boolean;
  parentSpanId: string | null;
  distributedTraceId: string | null;
  serverName: string;
  appVersion: string;
  /** The caller's address (endpoints only; empty for tasks and AI traces). */
  clientIp: string;
  attributes: Record<string, string>;
}

export interface EntityRow {
  project_id: string;
  kind: EntityKind;
  id: string;
  name: string;
  recorded_at: string;
  duration_ns: number;
  status_code: number;
  is_root: boolean;
  parent_span_id: string;
  distributed_trace_id: string;
  server_name: string;
  app_version: string;
  client_ip: string;
  attributes: Record<string, string>;
}

export const toEntity = (row: EntityRow): EntityRef => ({
  projectId: row.project_id,
  kind: row.kind,
  id: row.id,
  name: row.name,
  recordedAt: isoOf(row.recorded_at),
  durationMs: row.duration_ns / 1e6,
  statusCode: row.status_code,
  isRoot: Boolean(row.is_root),
  parentSpanId: nullIfNil(row.parent_span_id),
  distributedTraceId: nullIfNil(row.distributed_trace_id),
  serverName: row.server_name,
  appVersion: row.app_version,
  clientIp: row.client_ip,
  attributes: row.attributes,
});

export interface SpanItem {
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: string;
  startTime: string | null;
  durationMs: number;
  statusCode: number;
  attributes: Record<string, string>;
  events: Array<{ time: string | null; name: string; attributes: Record<string, string> }>;
}

export interface SpanRow {
  span_id: string;
  parent_span_id: string;
  name: string;
  kind: string;
  start_time: string;
  duration_ns: number;
  status_code: number;
  attributes: Record<string, string>;
  events: Array<
    [string, string, Record<string, string>] | { time: string; name: string; attributes: Record<string, string> }
  >;
}

export const toSpan = (row: SpanRow): SpanItem => ({
  spanId: row.span_id,
  parentSpanId: nullIfNil(row.parent_span_id),
  name: row.name,
  kind: row.kind,
  startTime: isoOf(row.start_time),
  durationMs: row.duration_ns / 1e6,
  statusCode: row.status_code,
  attributes: row.attributes,
  events: row.events.map((event) =>
    Array.isArray(event)
      ? { time: isoOf(event[0]), name: event[1], attributes: event[2] }
      : { time: isoOf(event.time), name: event.name, attributes: event.attributes },
  ),
});
