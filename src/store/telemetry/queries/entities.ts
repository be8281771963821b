/**
 * Endpoints, tasks and AI traces: aggregated lists, details (slowest and failing traces, series)
 * and the span waterfall of one entity. Every function takes the authorized project id first.
 * Lists deduplicate ReplacingMergeTree rows with FINAL (split per partition), which keeps one
 * pass over the range's granules.
 */
import type { EndpointAggregate, TaskAggregate } from '../../../core/ranking.js';
import type { TelemetryEngine } from '../engine.js';
import { endpointParts } from './rollups.js';
import { empty, join, param, raw, sql, type Sql } from '../sql.js';
import { Filters, type FieldSpec, type FilterAllowList, type MapFields, type SearchPageInput } from './filters.js';
import {
  toAiItem,
  toEndpointAggregate,
  toEntity,
  toSpan,
  toTaskAggregate,
  toTraceSummary,
  type AiRow,
  type AiTraceItem,
  type EndpointAggregateRow,
  type EntityRef,
  type EntityRow,
  type SpanItem,
  type SpanRow,
  type TaskAggregateRow,
  type TraceSummary,
  type TraceSummaryRow,
} from './entities.convert.js';
import { keptRowsOf } from './retention.js';
import { bucketOf, inRange, limitOffset, ofProject, ownValue, runQuery, type TimeRange } from './run.js';

const ENDPOINT_FIELDS: Record<string, FieldSpec> = {
  name: { sql: 'name', type: 'string' },
  method: { sql: 'method', type: 'string' },
  route: { sql: 'route', type: 'string' },
  statusCode: { sql: 'status_code', type: 'number' },
  durationMs: { sql: 'duration_ns / 1e6', type: 'number' },
  serverName: { sql: 'server_name', type: 'string' },
  appVersion: { sql: 'app_version', type: 'string' },
  streaming: { sql: 'streaming', type: 'bool' },
  isRoot: { sql: 'is_root', type: 'bool' },
};
const TASK_FIELDS: Record<string, FieldSpec> = {
  name: { sql: 'name', type: 'string' },
  statusCode: { sql: 'status_code', type: 'number' },
  durationMs: { sql: 'duration_ns / 1e6', type: 'number' },
  serverName: { sql: 'server_name', type: 'string' },
  appVersion: { sql: 'app_version', type: 'string' },
  isRoot: { sql: 'is_root', type: 'bool' },
};
const AI_FIELDS: Record<string, FieldSpec> = {
  name: { sql: 'name', type: 'string' },
  model: { sql: 'model', type: 'string' },
  provider: { sql: 'provider', type: 'string' },
  operation: { sql: 'operation', type: 'string' },
  finishReason: { sql: 'finish_reason', type: 'string' },
  totalCost: { sql: 'total_cost', type: 'number' },
  isError: { sql: 'is_error', type: 'bool' },
  serverName: { sql: 'server_name', type: 'string' },
};
const ATTRIBUTE_MAPS: MapFields = { attributes: 'attributes' };
export const ENDPOINT_FILTERS: FilterAllowList = { fields: ENDPOINT_FIELDS, maps: ATTRIBUTE_MAPS };
export const TASK_FILTERS: FilterAllowList = { fields: TASK_FIELDS, maps: ATTRIBUTE_MAPS };
export const AI_FILTERS: FilterAllowList = { fields: AI_FIELDS, maps: ATTRIBUTE_MAPS };

/** Most distinct names a list aggregates (the group-by is bounded; ranking happens on it). */
export const MAX_GROUPS = 10_000;

export interface EndpointListInput {
  range: TimeRange;
  thresholdMs: number;
  filters?: Filters | undefined;
  search?: string | undefined;
  /** Aggregate per `name` (endpoint) or per `route` (grouped). */
  groupBy: 'name' | 'route';
}

/** Filters the hourly rollup can answer: its columns carry the same names. */
const ROLLED_FIELDS = new Set(['name', 'method', 'route']);

