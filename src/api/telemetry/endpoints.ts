/**
 * Endpoints and tasks: ranked lists (Impact for endpoints, count x (P95 - P50) for tasks), the
 * endpoint list rolled up by route, and details with their slowest and failing traces.
 */
import type { FastifyInstance } from 'fastify';
import { impactOf, taskRank } from '../../core/impact.js';
import type { Services } from '../../application/services.js';
import { ROLLED_APDEX_MS } from '../../store/telemetry/queries/rollups.js';
import { Filters } from '../../store/telemetry/queries/filters.js';
import {
  ENDPOINT_FILTERS,
  TASK_FILTERS,
  endpointAggregates,
  entityDetail,
  taskAggregates,
  timeByEntity,
  type EndpointAggregateRow,
} from '../../store/telemetry/queries/entities.js';
import { bucketStarts, fillSeries, type TimeRange } from '../../store/telemetry/queries/run.js';
import {
  bucketSecondsOf,
  int,
  listBody,
  listOf,
  nnum,
  nstr,
  num,
  numArray,
  obj,
  pageOf,
  paginationOf,
  projectOf,
  rangeProperties,
  routeSchema,
  sortOf,
  str,
  strMap,
  timeRangeOf,
  type ListBody,
} from './conventions.js';

/** The rollup's threshold: the default is answered from it. */
export const DEFAULT_APDEX_MS = ROLLED_APDEX_MS;

const ENDPOINT_ORDER = [
  'impact',
  'requests',
  'p50',
  'p95',
  'p99',
  'errorRate',
  'clientErrorRate',
  'apdex',
  'name',
  'lastSeen',
] as const;

const endpointItem = obj({
  name: str,
  method: str,
  route: str,
  requests: int,
  serverErrors: int,
  clientErrors: int,
  streamingRequests: int,
  streaming: {
    type: 'boolean',
    description: 'true when any request streamed (SSE, WebSocket): excluded from latency and Apdex',
  },
  p50Ms: nnum,
  p95Ms: nnum,
  p99Ms: nnum,
  apdex: nnum,
  errorRate: num,
  clientErrorRate: num,
  impact: num,
  impactComponents: obj({ apdex: num, errorRate: num, p99: num, clientErrorRate: num, volumeWeightedErrorRate: num }),
  reason: str,
  lastSeen: nstr,
});

export type EndpointItem = ReturnType<typeof rankEndpoints>[number];

/** Scores aggregated rows with Apdex and Impact; the busiest endpoint is the volume reference. */
export function rankEndpoints(rows: readonly EndpointAggregateRow[], thresholdMs: number) {
  const busiest = rows.reduce((max, row) => Math.max(max, row.requests), 0);
  return rows.map((row) => {
    const impact = impactOf(
      {
        name: row.group_key,
        requests: row.requests,
        serverErrors: row.server_errors,
        clientErrors: row.client_errors,
        latencyRequests: row.latency_requests,
        satisfied: row.satisfied,
        tolerating: row.tolerating,
        p99Ms: row.p99_ms,
      },
      thresholdMs,
      busiest,
    );
    return {
      name: row.group_key,
      method: row.any_method,
      route: row.any_route,
      requests: row.requests,
      serverErrors: row.server_errors,
      clientErrors: row.client_errors,
      streamingRequests: row.streaming_requests,
      streaming: row.streaming_requests > 0,
      p50Ms: row.p50_ms,
      p95Ms: row.p95_ms,
      p99Ms: row.p99_ms,
      apdex: impact.apdex,
      errorRate: impact.errorRate,
      clientErrorRate: impact.clientErrorRate,
      impact: impact.score,
      impactComponents: impact.components,
      reason: impact.reason,
      lastSeen: row.last_seen ? `${row.last_seen.replace(' ', 'T')}Z` : null,
    };
  });
}

const SORT_KEY: Record<(typeof ENDPOINT_ORDER)[number], (item: EndpointItem) => number | string> = {
  impact: (i) => i.impact,
  requests: (i) => i.requests,
  p50: (i) => i.p50Ms ?? -1,
  p95: (i) => i.p95Ms ?? -1,
  p99: (i) => i.p99Ms ?? -1,
  errorRate: (i) => i.errorRate,
  clientErrorRate: (i) => i.clientErrorRate,
  apdex: (i) => i.apdex ?? 2,
  name: (i) => i.name,
  lastSeen: (i) => i.lastSeen ?? '',
};

export function sortItems<T extends { name: string }>(
  items: T[],
  key: (item: T) => number | string,
  direction: 'asc' | 'desc',
): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return items.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x < y) return -sign;
    if (x > y) return sign;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

interface EndpointBody extends ListBody {
  apdexThresholdMs?: number;
}

const apdexProperty = {
  apdexThresholdMs: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 600_000,
    description: `Apdex T in milliseconds (default ${DEFAULT_APDEX_MS})`,
  },
};

