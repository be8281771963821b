/**
 * /issues: exceptions and messages grouped by their hash, ranked by the column in the URL, with
 * a sparkline of the range, users and sessions affected, first and last seen.
 */
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Sparkline } from '@/components/charts/sparkline';
import { Card } from '@/components/ui/card';
import { SearchInput, Select } from '@/components/ui/input';
import { PagedTable } from '@/components/ui/pagination';
import { RelativeTime } from '@/components/ui/relative-time';
import { Segmented } from '@/components/ui/segmented';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import {
  BELOW_LG,
  BELOW_SM,
  BELOW_XL,
  SortHeader,
  TBody,
  TD,
  TH,
  THead,
  TR,
  type SortDirection,
} from '@/components/ui/table';
import { formatCount } from '@/lib/format';
import { useTelemetryScope } from '@/lib/telemetry';
import { useListKeyboard } from '@/lib/use-list-keyboard';
import { linkStyles } from '@/components/ui/link';
import { cn } from '@/lib/utils';
import { PageHeader } from '../page-header';
import type { IssueKind, IssueStatusFilter } from './search';
import { BulkActions, IssueStatusBadge, SelectBox, StatusFilter, useCanChangeStatus, useSelection } from './status';
import { ISSUE_SORTS, type IssueSort } from './types';
import { ISSUE_PAGE_SIZE, issueListQuery, issueListState } from './api';

const route = getRouteApi('/app/issues');
const SEARCH_DELAY_MS = 300;

/** The sort menu of a phone, where the sortable column headers are hidden: each column, largest or newest first. */
const PHONE_SORTS: ReadonlyArray<{ value: IssueSort; label: string }> = [
  { value: 'count', label: 'Most events' },
  { value: 'lastSeen', label: 'Last seen' },
  { value: 'firstSeen', label: 'First seen' },
  { value: 'usersAffected', label: 'Most users' },
  { value: 'sessionsAffected', label: 'Most sessions' },
];

const KINDS: ReadonlyArray<{ value: IssueKind | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'exceptions', label: 'Exceptions' },
  { value: 'messages', label: 'Messages' },
];

