/** Metrics discovery and queries, homepage stats and the dashboard reads (saved dashboards: dashboards.ts). */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../http/errors.js';
import type { Services } from '../../application/services.js';
import { Filters, type Filter } from '../../store/telemetry/queries/filters.js';
import {
  AGGREGATIONS,
  METRIC_FILTERS,
  discoverMetrics,
  queryMetric,
  type Aggregation,
} from '../../store/telemetry/queries/metrics.js';
import { homeOverview, projectSeries, projectStats } from '../../store/telemetry/queries/overview.js';
import { bucketStarts, fillSeries } from '../../store/telemetry/queries/run.js';
import { DEFAULT_APDEX_MS, rankEndpoints, sortItems } from './endpoints.js';
import {
  bucketSecondsOf,
  filtersSchema,
  int,
  nnum,
  num,
  obj,
  projectOf,
  rangeProperties,
  rangeQuery,
  routeSchema,
  str,
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
  taskFailures: int,
  exceptions: int,
  issues: int,
  aiCalls: int,
  aiCost: num,
  sessions: int,
});

const intArray = { type: 'array', items: int } as const;

interface MetricQueryBody extends RangeInput {
  name: string;
  aggregation?: Aggregation;
  groupBy?: string[];
  filters?: Filter[];
  bucketSeconds?: number;
}

export function metricRoutes(scope: FastifyInstance, services: Services): void {
  scope.get<{ Querystring: RangeInput }>(
    '/api/metrics/discover',
    {
      schema: routeSchema('Metrics', 'Metric names seen in the range with their dimensions and up to 50 values each', {
        querystring: rangeQuery,
        response: obj({
          metrics: {
            type: 'array',
            items: obj({
              name: str,
              points: int,
              lastSeen: str,
              dimensions: { type: 'array', items: obj({ key: str, values: { type: 'array', items: str } }) },
            }),
          },
        }),
      }),
    },
    async (request) => ({
      metrics: await discoverMetrics(
        services.telemetry,
        projectOf(request),
        timeRangeOf(request.query, services.now()),
      ),
    }),
  );

  scope.post<{ Body: MetricQueryBody }>(
    '/api/metrics/query',
    {
      schema: routeSchema(
        'Metrics',
        'One metric aggregated per time bucket, grouped by dimensions (at most 50 series)',
        {
          body: {
            type: 'object',
            additionalProperties: false,
            required: ['name'],
            properties: {
              ...rangeProperties,
              name: { type: 'string', minLength: 1, maxLength: 500 },
              aggregation: { type: 'string', enum: AGGREGATIONS, default: 'avg' },
              groupBy: {
                type: 'array',
                maxItems: 5,
                items: { type: 'string', minLength: 1, maxLength: 200 },
                description: 'dimension keys, or serverName',
              },
              filters: filtersSchema,
              bucketSeconds: {
                type: 'integer',
                minimum: 10,
                maximum: 86400,
                description: 'default: chosen from the range',
              },
            },
          },
          response: obj({
            name: str,
            aggregation: str,
            bucketSeconds: int,
            bucketStarts: intArray,
            series: {
              type: 'array',
              items: obj({
                group: { type: 'object', additionalProperties: { type: 'string' } },
                values: { type: 'array', items: nnum },
              }),
            },
          }),
        },
      ),
    },
    async (request) => {
      const body = request.body;
      const range = timeRangeOf(body, services.now());
      const bucketSeconds = body.bucketSeconds ?? bucketSecondsOf(range);
      if ((range.toMs - range.fromMs) / 1000 / bucketSeconds > 2000)
        throw badRequest('bucketSeconds gives more than 2000 buckets over the range');
      const filters = Filters.parse(body.filters, METRIC_FILTERS);
      const aggregation = body.aggregation ?? 'avg';
      const groupBy = body.groupBy ?? [];
      const series = await queryMetric(services.telemetry, projectOf(request), {
        range,
        bucketSeconds,
        name: body.name,
        aggregation,
        groupBy,
        filters,
      });
      const starts = bucketStarts(range, bucketSeconds);
      return {
        name: body.name,
        aggregation,
        bucketSeconds,
        bucketStarts: starts,
        series: series.map((s) => {
          const byT = new Map(s.points.map((p) => [p.t, p.value]));
          return { group: s.group, values: starts.map((t) => byT.get(t) ?? null) };
        }),
      };
    },
  );

  scope.post<{ Body: RangeInput }>(
    '/api/stats',
    {
      schema: routeSchema('Dashboard', 'Homepage figures over the range', {
        body: { type: 'object', additionalProperties: false, properties: rangeProperties },
        response: statsSchema,
      }),
    },
    async (request) => {
      const range = timeRangeOf(request.body, services.now());
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
      const range = timeRangeOf(request.query, services.now());
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
      const range = timeRangeOf(request.query, services.now());
      const overview = await homeOverview(services.telemetry, projectOf(request), range, DEFAULT_APDEX_MS);
      const endpoints = sortItems(rankEndpoints(overview.endpoints, DEFAULT_APDEX_MS), (i) => i.impact, 'desc').slice(
        0,
        5,
      );
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
