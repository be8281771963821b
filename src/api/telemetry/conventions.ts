/**
 * The conventions of every telemetry read route, in one place (docs/ARCHITECTURE.md "Read API"):
 *
 * - Project: `?projectId=` checked by requireProjectRole; queries take it from projectScopeOf().
 * - Time range: `fromDate`, `toDate` (ISO 8601) in the body (or the query string of GET routes);
 *   default the last 24 hours ending now; `toDate` after `fromDate`; at most 31 days (422). The
 *   start is clamped to the first instant the organization's plan keeps (readClockOf); a read by
 *   id passes that instant to its query (keptRowsOf), so an older row is not found.
 *   Series use a bucket chosen from the range (at most ~120 buckets).
 * - Pagination: `pagination: {page 1-1,000,000, pageSize 1-500}` (400 outside, as the spec's log search).
 * - Filters: `filters: [{field, op, value}]`, op one of eq, neq, contains, gt, gte, lt, lte, on a
 *   per-route allow-list of fields; map columns as `attributes.<key>`. A route parses them with
 *   Filters.parse before any query (a list route through listQueryOf, with range, pagination and
 *   sort); its FilterError is a 400 in the error handler.
 * - Sort: `orderBy` (per-route allow-list) and `sortDirection` `asc` | `desc`.
 * - Lists answer `{items, page, pageSize, total?, hasMore}`; errors are `{error}`.
 */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../application/services.js';
import { keptDays } from '../../core/plans.js';
import { badRequest, unprocessable } from '../../http/errors.js';
import { parseIsoInstant } from '../../core/instants.js';
import { FILTER_OPS, Filters, type Filter, type FilterAllowList } from '../../store/telemetry/queries/filters.js';
import { ROLLED_APDEX_MS } from '../../store/telemetry/queries/rollups.js';
import type { TimeRange } from '../../store/telemetry/queries/run.js';
import { projectScopeOf } from '../project-scope.js';

export const DAY_MS = 24 * 3600 * 1000;
/** Apdex T when a request names none: the rollup's, so the default is answered from it. */
export const DEFAULT_APDEX_MS = ROLLED_APDEX_MS;
export const DEFAULT_RANGE_MS = DAY_MS;
export const MAX_RANGE_MS = 31 * DAY_MS;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
/**
 * The last page a list answers: the row offset, (page - 1) × pageSize, is a UInt32 parameter of
 * the telemetry queries, which refused a larger one as a server fault (500). A million pages of
 * 500 is past any listing a person pages through.
 */
export const MAX_PAGE = 1_000_000;

export interface RangeInput {
  fromDate?: string;
  toDate?: string;
}

export interface Pagination {
  page: number;
  pageSize: number;
}

export interface ListBody extends RangeInput {
  pagination?: Pagination;
  filters?: Filter[];
  search?: string;
  orderBy?: string;
  sortDirection?: 'asc' | 'desc';
}

export interface Sort {
  orderBy: string;
  direction: 'asc' | 'desc';
}

export interface ListAnswer<T> {
  items: T[];
  page: number;
  pageSize: number;
  total?: number;
  hasMore: boolean;
}

/** The project id of every query: the authorized scope, never the raw parameter. */
export const projectOf = (request: FastifyRequest): string => projectScopeOf(request).projectId;

function parseInstant(value: string, field: string): number {
  const ms = parseIsoInstant(value);
  if (ms === null) throw badRequest(`${field} must be an ISO 8601 timestamp`);
  return ms;
}

/** What a read's range is resolved against: the clock, and the first instant the project's plan keeps. */
export interface ReadClock {
  now: number;
  keptFromMs: number;
}

/** The first instant a plan keeping `retentionDays` (hot + warm) keeps at `now`. */
export const keptFromOf = (now: number, retentionDays: number): number => now - keptDays(retentionDays) * DAY_MS;

/** The read clock of a route behind requireProjectRole. */
export function readClockOf(request: FastifyRequest, services: Pick<Services, 'now'>): ReadClock {
  const now = services.now();
  return { now, keptFromMs: keptFromOf(now, projectScopeOf(request).retentionDays) };
}

