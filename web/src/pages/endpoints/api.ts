/**
 * The reads of the endpoint and task lists as queries, shared by the list page and its route's
 * loader (which starts them while the page's code loads). A light module: the router imports it
 * into the first screen's bundle, so it holds no components.
 */
import { keepPreviousData, queryOptions, skipToken } from '@tanstack/react-query';
import type { SortDirection } from '@/components/ui/table';
import { api, read } from '@/lib/api';
import { scopeKey, scopeParams, type TelemetryScope } from '@/lib/telemetry';
import type { ListSearch } from './search';
import type { EndpointList, Filters, TimeByEntity } from './types';

export const LIST_PAGE_SIZE = 50;
/** Series of the chart: seven names and Other, one palette slot each, none repeated. */
const SERIES_TOP = 7;

export interface ListQuery<Order extends string> {
  fromDate: string;
  toDate: string;
  search?: string;
  orderBy: Order;
  sortDirection: SortDirection;
  pagination: { page: number; pageSize: number };
  filters?: Filters;
}

/** Where a list's rows and chart come from, and how it sorts by default. */
export interface EntityListSource<T, Order extends string> {
  /** Query-key prefix and the chart's crosshair group. */
  feature: 'endpoints' | 'tasks';
  sortKeys: readonly Order[];
  defaultSort: { sort: Order; dir: SortDirection };
  /** Offers "by endpoint / by route". */
  grouping?: boolean;
  fetchList(scope: TelemetryScope, query: ListQuery<Order>, grouped: boolean): Promise<{ items: T[]; total?: number }>;
  fetchSeries(
    scope: TelemetryScope,
    query: { fromDate: string; toDate: string; top: number; search?: string; filters?: Filters },
  ): Promise<TimeByEntity>;
}

export type EndpointOrder = 'impact' | 'requests' | 'p50' | 'p95' | 'p99' | 'errorRate' | 'apdex' | 'name';

export const ENDPOINT_SOURCE: EntityListSource<EndpointList['items'][number], EndpointOrder> = {
  feature: 'endpoints',
  sortKeys: ['impact', 'requests', 'p50', 'p95', 'p99', 'errorRate', 'apdex', 'name'],
  defaultSort: { sort: 'impact', dir: 'desc' },
  grouping: true,
  fetchList: (scope, query, grouped) =>
    read<EndpointList>(
      api.POST(grouped ? '/api/endpoints/grouped' : '/api/endpoints', {
        params: { query: { projectId: scope.projectId } },
        body: query,
      }),
    ),
  fetchSeries: (scope, query) =>
    read<TimeByEntity>(
      api.POST('/api/endpoints/series', { params: { query: { projectId: scope.projectId } }, body: query }),
    ),
};

function rootFilter(root: ListSearch['root']): Filters | undefined {
  return root === undefined ? undefined : [{ field: 'isRoot', op: 'eq', value: root === 'root' }];
}

/** The list's state from the URL, defaults filled in (a sort of another column starts descending). */
export function entityListState<Order extends string>(source: EntityListSource<unknown, Order>, search: ListSearch) {
  const orderBy = source.sortKeys.find((key) => key === search.sort) ?? source.defaultSort.sort;
  const direction: SortDirection =
    search.sort === orderBy && search.dir
      ? search.dir
      : orderBy === source.defaultSort.sort
        ? (search.dir ?? source.defaultSort.dir)
        : 'desc';
  return {
    orderBy,
    direction,
    page: search.page ?? 1,
    grouped: source.grouping === true && search.group === 'route',
    filters: rootFilter(search.root),
  };
}

export const entityListQuery = <T, Order extends string>(
  source: EntityListSource<T, Order>,
  scope: TelemetryScope | undefined,
  search: ListSearch,
) => {
  const { orderBy, direction, page, grouped, filters } = entityListState(source, search);
  return queryOptions({
    queryKey: [
      source.feature,
      'list',
      ...scopeKey(scope),
      search.q ?? '',
      orderBy,
      direction,
      page,
      search.root ?? '',
      grouped,
    ],
    queryFn: scope
      ? () =>
          source.fetchList(
            scope,
            {
              ...scopeParams(scope),
              ...(search.q ? { search: search.q } : {}),
              orderBy,
              sortDirection: direction,
              pagination: { page, pageSize: LIST_PAGE_SIZE },
              ...(filters ? { filters } : {}),
            },
            grouped,
          )
      : skipToken,
    placeholderData: keepPreviousData,
  });
};

export const entitySeriesQuery = <Order extends string>(
  source: EntityListSource<unknown, Order>,
  scope: TelemetryScope | undefined,
  search: ListSearch,
) => {
  const { filters } = entityListState(source, search);
  return queryOptions({
    queryKey: [source.feature, 'time', ...scopeKey(scope), search.q ?? '', search.root ?? ''],
    queryFn: scope
      ? () =>
          source.fetchSeries(scope, {
            ...scopeParams(scope),
            top: SERIES_TOP,
            ...(search.q ? { search: search.q } : {}),
            ...(filters ? { filters } : {}),
          })
      : skipToken,
    placeholderData: keepPreviousData,
  });
};
