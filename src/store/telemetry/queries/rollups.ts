/**
 * The hourly endpoint rollup (migration 0002): marking hours that received rows, rolling hours
 * from `endpoints FINAL`, and the endpoint figures a read merges from the rollup's current hours
 * and the raw table's rest (endpointParts).
 *
 * The guarantee kept is the raw table's: a re-sent record counts once. An hour is read from the
 * rollup only while its last roll (rolled_at) is later than its last mark (marked_at), both
 * server times. Ingest marks an hour after its rows are stored (so a roll that began before
 * they were visible is older than the mark and the hour reads raw until re-rolled), the first
 * time a process writes to it and whenever rows land in it once it has ended LATE_AFTER_MS ago.
 * The job rolls an hour once it ended ROLL_SETTLE_MS ago, and again whenever it is marked.
 */
import type { TelemetryEngine } from '../engine.js';
import { empty, join, param, raw, sql, type Param, type Sql } from '../sql.js';
import { inRange, ofProject, runQuery, type TimeRange } from './run.js';

export const HOUR_MS = 3600_000;
/** Apdex T of the rolled satisfied/tolerating counts; reads with another T use the raw table. */
export const ROLLED_APDEX_MS = 500;
/** An hour is first rolled once it ended this long ago. */
export const ROLL_SETTLE_MS = 10 * 60_000;
/**
 * Rows landing in an hour that ended at least this long ago mark it again, since it may have
 * been rolled already. Half the settle time: a write would have to take minutes to be missed.
 */
export const LATE_AFTER_MS = ROLL_SETTLE_MS / 2;

/**
 * Ranges with fewer whole hours read the raw table alone. Merging the rollup's latency quantile
 * states costs more than a short raw scan (10M-row bench: 24 h 163 ms from the rollup against
 * 88 ms raw on merged parts; 7 d 318 ms against 423 ms, and 390 against 829 ms unmerged).
 */
export const ROLLUP_MIN_HOURS = 48;

/** The end of the last hour (epoch seconds) the rollup's DateTime columns hold (2106). */
const LAST_ROLLABLE_HOUR_END = Math.floor(0xffff_ffff / 3600) * 3600;

/**
 * Hours may be marked from the raw table's retention back (its TTL, 90 days: older rows expire
 * at the next merge, and so do their rolls) to an hour ahead (client clocks run fast). Each mark
 * costs a roll of the hour, and a live hour's mark is remembered until the hour turns late, so
 * an hour outside the window is not marked. Its rows are stored all the same: a past hour's
 * expire, a future hour's read raw until the hour is marked within the window (by traffic
 * reaching it, or at the job's start) and rolled with them.
 */
export const MARK_WINDOW_PAST_MS = 90 * 24 * HOUR_MS;
export const MARK_WINDOW_AHEAD_MS = HOUR_MS;

/** The first and last hour (epoch seconds) that may be marked at `nowMs`: the window, within what the rollup holds. */
export function markableHours(nowMs: number): { first: number; last: number } {
  return {
    first: Math.max(0, Math.floor((nowMs - MARK_WINDOW_PAST_MS) / HOUR_MS) * 3600),
    last: Math.min(LAST_ROLLABLE_HOUR_END - 3600, Math.floor((nowMs + MARK_WINDOW_AHEAD_MS) / HOUR_MS) * 3600),
  };
}

/**
 * Marks every hour within the mark window holding endpoint rows that rollup_hours does not
 * know (data written before the rollup existed, or loaded around ingest). Reads only the sort
 * key's columns.
 */