/**
 * Per endpoint (or route) counts for Apdex and Impact; quantiles over non-streaming requests.
 * Whole hours come from the hourly rollup where it can answer (endpointParts).
 */
export async function endpointAggregates(
  engine: TelemetryEngine,
  projectId: string,
  input: EndpointListInput,
): Promise<EndpointAggregate[]> {
  return (await endpointRows(engine, projectId, input, false)).rows;
}

/**
 * Per endpoint rows and the figures of all endpoints together (the range's totals and P95), from
 * one read: `GROUPING SETS ((name), ())` aggregates the same rows twice in one pass, where a
 * separate totals statement would scan (and deduplicate) the range again.
 */
export async function endpointAggregatesWithTotal(
  engine: TelemetryEngine,
  projectId: string,
  input: Omit<EndpointListInput, 'groupBy'>,
): Promise<{ rows: EndpointAggregate[]; total: EndpointAggregate | null }> {
  return endpointRows(engine, projectId, { ...input, groupBy: 'name' }, true);
}

async function endpointRows(
  engine: TelemetryEngine,
  projectId: string,
  input: EndpointListInput,
  withTotal: boolean,
): Promise<{ rows: EndpointAggregate[]; total: EndpointAggregate | null }> {
  const filters = input.filters ?? Filters.none;
  const parts = await endpointParts(engine, projectId, {
    range: input.range,
    filters: sql`${filters.sql}${searchSql(input.search)}`,
    filtersRollable: filters.fields.every((field) => ROLLED_FIELDS.has(field)),
    thresholdMs: input.thresholdMs,
  });
  const byRoute = input.groupBy === 'route';
  const rows = await runQuery<EndpointAggregateRow & { is_total?: number }>(
    engine,
    `${byRoute ? 'endpoints.grouped' : withTotal ? 'endpoints.list.total' : 'endpoints.list'}${parts.rolled ? '.rollup' : ''}`,
    sql`SELECT ${raw(byRoute ? "h_route AS group_key, arrayStringConcat(arraySort(groupUniqArray(h_method)), ',') AS any_method, any(h_route) AS any_route" : 'name AS group_key, any(h_route) AS any_route, any(h_method) AS any_method')},
            ${parts.figures},
            if(latency_requests = 0, NULL, q[1] / 1e6) AS p50_ms, if(latency_requests = 0, NULL, q[2] / 1e6) AS p95_ms,
            if(latency_requests = 0, NULL, q[3] / 1e6) AS p99_ms,
            toString(last) AS last_seen${raw(withTotal ? ', grouping(name) AS is_total' : '')}
       FROM ${parts.source}
      GROUP BY ${raw(byRoute ? 'h_route' : withTotal ? 'GROUPING SETS ((name), ())' : 'name')}
      ORDER BY ${raw(withTotal ? 'is_total DESC, ' : '')}requests DESC
      LIMIT ${param(MAX_GROUPS, 'UInt32')}`,
  );
  if (!withTotal) return { rows: rows.map(toEndpointAggregate), total: null };
  // The totals row (grouping(name) = 1) sorts first; it exists even over no rows.
  const total = rows[0]?.is_total ? toEndpointAggregate(rows[0]) : null;
  return { rows: rows.filter((row) => !row.is_total).map(toEndpointAggregate), total };
}

/** ` AND ...` for a free-text search of names. */
function searchSql(search: string | undefined): Sql {
  return search ? sql` AND positionCaseInsensitiveUTF8(name, ${param(search, 'String')}) > 0` : empty;
}

/**
 * How long after a range's end an exception on a run within it may still be recorded: a task's
 * exception lands at the run's end, its row at the run's start, so a long run near the end of
 * the range has its exception after it. Bounds the set read by taskFailed.
 */
export const TASK_EXCEPTION_GRACE_MS = 86_400_000;

