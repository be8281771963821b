/** Metrics discovery and queries (homepage figures and charts: overview.ts; saved dashboards: dashboards.ts). */
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
import { bucketStarts } from '../../store/telemetry/queries/run.js';
import {
  bucketSecondsOf,
  filtersSchema,
  int,
  intArray,
  nnum,
  obj,
  readClockOf,
  projectOf,
  rangeProperties,
  rangeQuery,
  routeSchema,
  str,
  timeRangeOf,
  type RangeInput,
} from './conventions.js';

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
        timeRangeOf(request.query, readClockOf(request, services)),
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
      const range = timeRangeOf(body, readClockOf(request, services));
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
}