export async function listEndpoints(
  services: Services,
  projectId: string,
  body: EndpointBody | undefined,
  groupBy: 'name' | 'route',
  now: number,
) {
  const range = timeRangeOf(body, now);
  const pagination = paginationOf(body?.pagination);
  const sort = sortOf(body, ENDPOINT_ORDER, { orderBy: 'impact', direction: 'desc' });
  const thresholdMs = body?.apdexThresholdMs ?? DEFAULT_APDEX_MS;
  const filters = Filters.parse(body?.filters, ENDPOINT_FILTERS);
  const rows = await endpointAggregates(services.telemetry, projectId, {
    range,
    thresholdMs,
    filters,
    search: body?.search,
    groupBy,
  });
  const ranked = sortItems(
    rankEndpoints(rows, thresholdMs),
    SORT_KEY[sort.orderBy as (typeof ENDPOINT_ORDER)[number]],
    sort.direction,
  );
  return { ...pageOf(ranked, pagination), apdexThresholdMs: thresholdMs };
}

const TASK_ORDER = ['rank', 'count', 'p50', 'p95', 'p99', 'failures', 'name', 'lastSeen'] as const;
const taskItem = obj({
  name: str,
  count: int,
  failures: int,
  p50Ms: num,
  p95Ms: num,
  p99Ms: num,
  rank: num,
  lastSeen: nstr,
});

const traceSummary = obj({
  id: str,
  recordedAt: nstr,
  durationMs: num,
  statusCode: int,
  distributedTraceId: nstr,
  serverName: str,
  attributes: strMap,
});
const detailResponse = obj({
  name: str,
  fromDate: str,
  toDate: str,
  bucketSeconds: int,
  count: int,
  serverErrors: int,
  clientErrors: int,
  p50Ms: nnum,
  p95Ms: nnum,
  p99Ms: nnum,
  series: obj({
    t: { type: 'array', items: int },
    count: numArray,
    errors: numArray,
    p50Ms: { type: 'array', items: nnum },
    p95Ms: { type: 'array', items: nnum },
    p99Ms: { type: 'array', items: nnum },
  }),
  statusCodes: {
    type: 'array',
    description: 'calls per status code, most frequent first (at most 50 codes)',
    items: obj({ statusCode: int, count: int }),
  },
  slowest: { type: 'array', items: traceSummary },
  failing: { type: 'array', items: traceSummary },
  recent: { type: 'array', description: 'the newest calls', items: traceSummary },
});
const detailBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    ...rangeProperties,
    name: { type: 'string', minLength: 1, maxLength: 2000 },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
  },
} as const;

async function detailOf(
  services: Services,
  projectId: string,
  table: 'endpoints' | 'tasks',
  body: { name: string; limit?: number; fromDate?: string; toDate?: string },
  now: number,
) {
  const range: TimeRange = timeRangeOf(body, now);
  const bucketSeconds = bucketSecondsOf(range);
  const detail = await entityDetail(
    services.telemetry,
    projectId,
    table,
    body.name,
    range,
    bucketSeconds,
    body.limit ?? 10,
  );
  const byT = new Map(detail.series.map((point) => [point.t, point]));
  const ts = bucketStarts(range, bucketSeconds);
  return {
    name: body.name,
    fromDate: new Date(range.fromMs).toISOString(),
    toDate: new Date(range.toMs).toISOString(),
    bucketSeconds,
    count: detail.count,
    serverErrors: detail.serverErrors,
    clientErrors: detail.clientErrors,
    p50Ms: detail.p50Ms,
    p95Ms: detail.p95Ms,
    p99Ms: detail.p99Ms,
    series: {
      t: ts,
      count: ts.map((t) => byT.get(t)?.count ?? 0),
      errors: ts.map((t) => byT.get(t)?.errors ?? 0),
      p50Ms: ts.map((t) => byT.get(t)?.p50Ms ?? null),
      p95Ms: ts.map((t) => byT.get(t)?.p95Ms ?? null),
      p99Ms: ts.map((t) => byT.get(t)?.p99Ms ?? null),
    },
    statusCodes: detail.statusCodes,
    slowest: detail.slowest,
    failing: detail.failing,
    recent: detail.recent,
  };
}

interface TimeSeriesBody {
  fromDate?: string;
  toDate?: string;
  filters?: ListBody['filters'];
  search?: string;
  top?: number;
}

const DEFAULT_TOP = 8;
const timeSeriesBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...rangeProperties,
    filters: listBody([]).properties.filters,
    search: { type: 'string', maxLength: 500 },
    top: {
      type: 'integer',
      minimum: 1,
      maximum: 20,
      description: `how many series before "other" (default ${DEFAULT_TOP})`,
    },
  },
} as const;
const timeSeriesResponse = obj({
  bucketSeconds: int,
  bucketStarts: { type: 'array', items: int },
  series: { type: 'array', items: obj({ name: str, totalMs: numArray }) },
  other: numArray,
});