/**
 * "This task run failed", over rows of `tasks`: a server-error status (an OTLP span with an ERROR
 * status stores 500) or an exception that is not a message recorded on the run. The report
 * protocol sends every task with status 0, so for its clients the exception is the only signal.
 * The exceptions are the project's, linked to a task (is_task), recorded from the range's start
 * to TASK_EXCEPTION_GRACE_MS after its end; membership needs no deduplication (no FINAL).
 */
export function taskFailed(projectId: string, range: TimeRange): Sql {
  const recorded = inRange('recorded_at', { fromMs: range.fromMs, toMs: range.toMs + TASK_EXCEPTION_GRACE_MS });
  return sql`(status_code >= 500 OR id IN (SELECT trace_id FROM exceptions WHERE ${ofProject(projectId)} AND ${recorded} AND is_task AND NOT is_message))`;
}

export async function taskAggregates(
  engine: TelemetryEngine,
  projectId: string,
  input: { range: TimeRange; filters?: Filters | undefined; search?: string | undefined },
): Promise<TaskAggregate[]> {
  const rows = await runQuery<TaskAggregateRow>(
    engine,
    'tasks.list',
    sql`SELECT name, count() AS count, countIf(${taskFailed(projectId, input.range)}) AS failures,
            quantiles(0.5, 0.95, 0.99)(duration_ns) AS q, q[1] / 1e6 AS p50_ms, q[2] / 1e6 AS p95_ms, q[3] / 1e6 AS p99_ms,
            toString(max(recorded_at)) AS last_seen
       FROM tasks FINAL
      WHERE ${ofProject(projectId)} AND ${inRange('recorded_at', input.range)}${(input.filters ?? Filters.none).sql}${searchSql(input.search)}
      GROUP BY name
      ORDER BY count DESC
      LIMIT ${param(MAX_GROUPS, 'UInt32')}`,
  );
  return rows.map(toTaskAggregate);
}

export interface EntityDetail {
  count: number;
  /** An endpoint's calls with status >= 500; a task's failed runs (taskFailed). So is a bucket's `errors`. */
  serverErrors: number;
  clientErrors: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  series: Array<{
    t: number;
    count: number;
    errors: number;
    p50Ms: number | null;
    p95Ms: number | null;
    p99Ms: number | null;
  }>;
  /** Calls (runs) per status code, most frequent first. */
  statusCodes: Array<{ statusCode: number; count: number }>;
  slowest: TraceSummary[];
  failing: TraceSummary[];
  recent: TraceSummary[];
}

