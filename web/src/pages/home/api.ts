/**
 * Home's reads as queries, shared by the page and its route's loader (which starts them while the
 * page's code loads). A light module: the router imports it into the first screen's bundle.
 */
import { queryOptions, skipToken } from '@tanstack/react-query';
import { api, read } from '@/lib/api';
import { previousParams, scopeKey, scopeParams, type TelemetryScope } from '@/lib/telemetry';
import type { DashboardSeries, IssueList, Overview, Stats } from './types';

export const overviewQuery = (scope: TelemetryScope | undefined) =>
  queryOptions({
    queryKey: ['home', 'overview', ...scopeKey(scope)],
    queryFn: scope
      ? () => read<Overview>(api.GET('/api/dashboard/overview', { params: { query: scopeParams(scope) } }))
      : skipToken,
  });

/** The figures of the range before, for each headline figure's change. */
export const previousStatsQuery = (scope: TelemetryScope | undefined) =>
  queryOptions({
    queryKey: ['home', 'previous', ...scopeKey(scope)],
    queryFn: scope
      ? () => {
          const { projectId, ...range } = previousParams(scope);
          return read<Stats>(api.POST('/api/stats', { params: { query: { projectId } }, body: range }));
        }
      : skipToken,
  });

export const seriesQuery = (scope: TelemetryScope | undefined) =>
  queryOptions({
    queryKey: ['home', 'series', ...scopeKey(scope)],
    queryFn: scope
      ? () => read<DashboardSeries>(api.GET('/api/dashboard', { params: { query: scopeParams(scope) } }))
      : skipToken,
  });

/** The five newest issues of the range. */
export const newestIssuesQuery = (scope: TelemetryScope | undefined) =>
  queryOptions({
    queryKey: ['home', 'issues', ...scopeKey(scope)],
    queryFn: scope
      ? () =>
          read<IssueList>(
            api.POST('/api/exception-stack-traces', {
              params: { query: { projectId: scope.projectId } },
              body: {
                ...scopeParams(scope),
                orderBy: 'firstSeen',
                sortDirection: 'desc',
                pagination: { page: 1, pageSize: 5 },
              },
            }),
          )
      : skipToken,
  });