export function timeRangeOf(input: RangeInput | undefined, clock: ReadClock): TimeRange {
  const toMs = input?.toDate ? parseInstant(input.toDate, 'toDate') : clock.now;
  const fromMs = input?.fromDate ? parseInstant(input.fromDate, 'fromDate') : toMs - DEFAULT_RANGE_MS;
  // Well-formed dates in a range the service does not answer: a validation failure (422), not a malformed body.
  if (toMs <= fromMs) throw unprocessable('toDate must be after fromDate');
  if (toMs - fromMs > MAX_RANGE_MS)
    throw unprocessable('the time range is longer than 31 days: narrow fromDate..toDate');
  // Rows older than the plan keeps are deleted by the retention job, up to an hour later: until
  // then no read answers them. A range wholly before is answered empty (a zero-length range), as
  // a range older than the tables' TTLs or in the future is.
  const keptFromMs = Math.min(Math.max(fromMs, clock.keptFromMs), toMs);
  return { fromMs: keptFromMs, toMs };
}

const BUCKETS = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600];

/** The series bucket of a range: the smallest of 1 min .. 1 day giving at most 120 buckets. */
export function bucketSecondsOf(range: TimeRange): number {
  const seconds = (range.toMs - range.fromMs) / 1000;
  return BUCKETS.find((bucket) => seconds / bucket <= 120) ?? 24 * 3600;
}

/** Schema validation already bounds page and pageSize (400); this applies the defaults. */
export function paginationOf(input: Pagination | undefined): Pagination {
  const page = input?.page ?? 1;
  const pageSize = input?.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE)
    throw badRequest(`pagination.page must be an integer from 1 to ${MAX_PAGE}`);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    throw badRequest('pagination.pageSize must be an integer from 1 to 500');
  return { page, pageSize };
}

export function sortOf(
  body: { orderBy?: string; sortDirection?: 'asc' | 'desc' } | undefined,
  allowed: readonly string[],
  fallback: Sort,
): Sort {
  const orderBy = body?.orderBy ?? fallback.orderBy;
  if (!allowed.includes(orderBy)) throw badRequest(`orderBy must be one of ${allowed.join(', ')}`);
  return { orderBy, direction: body?.sortDirection ?? fallback.direction };
}

/** A list route's body, checked: what every list query takes. */
export interface ListQuery {
  range: TimeRange;
  pagination: Pagination;
  sort: Sort;
  filters: Filters;
}

/** What a list route allows: its sort keys and default sort, and its filter allow-list. */
export interface ListSpec {
  order: readonly string[];
  fallback: Sort;
  filters: FilterAllowList;
}

/**
 * The range, pagination, sort and filters of a list body, checked in that order (the first
 * failing one is the 400) against the route's ListSpec.
 */
export function listQueryOf(body: ListBody | undefined, clock: ReadClock, spec: ListSpec): ListQuery {
  const range = timeRangeOf(body, clock);
  const pagination = paginationOf(body?.pagination);
  const sort = sortOf(body, spec.order, spec.fallback);
  const filters = Filters.parse(body?.filters, spec.filters);
  return { range, pagination, sort, filters };
}

/** The answer of a page of `total` items; more follow when the page ends before the total. */
export function pageAnswer<T>(pagination: Pagination, items: T[], total: number): Required<ListAnswer<T>> {
  return {
    items,
    page: pagination.page,
    pageSize: pagination.pageSize,
    total,
    hasMore: (pagination.page - 1) * pagination.pageSize + items.length < total,
  };
}

/** A page of an in-memory ranked list (lists whose rows are a bounded group-by). */
export function pageOf<T>(rows: readonly T[], pagination: Pagination): ListAnswer<T> {
  const start = (pagination.page - 1) * pagination.pageSize;
  return pageAnswer(pagination, rows.slice(start, start + pagination.pageSize), rows.length);
}

// ---- JSON schemas shared by every route (OpenAPI is generated from them) -------------------