export function IssuesPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const scope = useTelemetryScope();
  const { sort, direction, page, status } = issueListState(search);
  const searchInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(search.q ?? '');

  // The field follows the URL (back button, pasted link); typing updates the URL after a pause.
  useEffect(() => setText(search.q ?? ''), [search.q]);
  useEffect(() => {
    if (text === (search.q ?? '')) return;
    const timer = setTimeout(
      () => void navigate({ search: (prev) => ({ ...prev, q: text || undefined, page: undefined }), replace: true }),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [text, search.q, navigate]);

  const query = useQuery(issueListQuery(scope, search));

  const items = query.data?.items ?? [];
  const writable = useCanChangeStatus();
  const selection = useSelection(items.map((item) => item.hash));
  const openIssue = (index: number) => {
    const item = items[index];
    if (item) void navigate({ to: '/issues/$hash', params: { hash: item.hash }, search: {} });
  };
  const { rowProps } = useListKeyboard({ count: items.length, onOpen: openIssue, search: searchInput });
  const onSort = (column: string, next: SortDirection) =>
    void navigate({
      search: (prev) => ({ ...prev, sort: ISSUE_SORTS.find((value) => value === column), dir: next, page: undefined }),
    });
  // What every sortable column header shows and asks for.
  const sorting = { sort, direction, onSort };
  const setKind = (kind: IssueKind | undefined) =>
    void navigate({ search: (prev) => ({ ...prev, kind, page: undefined }) });
  const setStatus = (next: IssueStatusFilter) =>
    void navigate({ search: (prev) => ({ ...prev, status: next === 'open' ? undefined : next, page: undefined }) });
  const filtered = search.q !== undefined || search.kind !== undefined || search.status !== undefined;

  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title="Issues"
        description="Exceptions and messages grouped by stack trace, in the selected time range."
      />
      <div className="flex flex-wrap items-center gap-3">
        <SearchInput
          className="w-80 max-w-full"
          ref={searchInput}
          value={text}
          onValue={setText}
          placeholder="Search stack traces and messages  /"
          label="Search issues"
        />
        <Segmented
          label="Kind"
          options={KINDS}
          value={search.kind ?? 'all'}
          onChange={(kind) => setKind(kind === 'all' ? undefined : kind)}
        />
        <StatusFilter value={status} onChange={setStatus} />
        <Select
          aria-label="Sort issues"
          className="w-auto sm:hidden"
          value={sort}
          onChange={(event) => onSort(event.target.value, 'desc')}
          options={PHONE_SORTS}
        />
        {writable && scope && (
          <BulkActions projectId={scope.projectId} selected={selection.selected} onDone={selection.clear} />
        )}
        {query.data?.total !== undefined && (
          <span className="ml-auto text-xs text-muted-foreground tabular" data-testid="issue-total">
            {formatCount(query.data.total)} {query.data.total === 1 ? 'issue' : 'issues'}
          </span>
        )}
      </div>
      <Card>
        {query.isPending ? (
          <TableSkeleton rows={10} columns={7} />
        ) : query.isError ? (
          <ErrorState error={query.error} className="m-4" />
        ) : items.length === 0 ? (
          filtered ? (
            <EmptyState title="No issue matches">
              Nothing in this time range matches the search, the kind or the status. Change them or widen the time
              range.
            </EmptyState>
          ) : (
            <EmptyState title="No issues in this time range">
              Exceptions and messages your services report appear here, grouped by stack trace. Nothing arrived yet?{' '}
              <Link to="/connection" className="text-accent underline underline-offset-2">
                Connect an SDK
              </Link>{' '}
              or widen the time range.
            </EmptyState>
          )
        ) : (
          <PagedTable
            aria-label="Issues"
            stale={query.isPlaceholderData}
            paging={{
              page,
              pageSize: ISSUE_PAGE_SIZE,
              total: query.data?.total,
              onPage: (next) => void navigate({ search: (prev) => ({ ...prev, page: next }) }),
            }}
          >
            <THead>
              <tr>
                {writable && (
                  <TH className="w-8 pr-0">
                    <SelectBox
                      checked={selection.allSelected}
                      indeterminate={selection.selected.length > 0 && !selection.allSelected}
                      label="Select all issues on this page"
                      onChange={selection.toggleAll}
                    />
                  </TH>
                )}
                <TH className="w-full">Issue</TH>
                {/* Narrower windows keep the title readable: the trend and the counts a row's page
                    repeats go first (below 1280 px users and first seen, below 1024 px also the
                    trend and sessions); on a phone the events and the last seen move under the
                    title, and a menu above the list sorts. */}
                <TH className={BELOW_LG}>Trend</TH>
                <SortHeader label="Events" column="count" {...sorting} numeric className={BELOW_SM} />
                <SortHeader label="Users" column="usersAffected" {...sorting} numeric className={BELOW_XL} />
                <SortHeader label="Sessions" column="sessionsAffected" {...sorting} numeric className={BELOW_LG} />
                <SortHeader label="First seen" column="firstSeen" {...sorting} numeric className={BELOW_XL} />
                <SortHeader label="Last seen" column="lastSeen" {...sorting} numeric className={BELOW_SM} />
              </tr>
            </THead>
            <TBody>
              {items.map((item, index) => (
                <TR key={item.hash} {...rowProps(index)} data-hash={item.hash}>
                  {writable && (
                    <TD className="w-8 pr-0">
                      <SelectBox
                        checked={selection.has(item.hash)}
                        label={`Select ${item.title || item.hash}`}
                        onChange={() => selection.toggle(item.hash)}
                      />
                    </TD>
                  )}
                  <TD className="max-w-0 py-1.5">
                    <Link
                      to="/issues/$hash"
                      params={{ hash: item.hash }}
                      // On a phone the title wraps onto a second line rather than being cut to a few letters.
                      className={cn(
                        linkStyles.plain,
                        'block truncate font-medium max-sm:line-clamp-2 max-sm:break-words max-sm:whitespace-normal',
                      )}
                      title={item.title}
                    >
                      {item.title || '(empty message)'}
                    </Link>
                    <div className="flex min-w-0 items-center gap-2 overflow-hidden text-xs text-muted-foreground">
                      <span
                        className={cn(
                          'shrink-0 rounded px-1 text-[11px]',
                          // On the panel's own white, with a red edge: over a tinted row (hover, the
                          // j/k cursor) a see-through red tint took the red text below 4.5:1.
                          item.isMessage ? 'bg-muted' : 'bg-panel text-danger ring-1 ring-danger/40 ring-inset',
                        )}
                      >
                        {item.isMessage ? 'message' : 'exception'}
                      </span>
                      <IssueStatusBadge issue={item} />
                      <span className="shrink-0 tabular sm:hidden">
                        {formatCount(item.count)} {item.count === 1 ? 'event' : 'events'} ·{' '}
                        <RelativeTime value={item.lastSeen} />
                      </span>
                      <span className={cn('shrink-0 font-mono', BELOW_SM)}>{item.hash}</span>
                      {item.linked && (
                        <Link
                          to="/traces/$id"
                          params={{ id: item.linked.id }}
                          className="truncate hover:text-foreground hover:underline"
                          title="The trace of the last occurrence"
                        >
                          {item.linked.name ?? item.linked.id}
                        </Link>
                      )}
                    </div>
                  </TD>
                  <TD className={BELOW_LG}>
                    <Sparkline values={item.sparkline} label={`${formatCount(item.count)} events over the range`} />
                  </TD>
                  <TD numeric data-column="count" className={BELOW_SM}>
                    {formatCount(item.count)}
                  </TD>
                  <TD numeric data-column="users" className={BELOW_XL}>
                    {formatCount(item.usersAffected)}
                  </TD>
                  <TD numeric data-column="sessions" className={BELOW_LG}>
                    {formatCount(item.sessionsAffected)}
                  </TD>
                  <TD numeric className={cn('text-muted-foreground', BELOW_XL)}>
                    <RelativeTime value={item.firstSeen} />
                  </TD>
                  <TD numeric className={cn('text-muted-foreground', BELOW_SM)}>
                    <RelativeTime value={item.lastSeen} />
                  </TD>
                </TR>
              ))}
            </TBody>
          </PagedTable>
        )}
      </Card>
    </div>
  );
}
