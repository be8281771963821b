/**
 * The one way a read query reaches the telemetry engine: tagged (a SQL comment naming the query,
 * visible in ClickHouse's query log), bounded by resource settings (time, rows read, result
 * rows), timed, and its failures mapped to TelemetryQueryError (a resource-limit code becomes a
 * 422 "narrow the time range" in the error handler). Values always travel as `{name:Type}`
 * parameters.
 */
import { TelemetryQueryError, clickhouseCodeOf, type QueryParams, type TelemetryEngine } from '../engine.js';

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

export async function runQuery<T>(
  engine: TelemetryEngine,
  tag: string,
  sql: string,
  params: Record<string, unknown>,
): Promise<T[]> {
  const started = performance.now();
  try {
    const rows = await engine.query<T>(tagged(sql, tag), params as QueryParams, {
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

/** `column` within the range, binding `fromMs` and `toMs` into params. */
export function inRange(column: string, range: TimeRange, params: Record<string, unknown>): string {
  params.fromMs = range.fromMs;
  params.toMs = range.toMs;
  return `${column} >= fromUnixTimestamp64Milli({fromMs:Int64}) AND ${column} < fromUnixTimestamp64Milli({toMs:Int64})`;
}

/** Epoch seconds of the bucket start of `column`, with the bucket size bound as `bucket`. */
export function bucketOf(column: string, bucketSeconds: number, params: Record<string, unknown>): string {
  params.bucket = bucketSeconds;
  return `intDiv(toUnixTimestamp(${column}), {bucket:UInt32}) * {bucket:UInt32}`;
}

/** Filter operators of the read API. */
export type FilterOp = 'eq' | 'neq' | 'contains' | 'gt' | 'gte' | 'lt' | 'lte';
export const FILTER_OPS: readonly FilterOp[] = ['eq', 'neq', 'contains', 'gt', 'gte', 'lt', 'lte'];

export interface Filter {
  field: string;
  op: FilterOp;
  value: string | number | boolean;
}

/** A filterable field: a column expression and its type. */
export interface FieldSpec {
  sql: string;
  type: 'string' | 'number' | 'bool';
}

/** Map columns whose keys are filterable as `<prefix>.<key>`. */
export type MapFields = Record<string, string>;

/**
 * `record[key]` when `key` is the record's own property: a caller-supplied name such as
 * `constructor` or `__proto__` must not resolve through Object.prototype.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export class FilterError extends Error {
  override name = 'FilterError';
}

const OPERATOR: Record<Exclude<FilterOp, 'contains'>, string> = {
  eq: '=',
  neq: '!=',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

/**
 * ` AND ...` for the filters, each field resolved through the allow-list (`fields`, and
 * `maps`: prefix -> Map column), every value and map key bound as a parameter. Unknown fields,
 * operators that do not fit the field's type, and values of the wrong type throw FilterError.
 */
export function filterSql(
  filters: readonly Filter[] | undefined,
  fields: Record<string, FieldSpec>,
  maps: MapFields,
  params: Record<string, unknown>,
): string {
  if (!filters || filters.length === 0) return '';
  const clauses: string[] = [];
  filters.forEach((filter, index) => {
    let spec = ownValue(fields, filter.field);
    if (!spec) {
      const dot = filter.field.indexOf('.');
      const column = dot > 0 ? ownValue(maps, filter.field.slice(0, dot)) : undefined;
      const key = dot > 0 ? filter.field.slice(dot + 1) : '';
      if (!column || key === '')
        throw new FilterError(
          `filters[${index}].field ${JSON.stringify(filter.field)} is not filterable here; use one of ${allowedFields(fields, maps)}`,
        );
      params[`fk${index}`] = key;
      spec = { sql: `${column}[{fk${index}:String}]`, type: 'string' };
    }
    const name = `fv${index}`;
    if (filter.op === 'contains') {
      if (spec.type !== 'string') throw new FilterError(`filters[${index}]: contains applies to text fields only`);
      params[name] = String(filter.value).toLowerCase();
      clauses.push(`positionCaseInsensitiveUTF8(${spec.sql}, {${name}:String}) > 0`);
      return;
    }
    if (spec.type === 'number') {
      const value = typeof filter.value === 'number' ? filter.value : Number(filter.value);
      if (!Number.isFinite(value)) throw new FilterError(`filters[${index}].value must be a number`);
      params[name] = value;
      clauses.push(`${spec.sql} ${OPERATOR[filter.op]} {${name}:Float64}`);
      return;
    }
    if (spec.type === 'bool') {
      if (filter.op !== 'eq' && filter.op !== 'neq')
        throw new FilterError(`filters[${index}]: only eq and neq apply to ${filter.field}`);
      params[name] = filter.value === true || filter.value === 'true' ? 1 : 0;
      clauses.push(`${spec.sql} ${OPERATOR[filter.op]} {${name}:UInt8}`);
      return;
    }
    params[name] = String(filter.value);
    clauses.push(`${spec.sql} ${OPERATOR[filter.op]} {${name}:String}`);
  });
  return clauses.map((clause) => ` AND ${clause}`).join('');
}

function allowedFields(fields: Record<string, FieldSpec>, maps: MapFields): string {
  return [...Object.keys(fields), ...Object.keys(maps).map((prefix) => `${prefix}.<key>`)].join(', ');
}

/** `YYYY-MM-DD hh:mm:ss[.f...]` (UTC, ClickHouse's JSON form of DateTime64) as RFC 3339. */
export function isoOf(value: string | null): string | null {
  if (value === null || value === undefined) return null;
  return `${value.replace(' ', 'T')}Z`;
}

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
export const nullIfNil = (value: string): string | null => (value === NIL_UUID || value === '' ? null : value);

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