export const projectQuery = {
  type: 'object',
  required: ['projectId'],
  properties: {
    projectId: { type: 'string', format: 'uuid', description: 'The project to read (authorized per caller).' },
  },
} as const;

export const rangeQuery = {
  type: 'object',
  required: ['projectId'],
  properties: {
    projectId: projectQuery.properties.projectId,
    fromDate: { type: 'string', description: 'ISO 8601; default toDate - 24 h' },
    toDate: { type: 'string', description: 'ISO 8601; default now; at most 31 days after fromDate' },
  },
} as const;

export const rangeProperties = {
  fromDate: { type: 'string', description: 'ISO 8601 start (inclusive); default toDate - 24 h' },
  toDate: { type: 'string', description: 'ISO 8601 end (exclusive); default now; at most 31 days after fromDate' },
} as const;

export const paginationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['page', 'pageSize'],
  properties: {
    page: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
  },
} as const;

export const filtersSchema = {
  type: 'array',
  maxItems: 20,
  description: 'Conjunction of conditions on the route\'s filterable fields; map columns as "attributes.<key>".',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['field', 'op', 'value'],
    properties: {
      field: { type: 'string', minLength: 1, maxLength: 200 },
      op: { type: 'string', enum: FILTER_OPS },
      value: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] },
    },
  },
} as const;

/** The body of a list route: range, pagination, filters, search, sort, plus its own fields. */
export function listBody(orderBy: readonly string[], extra: Record<string, unknown> = {}, required: string[] = []) {
  return {
    type: 'object',
    additionalProperties: false,
    required,
    properties: {
      ...rangeProperties,
      pagination: paginationSchema,
      filters: filtersSchema,
      search: { type: 'string', maxLength: 500 },
      orderBy: { type: 'string', enum: orderBy },
      sortDirection: { type: 'string', enum: ['asc', 'desc'] },
      ...extra,
    },
  } as const;
}

export const errorSchema = { type: 'object', properties: { error: { type: 'string' } } } as const;

export const errorResponses = {
  400: { description: 'malformed body, range over 31 days, invalid pagination or filter', ...errorSchema },
  401: { description: 'missing or unknown credential (empty body)', type: 'null' },
  403: { description: 'no access to the project', ...errorSchema },
  422: { description: 'the query needs more resources than allowed: narrow the range or filter', ...errorSchema },
} as const;

/** `{items, page, pageSize, total?, hasMore}` around an item schema. */
export function listOf(item: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    type: 'object',
    required: ['items', 'page', 'pageSize', 'hasMore'],
    properties: {
      items: { type: 'array', items: item },
      page: { type: 'integer' },
      pageSize: { type: 'integer' },
      total: { type: 'integer' },
      hasMore: { type: 'boolean' },
      ...extra,
    },
  } as const;
}

export const str = { type: 'string' } as const;
export const nstr = { type: ['string', 'null'] } as const;
export const num = { type: 'number' } as const;
export const nnum = { type: ['number', 'null'] } as const;
export const int = { type: 'integer' } as const;

/** What a task's failures count, wherever they are answered. */
export const TASK_FAILURES =
  'failed runs: a server-error status (an OpenTelemetry span with an ERROR status) or an exception recorded on the run (the report protocol sends tasks with status 0)';
export const bool = { type: 'boolean' } as const;
export const strMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
export const numArray = { type: 'array', items: { type: 'number' } } as const;
export const intArray = { type: 'array', items: int } as const;

export function obj(properties: Record<string, unknown>, required: string[] = Object.keys(properties)) {
  return { type: 'object', required, properties } as const;
}

/** Route options of a read route: tag, summary, schemas (with error answers). */
export function routeSchema(
  tag: string,
  summary: string,
  parts: { querystring?: unknown; body?: unknown; params?: unknown; response: unknown; status?: 200 | 201 },
) {
  return {
    tags: [tag],
    summary,
    security: [{ bearer: [] }],
    querystring: parts.querystring ?? projectQuery,
    ...(parts.body ? { body: parts.body } : {}),
    ...(parts.params ? { params: parts.params } : {}),
    response: { [parts.status ?? 200]: parts.response, ...errorResponses },
  };
}
