/**
 * POST /api/logs: the spec's log search body. Free-text search with no other selector
 * (serviceName, minSeverity, traceId or an attribute filter) over more than 24 hours is 422.
 */
import type { FastifyInstance } from 'fastify';
import { unprocessable } from '../../http/errors.js';
import type { Services } from '../../application/services.js';
import type { Filter } from '../../store/telemetry/queries/filters.js';
import { LOG_FILTERS, LOG_ORDER, searchLogs } from '../../store/telemetry/queries/logs.js';
import {
  DAY_MS,
  filtersSchema,
  int,
  listOf,
  listQueryOf,
  nstr,
  obj,
  paginationSchema,
  readClockOf,
  projectOf,
  rangeProperties,
  routeSchema,
  str,
  strMap,
  type ListSpec,
  type Pagination,
} from './conventions.js';

interface LogBody {
  fromDate?: string;
  toDate?: string;
  serviceName?: string;
  minSeverity?: number;
  traceId?: string;
  filters?: Filter[];
  search?: string;
  orderBy?: string;
  sortDirection?: 'asc' | 'desc';
  pagination: Pagination;
}

const logItem = obj({
  timestamp: nstr,
  observedTimestamp: nstr,
  severityNumber: int,
  severityText: str,
  body: str,
  traceId: nstr,
  spanId: nstr,
  serviceName: str,
  attributes: strMap,
  resourceAttributes: strMap,
});

export const FREE_TEXT_LIMIT_MS = DAY_MS;

export function logRoutes(scope: FastifyInstance, services: Services): void {
  const order = Object.keys(LOG_ORDER);
  const logList: ListSpec = { order, fallback: { orderBy: 'timestamp', direction: 'desc' }, filters: LOG_FILTERS };
  scope.post<{ Body: LogBody }>(
    '/api/logs',
    {
      schema: routeSchema('Logs', "Log records, filtered and paginated (the spec's log search body)", {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['pagination'],
          properties: {
            ...rangeProperties,
            serviceName: { type: 'string', maxLength: 500 },
            minSeverity: {
              type: 'integer',
              minimum: 0,
              maximum: 24,
              description: 'OpenTelemetry severity number (9 INFO, 13 WARN, 17 ERROR)',
            },
            traceId: { type: 'string', pattern: '^[0-9a-fA-F]{32}$|^[0-9a-fA-F-]{36}$' },
            filters: {
              ...filtersSchema,
              description:
                'attribute filters: "attributes.<key>", "resource.<key>", or severityText, severityNumber, body, spanId',
            },
            search: {
              type: 'string',
              maxLength: 500,
              description:
                'free text, case-insensitive substring of the body; over more than 24 h it needs another selector',
            },
            orderBy: { type: 'string', enum: order, default: 'timestamp' },
            sortDirection: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
            pagination: paginationSchema,
          },
        },
        response: listOf(logItem),
      }),
    },
    async (request) => {
      const body = request.body;
      const { range, pagination, sort, filters } = listQueryOf(body, readClockOf(request, services), logList);
      const selective =
        body.serviceName !== undefined ||
        body.minSeverity !== undefined ||
        body.traceId !== undefined ||
        filters.fields.length > 0;
      if (body.search && !selective && range.toMs - range.fromMs > FREE_TEXT_LIMIT_MS) {
        throw unprocessable(
          'free-text search over more than 24 hours needs another selector (serviceName, minSeverity, traceId or an attribute filter)',
        );
      }
      const result = await searchLogs(services.telemetry, projectOf(request), {
        range,
        serviceName: body.serviceName,
        minSeverity: body.minSeverity,
        traceId: body.traceId,
        filters,
        search: body.search,
        orderBy: sort.orderBy,
        direction: sort.direction,
        ...pagination,
      });
      return { items: result.items, page: pagination.page, pageSize: pagination.pageSize, hasMore: result.hasMore };
    },
  );
}
