/** Homepage figures and charts: GET /api/dashboard, GET /api/dashboard/overview, POST /api/stats. */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../application/services.js';
import { ENDPOINT_SORT_KEYS, rankEndpoints, sortItems } from '../../core/ranking.js';
import { homeOverview, projectSeries, projectStats } from '../../store/telemetry/queries/overview.js';
import { bucketStarts, fillSeries } from '../../store/telemetry/queries/run.js';
import {
  bucketSecondsOf,
  DEFAULT_APDEX_MS,
  int,
  intArray,
  nnum,
  num,
  obj,
  readClockOf,
  projectOf,
  rangeProperties,
  rangeQuery,
  routeSchema,
  str,
  TASK_FAILURES,
  timeRangeOf,
  type RangeInput,
} from './conventions.js';

const statsSchema = obj({
  fromDate: str,
  toDate: str,
  requests: int,
  serverErrors: int,
  clientErrors: int,
  errorRate: num,
  p95Ms: nnum,
  tasks: int,
  taskFailures: { ...int, description: TASK_FAILURES },
  exceptions: int,
  issues: int,
  aiCalls: int,
  aiCost: num,
  sessions: int,
  logs: { ...int, description: 'Log records received in the range (a re-sent batch may count twice)' },
  metricPoints: { ...int, description: 'Metric points received in the range (a re-sent batch may count twice)' },
});

/** How many endpoints home lists, by Impact. */
const HOME_ENDPOINTS = 5;

export function overviewRoutes(scope: FastifyInstance, services: Services): void {
  scope.post<{ Body: RangeInput }>(
    '/api/stats',
    {
      schema: routeSchema('Dashboard', 'Homepage figures over the range', {
        body: { type: 'object', additionalProperties: false, properties: rangeProperties },
        response: statsSchema,
      }),
    },
    async (request) => {
      const range = timeRangeOf(request.body, readClockOf(request, services));
      const stats = await projectStats(services.telemetry, projectOf(request), range);
      return { fromDate: new Date(range.fromMs).toISOString(), toDate: new Date(range.toMs).toISOString(), ...stats };
    },
  );

  scope.get<{ Querystring: RangeInput }>(
    '/api/dashboard',
    {
      schema: routeSchema(
        'Dashboard',
        'The homepage charts: requests, server errors, P95, exceptions and task runs per bucket',
        {
          querystring: rangeQuery,
          response: obj({
            bucketSeconds: int,
            bucketStarts: intArray,
            requests: intArray,
            serverErrors: intArray,
            p95Ms: { type: 'array', items: nnum },
            exceptions: intArray,
            tasks: intArray,
          }),
        },
      ),
    },
    async (request) => {
      const range = timeRangeOf(request.query, readClockOf(request, services));
      const bucketSeconds = bucketSecondsOf(range);
      const series = await projectSeries(services.telemetry, projectOf(request), range, bucketSeconds);
      const starts = bucketStarts(range, bucketSeconds);
      return {
        bucketSeconds,
        bucketStarts: starts,
        requests: fillSeries(range, bucketSeconds, series.requests),
        serverErrors: fillSeries(range, bucketSeconds, series.serverErrors),
        p95Ms: starts.map((t) => series.p95Ms.get(t) ?? null),
        exceptions: fillSeries(range, bucketSeconds, series.exceptions),
        tasks: fillSeries(range, bucketSeconds, series.tasks),
      };
    },
  );

  scope.get<{ Querystring: RangeInput }>(
    '/api/dashboard/overview',
    {
      schema: routeSchema(
        'Dashboard',
        "The homepage's figures and its top 5 endpoints by Impact, read together (one pass over the endpoints for both)",
        {
          querystring: rangeQuery,
          response: obj({
            stats: statsSchema,
            endpoints: {
              type: 'array',
              items: obj({ name: str, requests: int, impact: num, reason: str, p95Ms: nnum, errorRate: num }),
            },
          }),
        },
      ),
    },
    async (request) => {
      const range = timeRangeOf(request.query, readClockOf(request, services));
      const overview = await homeOverview(services.telemetry, projectOf(request), range, DEFAULT_APDEX_MS);
      const endpoints = sortItems(
        rankEndpoints(overview.endpoints, DEFAULT_APDEX_MS),
        ENDPOINT_SORT_KEYS.impact,
        'desc',
      ).slice(0, HOME_ENDPOINTS);
      return {
        stats: {
          fromDate: new Date(range.fromMs).toISOString(),
          toDate: new Date(range.toMs).toISOString(),
          ...overview.stats,
        },
        endpoints: endpoints.map((e) => ({
          name: e.name,
          requests: e.requests,
          impact: e.impact,
          reason: e.reason,
          p95Ms: e.p95Ms,
          errorRate: e.errorRate,
        })),
      };
    },
  );
}