/** An endpoint or task by name: totals, a bucketed series, status codes, its slowest, failing and newest traces. */
export async function entityDetail(
  engine: TelemetryEngine,
  projectId: string,
  table: 'endpoints' | 'tasks',
  input: { name: string; range: TimeRange; bucketSeconds: number; limit: number },
): Promise<EntityDetail> {
  const where = sql`${ofProject(projectId)} AND ${inRange('recorded_at', input.range)} AND name = ${param(input.name, 'String')}`;
  const bucket = bucketOf('recorded_at', input.bucketSeconds);
  const from = raw(`${table} FINAL`);
  // A failed call: an endpoint's server error; a task run's failure (taskFailed).
  const failed = table === 'tasks' ? taskFailed(projectId, input.range) : sql`status_code >= 500`;
  const calls = (kind: CallsKind) =>
    input.limit === 0
      ? { items: [], hasMore: false }
      : entityCalls(engine, projectId, table, {
          name: input.name,
          range: input.range,
          ...CALLS_OF[kind],
          page: 1,
          pageSize: input.limit,
        });
  const [totals, series, statusCodes, slowest, failing, recent] = await Promise.all([
    runQuery<{
      count: number;
      server_errors: number;
      client_errors: number;
      p50: number | null;
      p95: number | null;
      p99: number | null;
    }>(
      engine,
      `${table}.detail.totals`,
      sql`SELECT count() AS count, countIf(${failed}) AS server_errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors,
              if(count() = 0, NULL, quantile(0.5)(duration_ns) / 1e6) AS p50, if(count() = 0, NULL, quantile(0.95)(duration_ns) / 1e6) AS p95,
              if(count() = 0, NULL, quantile(0.99)(duration_ns) / 1e6) AS p99
         FROM ${from} WHERE ${where}`,
    ),
    runQuery<{ t: number; count: number; errors: number; p50: number; p95: number; p99: number }>(
      engine,
      `${table}.detail.series`,
      sql`SELECT ${bucket} AS t, count() AS count, countIf(${failed}) AS errors,
              quantiles(0.5, 0.95, 0.99)(duration_ns) AS q, q[1] / 1e6 AS p50, q[2] / 1e6 AS p95, q[3] / 1e6 AS p99
         FROM ${from} WHERE ${where} GROUP BY t ORDER BY t`,
    ),
    runQuery<{ status_code: number; count: number }>(
      engine,
      `${table}.detail.status`,
      sql`SELECT status_code, count() AS count FROM ${from} WHERE ${where} GROUP BY status_code ORDER BY count DESC, status_code LIMIT 50`,
    ),
    calls('slowest'),
    calls('failing'),
    calls('recent'),
  ]);
  const total = totals[0];
  return {
    count: total?.count ?? 0,
    serverErrors: total?.server_errors ?? 0,
    clientErrors: total?.client_errors ?? 0,
    p50Ms: total?.count ? total.p50 : null,
    p95Ms: total?.count ? total.p95 : null,
    p99Ms: total?.count ? total.p99 : null,
    series: series.map((row) => ({
      t: row.t,
      count: row.count,
      errors: row.errors,
      p50Ms: row.p50,
      p95Ms: row.p95,
      p99Ms: row.p99,
    })),
    statusCodes: statusCodes.map((row) => ({ statusCode: row.status_code, count: row.count })),
    slowest: slowest.items,
    failing: failing.items,
    recent: recent.items,
  };
}

/** The calls lists of an endpoint's (task's) page: the slowest, the failing and the newest. */
export type CallsKind = 'slowest' | 'failing' | 'recent';

export const CALLS_OF: Record<CallsKind, { failing: boolean; orderBy: 'duration' | 'recordedAt'; direction: 'desc' }> =
  {
    slowest: { failing: false, orderBy: 'duration', direction: 'desc' },
    failing: { failing: true, orderBy: 'recordedAt', direction: 'desc' },
    recent: { failing: false, orderBy: 'recordedAt', direction: 'desc' },
  };

/**
 * A page of one endpoint's (task's) calls in the range, by duration or time. `failing`: an
 * endpoint's calls answered 4xx or 5xx, a task's failed runs (taskFailed). Ties are broken by id,
 * so pages do not overlap.
 */
