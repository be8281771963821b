/**
 * Log search: the spec's body (range, serviceName, minSeverity, traceId, attribute filters,
 * free-text search over bodies, orderBy, sortDirection, pagination). Pages are read with one row
 * more than asked to answer hasMore without counting the range. Re-sent records (the table is
 * ReplacingMergeTree on dedup_key) are dropped from the page by key rather than by FINAL, which
 * costs several times the read itself on freshly written parts (pageWithoutDuplicates).
 */
import type { TelemetryEngine } from '../engine.js';
import { empty, join, param, raw, sql, type Sql } from '../sql.js';
import { Filters, type FilterAllowList, type SearchPageInput } from './filters.js';
import { isoOf } from './convert.js';
import { inRange, ofProject, ownValue, runQuery } from './run.js';

export const LOG_FILTERS: FilterAllowList = {
  fields: {
    severityText: { sql: 'severity_text', type: 'string' },
    severityNumber: { sql: 'severity_number', type: 'number' },
    body: { sql: 'body', type: 'string' },
    spanId: { sql: 'span_id', type: 'string' },
  },
  maps: { attributes: 'attributes', resource: 'resource_attributes' },
};
const LOG_COLUMNS =
  'timestamp, observed_timestamp, severity_number, severity_text, body, trace_id, span_id, service_name, attributes, resource_attributes';

export const LOG_ORDER: Record<string, string> = {
  timestamp: 'timestamp',
  severity: 'severity_number',
  serviceName: 'service_name',
};

export interface LogSearch extends SearchPageInput {
  serviceName?: string | undefined;
  minSeverity?: number | undefined;
  traceId?: string | undefined;
}

interface LogRow {
  timestamp: string;
  observed_timestamp: string;
  severity_number: number;
  severity_text: string;
  body: string;
  trace_id: string;
  span_id: string;
  service_name: string;
  attributes: Record<string, string>;
  resource_attributes: Record<string, string>;
}

export async function searchLogs(engine: TelemetryEngine, projectId: string, input: LogSearch) {
  const conditions = [ofProject(projectId), inRange('timestamp', input.range)];
  if (input.serviceName !== undefined) conditions.push(sql`service_name = ${param(input.serviceName, 'String')}`);
  if (input.minSeverity !== undefined) conditions.push(sql`severity_number >= ${param(input.minSeverity, 'UInt8')}`);
  if (input.traceId !== undefined)
    conditions.push(sql`trace_id = ${param(input.traceId.toLowerCase().replace(/-/g, ''), 'String')}`);
  // hasTokenCaseInsensitive could use the token index only for whole tokens; substring search is the contract.
  const search = input.search
    ? sql` AND positionCaseInsensitiveUTF8(body, ${param(input.search, 'String')}) > 0`
    : empty;
  const where = sql`${join(conditions, ' AND ')}${(input.filters ?? Filters.none).sql}${search}`;
  const order = ownValue(LOG_ORDER, input.orderBy) ?? 'timestamp';
  const direction = input.direction === 'asc' ? 'ASC' : 'DESC';
  const orderBy = raw(`${order} ${direction}${order === 'timestamp' ? '' : `, timestamp ${direction}`}, dedup_key`);
  const offset = (input.page - 1) * input.pageSize;
  const rows = await pageWithoutDuplicates(engine, where, orderBy, offset, input.pageSize + 1);
  const hasMore = rows.length > input.pageSize;
  return {
    hasMore,
    items: rows.slice(0, input.pageSize).map((row) => ({
      timestamp: isoOf(row.timestamp),
      observedTimestamp: isoOf(row.observed_timestamp),
      severityNumber: row.severity_number,
      severityText: row.severity_text,
      body: row.body,
      traceId: row.trace_id || null,
      spanId: row.span_id || null,
      serviceName: row.service_name,
      attributes: row.attributes,
      resourceAttributes: row.resource_attributes,
    })),
  };
}

/** Pages ending within this many rows are read without FINAL; deeper ones with it. */
export const OVERFETCH_MAX_ROWS = 10_000;

/**
 * `count` rows from `offset` in `orderBy` order, each log once. A re-sent log is the same record
 * under the same dedup_key, and every sort column is part of that key, so its copies sort next
 * to each other: reading the first rows without FINAL (which merges every part of the range and
 * dominates on freshly written data) and dropping repeated keys gives the page FINAL would, as
 * long as enough rows were read. Reads more when duplicates left the page short; pages deeper
 * than OVERFETCH_MAX_ROWS use FINAL.
 */
async function pageWithoutDuplicates(
  engine: TelemetryEngine,
  where: Sql,
  orderBy: Sql,
  offset: number,
  count: number,
): Promise<LogRow[]> {
  const wanted = offset + count;
  for (
    let fetch = Math.max(64, wanted * 2);
    wanted <= OVERFETCH_MAX_ROWS && fetch <= OVERFETCH_MAX_ROWS * 4;
    fetch *= 4
  ) {
    const rows = await runQuery<LogRow & { dedup_key: string }>(
      engine,
      'logs.search',
      sql`SELECT ${raw(LOG_COLUMNS)}, dedup_key FROM logs WHERE ${where} ORDER BY ${orderBy} LIMIT ${param(fetch, 'UInt32')}`,
    );
    const seen = new Set<string>();
    const unique = rows.filter((row) => !seen.has(row.dedup_key) && seen.add(row.dedup_key));
    if (unique.length >= wanted || rows.length < fetch) return unique.slice(offset, wanted);
  }
  return runQuery<LogRow>(
    engine,
    'logs.search.final',
    sql`SELECT ${raw(LOG_COLUMNS)} FROM logs FINAL WHERE ${where} ORDER BY ${orderBy} LIMIT ${param(count, 'UInt32')} OFFSET ${param(offset, 'UInt32')}`,
  );
}
