/**
 * The issue list's read as a query, shared by /issues and its route's loader (which starts it
 * while the page's code loads). A light module: the router imports it into the first bundle.
 */
import { keepPreviousData, queryOptions, skipToken } from '@tanstack/react-query';
import type { SortDirection } from '@/components/ui/table';
import { api, read } from '@/lib/api';
import { scopeKey, scopeParams, type TelemetryScope } from '@/lib/telemetry';
import type { IssueStatusFilter, IssuesSearch } from './search';
import type { IssueList, IssueSort } from './types';

export const ISSUE_PAGE_SIZE = 50;

/** The list's state with the defaults of an absent URL parameter filled in. */
export function issueListState(search: IssuesSearch) {
  return {
    sort: (search.sort ?? 'count') as IssueSort,
    direction: (search.dir ?? 'desc') as SortDirection,
    page: search.page ?? 1,
    status: (search.status ?? 'open') as IssueStatusFilter,
  };
}

export const issueListQuery = (scope: TelemetryScope | undefined, search: IssuesSearch) => {
  const { sort, direction, page, status } = issueListState(search);
  return queryOptions({
    queryKey: ['issues', ...scopeKey(scope), search.q ?? '', search.kind ?? 'all', status, sort, direction, page],
    placeholderData: keepPreviousData,
    queryFn: scope
      ? () => {
          const { projectId, ...range } = scopeParams(scope);
          return read<IssueList>(
            api.POST('/api/exception-stack-traces', {
              params: { query: { projectId } },
              body: {
                ...range,
                orderBy: sort,
                sortDirection: direction,
                pagination: { page, pageSize: ISSUE_PAGE_SIZE },
                ...(search.q ? { search: search.q } : {}),
                ...(status !== 'all' ? { status } : {}),
                ...(search.kind
                  ? { filters: [{ field: 'isMessage', op: 'eq', value: search.kind === 'messages' }] }
                  : {}),
              },
            }),
          );
        }
      : skipToken,
  });
};