export async function markUnknownHours(engine: TelemetryEngine, nowMs = Date.now()): Promise<void> {
  const { first, last } = markableHours(nowMs);
  await engine.command(
    `INSERT INTO rollup_hours (table_name, project_id, hour, rolled_at, marked_at)
     SELECT 'endpoints', project_id, h, toDateTime64(0, 3, 'UTC'), now64(3, 'UTC')
       FROM (SELECT DISTINCT project_id, toDateTime(toStartOfHour(recorded_at), 'UTC') AS h FROM endpoints
              WHERE recorded_at >= fromUnixTimestamp64Milli({from:Int64}) AND recorded_at < fromUnixTimestamp64Milli({to:Int64}))
      WHERE (project_id, h) NOT IN (SELECT project_id, hour FROM rollup_hours WHERE table_name = 'endpoints')`,
    { from: first * 1000, to: (last + 3600) * 1000 },
  );
}

/** Hours due a roll: marked since their last roll and ended ROLL_SETTLE_MS ago; oldest first. */
export async function dueHours(
  engine: TelemetryEngine,
  limit: number,
): Promise<Array<{ projectId: string; hour: number }>> {
  const rows = await engine.query<{ project_id: string; hour: number }>(
    `SELECT project_id, toUnixTimestamp(hour) AS hour FROM rollup_hours
      WHERE table_name = 'endpoints' AND hour <= now64(3, 'UTC') - toIntervalMillisecond({settle:UInt32}) - INTERVAL 1 HOUR
      GROUP BY project_id, hour
     HAVING max(marked_at) >= max(rolled_at)
      ORDER BY hour
      LIMIT {limit:UInt32}`,
    { settle: ROLL_SETTLE_MS, limit },
  );
  return rows.map((row) => ({ projectId: row.project_id, hour: row.hour }));
}

/** Rolls one hour of one project: its rows from `endpoints FINAL`, then the roll's time. */
export async function rollHour(engine: TelemetryEngine, projectId: string, hour: number): Promise<void> {
  // The roll's version is taken before the raw read: rows not yet visible to that read are
  // marked after it, so the hour reads raw (and is rolled again) until a roll includes them.
  const [started] = await engine.query<{ at: string }>("SELECT toString(now64(3, 'UTC')) AS at");
  const params = { project: projectId, hour, at: started!.at, tNs: ROLLED_APDEX_MS * 1_000_000 };
  await engine.command(
    `INSERT INTO endpoint_hourly (project_id, hour, name, route, method, rolled_at, requests, server_errors, client_errors,
                                  latency_requests, streaming_requests, satisfied, tolerating, latency, last_seen)
     SELECT project_id, toDateTime({hour:UInt32}, 'UTC'), name, any(route), any(method), toDateTime64({at:String}, 3, 'UTC'),
            count(), countIf(status_code >= 500), countIf(status_code >= 400 AND status_code < 500),
            countIf(NOT streaming), countIf(streaming),
            countIf(NOT streaming AND duration_ns <= {tNs:Int64}), countIf(NOT streaming AND duration_ns > {tNs:Int64} AND duration_ns <= 4 * {tNs:Int64}),
            quantilesStateIf(0.5, 0.95, 0.99)(duration_ns, NOT streaming), max(recorded_at)
       FROM endpoints FINAL
      WHERE project_id = {project:UUID} AND recorded_at >= toDateTime({hour:UInt32}, 'UTC') AND recorded_at < toDateTime({hour:UInt32}, 'UTC') + INTERVAL 1 HOUR
      GROUP BY project_id, name`,
    params,
  );
  await engine.command(
    `INSERT INTO rollup_hours (table_name, project_id, hour, rolled_at, marked_at)
     VALUES ('endpoints', {project:UUID}, toDateTime({hour:UInt32}, 'UTC'), toDateTime64({at:String}, 3, 'UTC'), toDateTime64(0, 3, 'UTC'))`,
    params,
  );
}

/**
 * The range's whole hours (epoch seconds, ascending) whose roll is current; none for a range of
 * fewer than ROLLUP_MIN_HOURS whole hours. The rest of the range — its partial first and last
 * hours and any hour not rolled or marked since — reads raw.
 */