export async function entityCalls(
  engine: TelemetryEngine,
  projectId: string,
  table: 'endpoints' | 'tasks',
  input: {
    name: string;
    range: TimeRange;
    failing: boolean;
    orderBy: 'duration' | 'recordedAt';
    direction: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
): Promise<{ items: TraceSummary[]; hasMore: boolean }> {
  const failed = table === 'tasks' ? taskFailed(projectId, input.range) : sql`status_code >= 400`;
  const where = sql`${ofProject(projectId)} AND ${inRange('recorded_at', input.range)} AND name = ${param(input.name, 'String')}${input.failing ? sql` AND (${failed})` : sql``}`;
  const direction = raw(input.direction === 'asc' ? 'ASC' : 'DESC');
  const order = raw(input.orderBy === 'duration' ? 'duration_ns' : 'recorded_at');
  const rows = await runQuery<TraceSummaryRow>(
    engine,
    `${table}.calls`,
    sql`SELECT id, recorded_at, duration_ns, status_code, distributed_trace_id, server_name, attributes
          FROM ${raw(`${table} FINAL`)} WHERE ${where}
         ORDER BY ${order} ${direction}, id ${direction}
         LIMIT ${param(input.pageSize + 1, 'UInt32')} OFFSET ${param((input.page - 1) * input.pageSize, 'UInt32')}`,
  );
  return { items: rows.slice(0, input.pageSize).map(toTraceSummary), hasMore: rows.length > input.pageSize };
}

export interface TimeByEntity {
  /** The `top` entities by total time over the range, largest first, with their time per bucket. */
  series: Array<{ name: string; totalMs: Map<number, number> }>;
  /** Everything else, per bucket. */
  other: Map<number, number>;
}

/**
 * Total time spent per bucket by each of the `top` endpoints (tasks) with the most time over the
 * range, and by all others together: the stacked "where does the time go" chart. Streaming
 * requests are left out: their duration is the life of a stream, not work.
 */
export async function timeByEntity(
  engine: TelemetryEngine,
  projectId: string,
  table: 'endpoints' | 'tasks',
  input: {
    range: TimeRange;
    bucketSeconds: number;
    top: number;
    filters?: Filters | undefined;
    search?: string | undefined;
  },
): Promise<TimeByEntity> {
  const where = sql`${ofProject(projectId)} AND ${inRange('recorded_at', input.range)}${raw(table === 'endpoints' ? ' AND NOT streaming' : '')}${(input.filters ?? Filters.none).sql}${searchSql(input.search)}`;
  const bucket = bucketOf('recorded_at', input.bucketSeconds);
  // Ranked in the engine (a window over the per-bucket sums, as the metric query ranks its
  // series): only the top names' buckets and one "other" per bucket come back, not every name's
  // (800 names x 96 buckets on the 10M-row bench).
  const rows = await runQuery<{ t: number; name_rank: number; name: string; total_ms: number }>(
    engine,
    `${table}.time-by-name`,
    sql`SELECT t, if(name_rank <= ${param(input.top, 'UInt32')}, name_rank, 0) AS name_rank, any(name) AS name, sum(total_ms) AS total_ms
       FROM (SELECT t, name, total_ms, dense_rank() OVER (ORDER BY name_total DESC, name) AS name_rank
               FROM (SELECT t, name, total_ms, sum(total_ms) OVER (PARTITION BY name) AS name_total
                       FROM (SELECT ${bucket} AS t, name, sum(duration_ns) / 1e6 AS total_ms FROM ${raw(table)} FINAL WHERE ${where} GROUP BY t, name LIMIT ${param(MAX_GROUPS * 200, 'UInt32')})))
      GROUP BY t, name_rank`,
  );
  const series = new Map<number, { name: string; totalMs: Map<number, number> }>();
  const other = new Map<number, number>();
  for (const row of rows) {
    if (row.name_rank === 0) {
      other.set(row.t, row.total_ms);
      continue;
    }
    const entry = series.get(row.name_rank) ?? { name: row.name, totalMs: new Map<number, number>() };
    entry.totalMs.set(row.t, row.total_ms);
    series.set(row.name_rank, entry);
  }
  return { series: [...series.entries()].sort((a, b) => a[0] - b[0]).map(([, entry]) => entry), other };
}

// ---- AI traces ------------------------------------------------------------------------------

export const AI_ORDER: Record<string, string> = {
  totalCost: 'total_cost',
  recordedAt: 'recorded_at',
  durationMs: 'duration_ns',
  totalTokens: 'input_tokens + output_tokens',
};

const AI_COLUMNS =
  raw(`id, name, recorded_at, duration_ns, model, provider, operation, input_tokens, output_tokens, cached_tokens, reasoning_tokens,
  input_cost, output_cost, total_cost, finish_reason, tool_calls, is_error, distributed_trace_id, conversation_id, conversation_key`);

export interface AiListResult {
  items: AiTraceItem[];
  total: number;
  perModel: Array<{
    model: string;
    provider: string;
    count: number;
    inputTokens: number;
    outputTokens: number;
    totalCost: number;
  }>;
  perDay: Array<{ day: string; count: number; totalCost: number }>;
}

export async function aiTraceList(
  engine: TelemetryEngine,
  projectId: string,
  input: SearchPageInput,
): Promise<AiListResult> {
  const where = sql`${ofProject(projectId)} AND ${inRange('recorded_at', input.range)}${(input.filters ?? Filters.none).sql}${searchSql(input.search)}`;
  const order = ownValue(AI_ORDER, input.orderBy) ?? 'total_cost';
  const [rows, sets] = await Promise.all([
    runQuery<AiRow>(
      engine,
      'ai.list',
      sql`SELECT ${AI_COLUMNS} FROM ai_traces FINAL WHERE ${where} ORDER BY ${raw(order)} ${raw(input.direction === 'asc' ? 'ASC' : 'DESC')}, id ${limitOffset(input)}`,
    ),
    // Totals, per model and per day in one pass (GROUPING SETS); per-model rows have day = ''.
    runQuery<{
      model: string;
      day: string;
      g: number;
      any_provider: string;
      count: number;
      sum_input: number;
      sum_output: number;
      sum_cost: number;
    }>(
      engine,
      'ai.totals',
      sql`SELECT model, toString(toDate(recorded_at)) AS day, grouping(model, day) AS g, any(provider) AS any_provider, count() AS count,
              sum(input_tokens) AS sum_input, sum(output_tokens) AS sum_output, sum(total_cost) AS sum_cost
         FROM ai_traces FINAL WHERE ${where}
        GROUP BY GROUPING SETS ((model), (day), ())
        ORDER BY sum_cost DESC LIMIT 2000`,
    ),
  ]);
  // grouping(model, day): 1 = grouped by model only (day rolled up), 2 = by day only, 3 = the total.
  const perModel = sets.filter((row) => row.g === 1);
  const perDay = sets.filter((row) => row.g === 2).sort((a, b) => (a.day < b.day ? -1 : 1));
  const totals = sets.filter((row) => row.g === 3).map((row) => ({ total: row.count }));
  return {
    items: rows.map(toAiItem),
    total: totals[0]?.total ?? 0,
    perModel: perModel.map((row) => ({
      model: row.model,
      provider: row.any_provider,
      count: row.count,
      inputTokens: row.sum_input,
      outputTokens: row.sum_output,
      totalCost: row.sum_cost,
    })),
    perDay: perDay.map((row) => ({ day: row.day, count: row.count, totalCost: row.sum_cost })),
  };
}

/** One AI trace of the project by id, unless it is older than `keptFromMs` (the plan's retention). */
export async function findAiTrace(
  engine: TelemetryEngine,
  projectId: string,
  id: string,
  keptFromMs: number,
): Promise<(AiTraceItem & { conversationKey: string; attributes: Record<string, string> }) | null> {
  const rows = await runQuery<AiRow & { attributes: Record<string, string> }>(
    engine,
    'ai.detail',
    sql`SELECT ${AI_COLUMNS}, attributes FROM ai_traces FINAL WHERE ${ofProject(projectId)} AND id = ${param(id, 'UUID')} AND ${keptRowsOf('ai_traces', keptFromMs)} LIMIT 1`,
  );
  const row = rows[0];
  return row ? { ...toAiItem(row), conversationKey: row.conversation_key, attributes: row.attributes } : null;
}

// ---- waterfall and distributed traces -------------------------------------------------------

const ENTITY_COLUMNS = raw(
  'project_id, id, name, recorded_at, duration_ns, is_root, parent_span_id, distributed_trace_id, server_name, app_version, attributes',
);

type EntityTable = 'endpoints' | 'tasks' | 'ai_traces';

/** The three entity tables, each under the condition `where` gives it (its retention column differs by table). */
function entityUnion(where: (table: EntityTable) => Sql): Sql {
  return sql`SELECT 'endpoint' AS kind, ${ENTITY_COLUMNS}, status_code, client_ip FROM endpoints FINAL WHERE ${where('endpoints')}
          UNION ALL SELECT 'task' AS kind, ${ENTITY_COLUMNS}, status_code, '' AS client_ip FROM tasks FINAL WHERE ${where('tasks')}
          UNION ALL SELECT 'ai' AS kind, ${ENTITY_COLUMNS}, toUInt16(if(is_error, 500, 200)) AS status_code, '' AS client_ip FROM ai_traces FINAL WHERE ${where('ai_traces')}`;
}

/** One entity of the project by id (entity ids are trace ids of their spans), unless older than `keptFromMs`. */
export async function findEntity(
  engine: TelemetryEngine,
  projectId: string,
  id: string,
  keptFromMs: number,
): Promise<EntityRef | null> {
  const rows = await runQuery<EntityRow>(
    engine,
    'entity.find',
    sql`${entityUnion((table) => sql`${ofProject(projectId)} AND id = ${param(id, 'UUID')} AND ${keptRowsOf(table, keptFromMs)}`)} LIMIT 1`,
  );
  return rows[0] ? toEntity(rows[0]) : null;
}

/** A project a read spans, with the first instant its organization's plan keeps. */
export interface KeptProject {
  projectId: string;
  keptFromMs: number;
}

/**
 * Every entity sharing a distributed trace id, within the given projects (the caller's), each
 * from its own plan's retention on. Projects are grouped by that instant: few plans, few groups.
 */
export async function entitiesOfDistributedTrace(
  engine: TelemetryEngine,
  projects: readonly KeptProject[],
  distributedTraceId: string,
): Promise<EntityRef[]> {
  if (projects.length === 0) return [];
  const byKeptFrom = new Map<number, string[]>();
  for (const { projectId, keptFromMs } of projects)
    byKeptFrom.set(keptFromMs, [...(byKeptFrom.get(keptFromMs) ?? []), projectId]);
  const kept = (table: EntityTable) =>
    join(
      [...byKeptFrom].map(
        ([keptFromMs, projectIds]) =>
          sql`(project_id IN ${param(projectIds, 'Array(UUID)')} AND ${keptRowsOf(table, keptFromMs)})`,
      ),
      ' OR ',
    );
  const rows = await runQuery<EntityRow>(
    engine,
    'distributed-trace.entities',
    sql`SELECT * FROM (${entityUnion((table) => sql`distributed_trace_id = ${param(distributedTraceId, 'UUID')} AND (${kept(table)})`)}) ORDER BY recorded_at LIMIT 1000`,
  );
  return rows.map(toEntity);
}

/**
 * The most spans one waterfall returns: a large batch job or a long streaming request reaches
 * thousands, and the dashboard virtualizes its rows, so the cap only bounds a runaway entity.
 */
export const MAX_WATERFALL_SPANS = 20_000;

/**
 * The spans of one entity (spans.trace_id is the owning entity id) started from `keptFromMs` on
 * (the plan's retention), in start order, at most MAX_WATERFALL_SPANS.
 */
export async function spansOf(
  engine: TelemetryEngine,
  projectId: string,
  entityId: string,
  keptFromMs: number,
): Promise<SpanItem[]> {
  const rows = await runQuery<SpanRow>(
    engine,
    'spans.waterfall',
    sql`SELECT span_id, parent_span_id, name, kind, start_time, duration_ns, status_code, attributes,
            arrayMap(e -> (toString(e.1), e.2, e.3), events) AS events
       FROM spans FINAL WHERE ${ofProject(projectId)} AND trace_id = ${param(entityId, 'UUID')} AND ${keptRowsOf('spans', keptFromMs)} ORDER BY start_time, span_id LIMIT ${param(MAX_WATERFALL_SPANS, 'UInt32')}`,
  );
  return rows.map(toSpan);
}
