/**
 * Endpoints and tasks: ranked lists (Impact for endpoints, count x (P95 - P50) for tasks), the
 * endpoint list rolled up by route, details with their slowest and failing traces, and every
 * call of one endpoint (task) a page at a time.
 */
import type { FastifyInstance } from 'fastify';
import {
  ENDPOINT_ORDER,
  ENDPOINT_SORT_KEYS,
  TASK_ORDER,
  TASK_SORT_KEYS,
  rankEndpoints,
  rankTasks,
  sortItems,
} from '../../core/ranking.js';
import type { Services } from '../../application/services.js';
import { Filters } from '../../store/telemetry/queries/filters.js';
import {
  ENDPOINT_FILTERS,
  TASK_FILTERS,
  endpointAggregates,
  entityCalls,
  entityDetail,
  taskAggregates,
  timeByEntity,
} from '../../store/telemetry/queries/entities.js';
import { bucketStarts, fillSeries, type TimeRange } from '../../store/telemetry/queries/run.js';
import {
  bucketSecondsOf,
  DEFAULT_APDEX_MS,
  int,
  listBody,
  listOf,
  listQueryOf,
  nnum,
  nstr,
  num,
  numArray,
  obj,
  pageOf,
  paginationOf,
  paginationSchema,
  readClockOf,
  projectOf,
  rangeProperties,
  routeSchema,
  str,
  TASK_FAILURES,
  strMap,
  timeRangeOf,
  type ReadClock,
  type ListBody,
  type ListSpec,
} from './conventions.js';

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

const ENDPOINT_LIST: ListSpec = {
  order: ENDPOINT_ORDER,
  fallback: { orderBy: 'impact', direction: 'desc' },
  filters: ENDPOINT_FILTERS,
};
const TASK_LIST: ListSpec = {
  order: TASK_ORDER,
  fallback: { orderBy: 'rank', direction: 'desc' },
  filters: TASK_FILTERS,
};

export async function listEndpoints(
  services: Services,
  projectId: string,
  body: EndpointBody | undefined,
  groupBy: 'name' | 'route',
  clock: ReadClock,
) {
  const { range, pagination, sort, filters } = listQueryOf(body, clock, ENDPOINT_LIST);
  const thresholdMs = body?.apdexThresholdMs ?? DEFAULT_APDEX_MS;
  const rows = await endpointAggregates(services.telemetry, projectId, {
    range,
    thresholdMs,
    filters,
    search: body?.search,
    groupBy,
  });
  const ranked = sortItems(
    rankEndpoints(rows, thresholdMs),
    ENDPOINT_SORT_KEYS[sort.orderBy as keyof typeof ENDPOINT_SORT_KEYS],
    sort.direction,
  );
  return { ...pageOf(ranked, pagination), apdexThresholdMs: thresholdMs };
}

const taskItem = obj({
  name: str,
  count: int,
  failures: { ...int, description: TASK_FAILURES },
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
  serverErrors: {
    ...int,
    description: `an endpoint's calls answered with a server error (5xx); a task's ${TASK_FAILURES} (so are the series' errors)`,
  },
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
/** The endpoint (task) the detail and calls routes read, by its name as listed. */
const entityName = { type: 'string', minLength: 1, maxLength: 2000 } as const;
const detailBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    ...rangeProperties,
    name: entityName,
    limit: {
      type: 'integer',
      minimum: 0,
      maximum: 100,
      description: 'calls in each of slowest, failing and recent (default 10; 0: none, page them with the calls route)',
    },
  },
} as const;

interface CallsBody {
  name: string;
  fromDate?: string;
  toDate?: string;
  failing?: boolean;
  orderBy?: 'duration' | 'recordedAt';
  sortDirection?: 'asc' | 'desc';
  pagination?: { page: number; pageSize: number };
}

const callsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    ...rangeProperties,
    name: entityName,
    failing: {
      type: 'boolean',
      description: `only an endpoint's calls answered 4xx or 5xx; a task's ${TASK_FAILURES}`,
    },
    orderBy: { type: 'string', enum: ['duration', 'recordedAt'], description: 'default duration' },
    sortDirection: { type: 'string', enum: ['asc', 'desc'], description: 'default desc' },
    pagination: paginationSchema,
  },
} as const;