export async function currentRolledHours(
  engine: TelemetryEngine,
  projectId: string,
  range: TimeRange,
): Promise<number[]> {
  const from = Math.max(0, Math.ceil(range.fromMs / HOUR_MS) * 3600);
  const to = Math.min(LAST_ROLLABLE_HOUR_END, Math.floor(range.toMs / HOUR_MS) * 3600);
  if ((to - from) / 3600 < ROLLUP_MIN_HOURS) return [];
  const rows = await runQuery<{ hour: number }>(
    engine,
    'rollup.hours',
    sql`SELECT toUnixTimestamp(hour) AS hour FROM rollup_hours
      WHERE ${ofProject(projectId)} AND table_name = 'endpoints'
        AND hour >= toDateTime(${param(from, 'UInt32')}, 'UTC') AND hour < toDateTime(${param(to, 'UInt32')}, 'UTC')
      GROUP BY hour HAVING max(rolled_at) > max(marked_at)
      ORDER BY hour`,
  );
  return rows.map((row) => row.hour);
}

/** The epoch-second hour start of a DateTime64 column. */
const hourOf = (column: string): string => `intDiv(toUnixTimestamp(${column}), 3600) * 3600`;

/** Most separate raw intervals a read spells out; past it the raw part filters hour by hour. */
const MAX_RAW_INTERVALS = 64;

/**
 * `recorded_at` within the parts of the range not covered by `hours`, as ranges the primary key
 * can prune to (so FINAL merges only those granules).
 */
function uncoveredRanges(range: TimeRange, hours: readonly number[]): Sql {
  const intervals: TimeRange[] = [];
  let cursor = range.fromMs;
  for (const hour of hours) {
    const start = hour * 1000;
    if (start > cursor) intervals.push({ fromMs: cursor, toMs: start });
    cursor = Math.max(cursor, start + HOUR_MS);
  }
  if (cursor < range.toMs) intervals.push({ fromMs: cursor, toMs: range.toMs });
  if (intervals.length === 0) return raw('0');
  if (intervals.length > MAX_RAW_INTERVALS)
    return sql`${inRange('recorded_at', range)} AND ${raw(hourOf('recorded_at'))} NOT IN ${param(hours, 'Array(UInt32)')}`;
  return join(
    intervals.map((interval) => sql`(${inRange('recorded_at', interval)})`),
    ' OR ',
  );
}

/** Aggregates of the figures over mergeable parts (a read that uses the rollup). */
const MERGED_FIGURES =
  raw(`sum(h_requests) AS requests, sum(h_server_errors) AS server_errors, sum(h_client_errors) AS client_errors,
  sum(h_latency_requests) AS latency_requests, sum(h_streaming_requests) AS streaming_requests,
  sum(h_satisfied) AS satisfied, sum(h_tolerating) AS tolerating,
  quantilesMerge(0.5, 0.95, 0.99)(h_latency) AS q, max(h_last_seen) AS last`);

/**
 * The same figures straight from raw rows (a read that does not use the rollup): no per-name
 * quantile states to build and merge, which cost a 24 h read more than its whole scan.
 */
const rawFigures = (tNs: Param): Sql => sql`count() AS requests, countIf(status_code >= 500) AS server_errors,
  countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(NOT streaming) AS latency_requests,
  countIf(streaming) AS streaming_requests, countIf(NOT streaming AND duration_ns <= ${tNs}) AS satisfied,
  countIf(NOT streaming AND duration_ns > ${tNs} AND duration_ns <= 4 * ${tNs}) AS tolerating,
  quantilesIf(0.5, 0.95, 0.99)(duration_ns, NOT streaming) AS q, max(recorded_at) AS last`;

export interface EndpointPartsInput {
  range: TimeRange;
  /** ` AND ...` over endpoint columns (filters, search). */
  filters: Sql;
  /** The filters use only columns the rollup keeps (name, method, route). */
  filtersRollable: boolean;
  thresholdMs: number;
  /** Also split by time bucket (column h_bucket, epoch seconds). */
  bucketSeconds?: number;
}