/** Total time per bucket of the top entities by total time, and of the others together. */
async function timeSeriesOf(
  services: Services,
  projectId: string,
  table: 'endpoints' | 'tasks',
  body: TimeSeriesBody | undefined,
  now: number,
) {
  const range = timeRangeOf(body, now);
  const bucketSeconds = bucketSecondsOf(range);
  const filters = Filters.parse(body?.filters, table === 'endpoints' ? ENDPOINT_FILTERS : TASK_FILTERS);
  const answer = await timeByEntity(services.telemetry, projectId, table, {
    range,
    bucketSeconds,
    top: body?.top ?? DEFAULT_TOP,
    filters,
    search: body?.search,
  });
  return {
    bucketSeconds,
    bucketStarts: bucketStarts(range, bucketSeconds),
    series: answer.series.map((entry) => ({
      name: entry.name,
      totalMs: fillSeries(range, bucketSeconds, entry.totalMs),
    })),
    other: fillSeries(range, bucketSeconds, answer.other),
  };
}

export function endpointRoutes(scope: FastifyInstance, services: Services): void {
  scope.post<{ Body: EndpointBody }>(
    '/api/endpoints',
    {
      schema: routeSchema(
        'Endpoints',
        'Inbound HTTP endpoints ranked by Impact, with Apdex, P50/P95/P99, error and client-error rates',
        {
          body: listBody(ENDPOINT_ORDER, apdexProperty),
          response: listOf(endpointItem, { apdexThresholdMs: num }),
        },
      ),
    },
    async (request) => listEndpoints(services, projectOf(request), request.body, 'name', services.now()),
  );

  scope.post<{ Body: EndpointBody }>(
    '/api/endpoints/grouped',
    {
      schema: routeSchema('Endpoints', 'Endpoints rolled up by route template (all methods of a route together)', {
        body: listBody(ENDPOINT_ORDER, apdexProperty),
        response: listOf(endpointItem, { apdexThresholdMs: num }),
      }),
    },
    async (request) => listEndpoints(services, projectOf(request), request.body, 'route', services.now()),
  );

  scope.post<{ Body: { name: string; limit?: number; fromDate?: string; toDate?: string } }>(
    '/api/endpoints/detail',
    {
      schema: routeSchema('Endpoints', 'One endpoint by name: totals, series, slowest and failing traces', {
        body: detailBody,
        response: detailResponse,
      }),
    },
    async (request) => detailOf(services, projectOf(request), 'endpoints', request.body, services.now()),
  );

  scope.post<{ Body: TimeSeriesBody }>(
    '/api/endpoints/series',
    {
      schema: routeSchema(
        'Endpoints',
        'Total time per bucket of the endpoints with the most total time (top N) and of all others; streaming requests left out',
        {
          body: timeSeriesBody,
          response: timeSeriesResponse,
        },
      ),
    },
    async (request) => timeSeriesOf(services, projectOf(request), 'endpoints', request.body, services.now()),
  );

  scope.post<{ Body: TimeSeriesBody }>(
    '/api/tasks/series',
    {
      schema: routeSchema(
        'Tasks',
        'Total run time per bucket of the tasks with the most total time (top N) and of all others',
        { body: timeSeriesBody, response: timeSeriesResponse },
      ),
    },
    async (request) => timeSeriesOf(services, projectOf(request), 'tasks', request.body, services.now()),
  );

  scope.post<{ Body: ListBody }>(
    '/api/tasks',
    {
      schema: routeSchema('Tasks', 'Background tasks ranked by count x (P95 - P50)', {
        body: listBody(TASK_ORDER),
        response: listOf(taskItem),
      }),
    },
    async (request) => {
      const body = request.body;
      const range = timeRangeOf(body, services.now());
      const pagination = paginationOf(body?.pagination);
      const sort = sortOf(body, TASK_ORDER, { orderBy: 'rank', direction: 'desc' });
      const filters = Filters.parse(body?.filters, TASK_FILTERS);
      const rows = await taskAggregates(services.telemetry, projectOf(request), range, filters, body?.search);
      const items = rows.map((row) => ({
        name: row.name,
        count: row.count,
        failures: row.failures,
        p50Ms: row.p50_ms,
        p95Ms: row.p95_ms,
        p99Ms: row.p99_ms,
        rank: taskRank(row.count, row.p50_ms, row.p95_ms),
        lastSeen: `${row.last_seen.replace(' ', 'T')}Z`,
      }));
      const keys: Record<string, (item: (typeof items)[number]) => number | string> = {
        rank: (i) => i.rank,
        count: (i) => i.count,
        p50: (i) => i.p50Ms,
        p95: (i) => i.p95Ms,
        p99: (i) => i.p99Ms,
        failures: (i) => i.failures,
        name: (i) => i.name,
        lastSeen: (i) => i.lastSeen,
      };
      return pageOf(sortItems(items, keys[sort.orderBy]!, sort.direction), pagination);
    },
  );

  scope.post<{ Body: { name: string; limit?: number; fromDate?: string; toDate?: string } }>(
    '/api/tasks/detail',
    {
      schema: routeSchema('Tasks', 'One task by name: totals, series, slowest and failing runs', {
        body: detailBody,
        response: detailResponse,
      }),
    },
    async (request) => detailOf(services, projectOf(request), 'tasks', request.body, services.now()),
  );
}