async function callsOf(
  services: Services,
  projectId: string,
  table: 'endpoints' | 'tasks',
  body: CallsBody,
  clock: ReadClock,
) {
  const pagination = paginationOf(body.pagination);
  const page = await entityCalls(services.telemetry, projectId, table, {
    name: body.name,
    range: timeRangeOf(body, clock),
    failing: body.failing ?? false,
    orderBy: body.orderBy ?? 'duration',
    direction: body.sortDirection ?? 'desc',
    ...pagination,
  });
  return { items: page.items, page: pagination.page, pageSize: pagination.pageSize, hasMore: page.hasMore };
}

async function detailOf(
  services: Services,
  projectId: string,
  table: 'endpoints' | 'tasks',
  body: { name: string; limit?: number; fromDate?: string; toDate?: string },
  clock: ReadClock,
) {
  const range: TimeRange = timeRangeOf(body, clock);
  const bucketSeconds = bucketSecondsOf(range);
  const detail = await entityDetail(services.telemetry, projectId, table, {
    name: body.name,
    range,
    bucketSeconds,
    limit: body.limit ?? 10,
  });
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
  clock: ReadClock,
) {
  const range = timeRangeOf(body, clock);
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
    async (request) =>
      listEndpoints(services, projectOf(request), request.body, 'name', readClockOf(request, services)),
  );

  scope.post<{ Body: EndpointBody }>(
    '/api/endpoints/grouped',
    {
      schema: routeSchema('Endpoints', 'Endpoints rolled up by route template (all methods of a route together)', {
        body: listBody(ENDPOINT_ORDER, apdexProperty),
        response: listOf(endpointItem, { apdexThresholdMs: num }),
      }),
    },
    async (request) =>
      listEndpoints(services, projectOf(request), request.body, 'route', readClockOf(request, services)),
  );

  entityRoutes(scope, services, ENDPOINT_ENTITY);

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
    async (request) =>
      timeSeriesOf(services, projectOf(request), 'endpoints', request.body, readClockOf(request, services)),
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
    async (request) =>
      timeSeriesOf(services, projectOf(request), 'tasks', request.body, readClockOf(request, services)),
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
      const { range, pagination, sort, filters } = listQueryOf(body, readClockOf(request, services), TASK_LIST);
      const rows = await taskAggregates(services.telemetry, projectOf(request), {
        range,
        filters,
        search: body?.search,
      });
      const ranked = sortItems(
        rankTasks(rows),
        TASK_SORT_KEYS[sort.orderBy as keyof typeof TASK_SORT_KEYS],
        sort.direction,
      );
      return pageOf(ranked, pagination);
    },
  );

  entityRoutes(scope, services, TASK_ENTITY);
}

/** What the detail and calls routes of endpoints and of tasks say about one of theirs. */
interface EntityKind {
  table: 'endpoints' | 'tasks';
  tag: 'Endpoints' | 'Tasks';
  one: string;
  execution: string;
  failed: string;
}
const ENDPOINT_ENTITY: EntityKind = {
  table: 'endpoints',
  tag: 'Endpoints',
  one: 'endpoint',
  execution: 'call',
  failed: 'failing',
};
const TASK_ENTITY: EntityKind = { table: 'tasks', tag: 'Tasks', one: 'task', execution: 'run', failed: 'failed' };

/** `/api/{endpoints,tasks}/detail` and `/calls`: one by name, and its calls a page at a time. */
function entityRoutes(scope: FastifyInstance, services: Services, kind: EntityKind): void {
  scope.post<{ Body: { name: string; limit?: number; fromDate?: string; toDate?: string } }>(
    `/api/${kind.table}/detail`,
    {
      schema: routeSchema(
        kind.tag,
        `One ${kind.one} by name: totals, series, slowest and ${kind.failed} ${kind.execution}s`,
        { body: detailBody, response: detailResponse },
      ),
    },
    async (request) => detailOf(services, projectOf(request), kind.table, request.body, readClockOf(request, services)),
  );

  scope.post<{ Body: CallsBody }>(
    `/api/${kind.table}/calls`,
    {
      schema: routeSchema(
        kind.tag,
        `A page of one ${kind.one}'s ${kind.execution}s: slowest first by default, or newest, or ${kind.failed} only`,
        { body: callsBody, response: listOf(traceSummary) },
      ),
    },
    async (request) => callsOf(services, projectOf(request), kind.table, request.body, readClockOf(request, services)),
  );
}