export interface EndpointParts {
  /** A subquery with columns name, h_route, h_method[, h_bucket] to group by. */
  source: Sql;
  /**
   * The aggregates over it, named requests, server_errors, client_errors, latency_requests,
   * streaming_requests, satisfied, tolerating, q (P50, P95, P99 in ns of non-streaming
   * requests) and last (the latest recorded_at).
   */
  figures: Sql;
  rolled: boolean;
}

/**
 * The endpoint figures of a range, as a subquery and the aggregates over it (see EndpointParts).
 * The range's whole hours whose roll is current come from endpoint_hourly as mergeable parts per
 * name (and bucket), and everything else from `endpoints FINAL`; when the rollup cannot answer
 * (a range under ROLLUP_MIN_HOURS, another Apdex T, a filter on a column it does not keep,
 * buckets finer than an hour) the subquery is the raw rows alone. Reads the current hours first
 * (a small query), so the raw part's ranges prune to the granules it needs.
 */
export async function endpointParts(
  engine: TelemetryEngine,
  projectId: string,
  input: EndpointPartsInput,
): Promise<EndpointParts> {
  const project = ofProject(projectId);
  const tNs = param(Math.round(input.thresholdMs * 1e6), 'Int64');
  const bucket = input.bucketSeconds;
  const rollable =
    input.thresholdMs === ROLLED_APDEX_MS && input.filtersRollable && (bucket === undefined || bucket % 3600 === 0);
  const hours = rollable ? await currentRolledHours(engine, projectId, input.range) : [];
  const bucketParam = bucket === undefined ? null : param(bucket, 'UInt32');
  const rawBucket =
    bucketParam === null
      ? empty
      : sql`intDiv(toUnixTimestamp(recorded_at), ${bucketParam}) * ${bucketParam} AS h_bucket, `;
  if (hours.length === 0) {
    return {
      source: sql`(SELECT name, route AS h_route, method AS h_method, ${rawBucket}status_code, streaming, duration_ns, recorded_at
               FROM endpoints FINAL
              WHERE ${project} AND ${inRange('recorded_at', input.range)}${input.filters})`,
      figures: rawFigures(tNs),
      rolled: false,
    };
  }
  const rolledBucket =
    bucketParam === null ? empty : sql`intDiv(toUnixTimestamp(hour), ${bucketParam}) * ${bucketParam} AS h_bucket, `;
  return {
    source: sql`(SELECT name, route AS h_route, method AS h_method, ${rolledBucket}requests AS h_requests, server_errors AS h_server_errors,
                  client_errors AS h_client_errors, latency_requests AS h_latency_requests, streaming_requests AS h_streaming_requests,
                  satisfied AS h_satisfied, tolerating AS h_tolerating, latency AS h_latency, last_seen AS h_last_seen
             FROM endpoint_hourly FINAL
            WHERE ${project} AND hour IN arrayMap(h -> toDateTime(h, 'UTC'), ${param(hours, 'Array(UInt32)')})${input.filters}
           UNION ALL
           SELECT name, any(route) AS h_route, any(method) AS h_method, ${rawBucket}count() AS h_requests,
                  countIf(status_code >= 500) AS h_server_errors, countIf(status_code >= 400 AND status_code < 500) AS h_client_errors,
                  countIf(NOT streaming) AS h_latency_requests, countIf(streaming) AS h_streaming_requests,
                  countIf(NOT streaming AND duration_ns <= ${tNs}) AS h_satisfied,
                  countIf(NOT streaming AND duration_ns > ${tNs} AND duration_ns <= 4 * ${tNs}) AS h_tolerating,
                  quantilesStateIf(0.5, 0.95, 0.99)(duration_ns, NOT streaming) AS h_latency, max(recorded_at) AS h_last_seen
             FROM endpoints FINAL
            WHERE ${project} AND (${uncoveredRanges(input.range, hours)})${input.filters}
            GROUP BY name${bucket === undefined ? empty : raw(', h_bucket')})`,
    figures: MERGED_FIGURES,
    rolled: true,
  };
}
