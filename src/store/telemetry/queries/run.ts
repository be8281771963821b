/**
 * The one way a read query reaches the telemetry engine: tagged (a SQL comment naming the query,
 * visible in ClickHouse's query log), bounded by resource settings (time, rows read, result
 * rows), timed, and its failures mapped to TelemetryQueryError (a resource-limit code becomes a
 * 422 "narrow the time range" in the error handler). A statement is a Sql fragment (../sql.ts):
 * values always travel as `{name:Type}` parameters.
 */
import { TelemetryQueryError, clickhouseCodeOf, type QueryParams, type TelemetryEngine } from '../engine.js';
import { param, raw, sql, type Sql } from '../sql.js';

export interface QueryLimits {
  /** Seconds a read may run (max_execution_time, timeout_overflow_mode throw). */
  maxExecutionSeconds: number;
  /** Rows a read may scan (max_rows_to_read, read_overflow_mode throw). */
  maxRowsToRead: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxExecutionSeconds: 20, maxRowsToRead: 2_000_000_000 };

let limits: QueryLimits = { ...DEFAULT_QUERY_LIMITS };

/**
 * The bounds of every read in this process: openServices sets them from configuration
 * (QUERY_MAX_EXECUTION_SECONDS, QUERY_MAX_ROWS_TO_READ); tests of the 4xx path tighten them.
 */
export function setQueryLimits(next: Partial<QueryLimits>): QueryLimits {
  const previous = limits;
  limits = { ...limits, ...next };
  return previous;
}

export function queryLimits(): QueryLimits {
  return limits;
}

export type QueryObserver = (tag: string, seconds: number, rows: number) => void;
let observer: QueryObserver | null = null;
export function observeQueries(next: QueryObserver | null): void {
  observer = next;
}

export async function runQuery<T>(engine: TelemetryEngine, tag: string, query: Sql): Promise<T[]> {
  const started = performance.now();
  try {
    const rows = await engine.query<T>(tagged(query.sql, tag), query.params as QueryParams, {
      max_execution_time: limits.maxExecutionSeconds,
      timeout_overflow_mode: 'throw',
      max_rows_to_read: limits.maxRowsToRead,
      read_overflow_mode: 'throw',
      // A re-sent record keeps its timestamp, so its duplicates share a partition: FINAL need
      // not merge across partitions (and runs per partition in parallel).
      do_not_merge_across_partitions_select_final: 1,
    });
    observer?.(tag, (performance.now() - started) / 1000, rows.length);
    return rows;
  } catch (error) {
    if (error instanceof TelemetryQueryError) throw new TelemetryQueryError(error.message, error.code, tag);
    const message = error instanceof Error ? error.message : String(error);
    throw new TelemetryQueryError(message, clickhouseCodeOf(message), tag);
  }
}

/** The tag as a comment after the leading SELECT (where it survives every client and proxy). */
function tagged(sql: string, tag: string): string {
  const safe = tag.replace(/[^\w.-]/g, '_');
  return /^\s*SELECT\b/i.test(sql) ? sql.replace(/^\s*SELECT\b/i, `SELECT /* sightline:${safe} */`) : sql;
}

/** A time range in epoch milliseconds, [fromMs, toMs). */
export interface TimeRange {
  fromMs: number;
  toMs: number;
}

/**
 * `record[key]` when `key` is the record's own property: a caller-supplied name such as
 * `constructor` or `__proto__` must not resolve through Object.prototype.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The project condition every telemetry read starts with (the sort keys start with project_id). */
export function ofProject(projectId: string): Sql {
  return sql`project_id = ${param(projectId, 'UUID')}`;
}

/** `LIMIT ... OFFSET ...` of a page (page from 1). */
export function limitOffset(page: { page: number; pageSize: number }): Sql {
  return sql`LIMIT ${param(page.pageSize, 'UInt32')} OFFSET ${param((page.page - 1) * page.pageSize, 'UInt32')}`;
}

/** `column` (a trusted column name) within the range. */
export function inRange(column: string, range: TimeRange): Sql {
  const name = raw(column);
  return sql`${name} >= fromUnixTimestamp64Milli(${param(range.fromMs, 'Int64')}) AND ${name} < fromUnixTimestamp64Milli(${param(range.toMs, 'Int64')})`;
}

/** Epoch seconds of the bucket start of `column` (a trusted column name). */
export function bucketOf(column: string, bucketSeconds: number): Sql {
  const bucket = param(bucketSeconds, 'UInt32');
  return sql`intDiv(toUnixTimestamp(${raw(column)}), ${bucket}) * ${bucket}`;
}

/** Zero-filled series over [fromMs, toMs) in buckets of `bucketSeconds`. */
export function fillSeries(range: TimeRange, bucketSeconds: number, points: ReadonlyMap<number, number>): number[] {
  const first = Math.floor(range.fromMs / 1000 / bucketSeconds) * bucketSeconds;
  const out: number[] = [];
  for (let t = first; t * 1000 < range.toMs; t += bucketSeconds) out.push(points.get(t) ?? 0);
  return out;
}

/** Bucket start times (epoch seconds) of fillSeries. */
export function bucketStarts(range: TimeRange, bucketSeconds: number): number[] {
  const first = Math.floor(range.fromMs / 1000 / bucketSeconds) * bucketSeconds;
  const out: number[] = [];
  for (let t = first; t * 1000 < range.toMs; t += bucketSeconds) out.push(t);
  return out;
}
