/**
 * /sessions: the project's browser sessions in the time range, newest first: start, duration,
 * URL, browser and system, errors, and whether a replay exists. Filters, order and page live in
 * the URL; j/k move, Enter opens, `/` focuses the URL search.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { MonitorPlay } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Card } from '@/components/ui/card';
import { SearchInput, Select } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { BELOW_LG, SortHeader, Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { api, read } from '@/lib/api';
import { formatCount, formatDateTime, formatDuration, formatPreciseTime, formatRelative } from '@/lib/format';
import { scopeKey, scopeParams, useTelemetryScope } from '@/lib/telemetry';
import { useListKeyboard } from '@/lib/use-list-keyboard';
import { cn } from '@/lib/utils';
import { PageHeader } from '../page-header';
import { toClockTenths } from './timeline';
import type { SessionsSearch } from './search';
import type { SessionItem, SessionList } from './types';
import { humanizeUserAgent } from '@/lib/user-agent';
import { displayUrl } from './display';

const route = getRouteApi('/app/sessions');
const PAGE_SIZE = 50;

type Filter = { field: string; op: 'contains'; value: string };

/** The text filters, in the URL under `key`; the first takes `/`. */
const TEXT_FILTERS = [
  { key: 'url', label: 'URL contains', placeholder: 'URL contains…  ( / )' },
  { key: 'agent', label: 'Browser or OS contains', placeholder: 'Browser or OS contains…' },
] as const;

export function SessionsListPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const scope = useTelemetryScope();
  const page = search.page ?? 1;

  const sessions = useQuery({
    queryKey: [
      'sessions',
      ...scopeKey(scope),
      search.url ?? null,
      search.agent ?? null,
      search.errors ?? null,
      search.order ?? null,
      page,
    ],
    enabled: scope !== undefined,
    placeholderData: keepPreviousData,
    queryFn: () => {
      const { projectId, ...range } = scopeParams(scope!);
      const filters: Filter[] = [];
      if (search.url) filters.push({ field: 'url', op: 'contains', value: search.url });
      if (search.agent) filters.push({ field: 'userAgent', op: 'contains', value: search.agent });
      return read<SessionList>(
        api.POST('/api/sessions', {
          params: { query: { projectId } },
          body: {
            ...range,
            filters,
            pagination: { page, pageSize: PAGE_SIZE },
            sortDirection: search.order ?? 'desc',
            ...(search.errors ? { hasErrors: search.errors === 'with' } : {}),
          },
        }),
      );
    },
  });

  // Each committed filter is a history entry: Back undoes it.
  const update = (change: Partial<SessionsSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, page: undefined, ...change }) });

  const searchInput = useRef<HTMLInputElement>(null);
  const items = sessions.data?.items ?? [];
  const open = (index: number) => {
    const session = items[index];
    if (session) void navigate({ to: '/sessions/$id', params: { id: session.id }, search: {} });
  };
  const { rowProps } = useListKeyboard({ count: items.length, onOpen: open, search: searchInput });
  const filtered = Boolean(search.url || search.agent || search.errors);

  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title="Sessions"
        description="Browser sessions that started in the time range, with their replays, console logs and errors."
      />
      <div className="flex flex-wrap items-center gap-2">
        {TEXT_FILTERS.map((filter, index) => (
          <DebouncedInput
            key={filter.key}
            ref={index === 0 ? searchInput : undefined}
            value={search[filter.key] ?? ''}
            onCommit={(value) => update({ [filter.key]: value || undefined })}
            placeholder={filter.placeholder}
            label={filter.label}
            className="w-72"
          />
        ))}
        <Select
          aria-label="Errors"
          className="w-44"
          value={search.errors ?? ''}
          onChange={(event) =>
            update({ errors: event.target.value === '' ? undefined : (event.target.value as 'with' | 'without') })
          }
        >
          <option value="">All sessions</option>
          <option value="with">With errors</option>
          <option value="without">Without errors</option>
        </Select>
      </div>
      <Card className="overflow-hidden">
        {sessions.error ? (
          <ErrorState error={sessions.error} className="m-4" />
        ) : sessions.isPending ? (
          <TableSkeleton columns={7} />
        ) : items.length === 0 && page === 1 ? (
          <EmptyState title={filtered ? 'No session matches these filters' : 'No browser sessions in this time range'}>
            {filtered ? (
              'Clear a filter or widen the time range.'
            ) : (
              <>
                Sessions come from the browser client with always-on recording: each page load opens one, with its rrweb
                replay, console logs and errors. Set it up from{' '}
                <Link to="/connection" className="text-accent underline-offset-2 hover:underline">
                  Connection
                </Link>{' '}
                (Browser), or widen the time range.
              </>
            )}
          </EmptyState>
        ) : (
          <>
            <Table aria-label="Sessions" className={cn(sessions.isPlaceholderData && 'opacity-60')}>
              <THead>
                <tr>
                  <SortHeader
                    label="Started"
                    column="startedAt"
                    sort="startedAt"
                    direction={search.order ?? 'desc'}
                    onSort={(_, direction) => update({ order: direction === 'asc' ? 'asc' : undefined })}
                  />
                  <TH>Session</TH>
                  <TH>URL</TH>
                  {/* Below 1024 px the browser and the replay mark go (the session's page shows both), so the URL keeps its room. */}
                  <TH className={BELOW_LG}>Browser</TH>
                  <TH numeric>Duration</TH>
                  <TH numeric>Errors</TH>
                  <TH className={BELOW_LG}>Replay</TH>
                </tr>
              </THead>
              <TBody>
                {items.map((session, index) => (
                  <SessionRow key={session.id} session={session} {...rowProps(index)} />
                ))}
              </TBody>
            </Table>
            <Pagination
              page={page}
              pageSize={PAGE_SIZE}
              total={undefined}
              hasMore={sessions.data?.hasMore ?? false}
              onPage={(next) => update({ page: next })}
            />
          </>
        )}
      </Card>
    </div>
  );
}

function SessionRow({
  session,
  ...row
}: { session: SessionItem } & ReturnType<ReturnType<typeof useListKeyboard>['rowProps']>) {
  const agent = humanizeUserAgent(session.userAgent);
  const link = { to: '/sessions/$id', params: { id: session.id }, search: {} } as const;
  return (
    <TR {...row} data-session-id={session.id}>
      <TD className="whitespace-nowrap tabular" title={formatPreciseTime(session.startedAt)}>
        <Link {...link} className="outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring">
          {formatDateTime(session.startedAt)}
        </Link>
        <span className={cn('ml-2 text-xs text-muted-foreground', BELOW_LG)}>{formatRelative(session.startedAt)}</span>
      </TD>
      <TD>
        <Link {...link} className="font-mono text-xs text-accent hover:underline" aria-label={`Session ${session.id}`}>
          {session.id.slice(0, 8)}
        </Link>
      </TD>
      <TD className="max-w-[28rem]">
        <span className="block truncate font-mono text-xs" title={session.url ?? undefined}>
          {displayUrl(session.url)}
        </span>
      </TD>
      <TD className={cn('whitespace-nowrap', BELOW_LG)} title={session.userAgent ?? undefined}>
        {agent.label}
      </TD>
      <TD numeric className="font-mono text-xs">
        {session.durationMs === null ? (
          <span className="text-muted-foreground">open</span>
        ) : (
          formatDuration(toClockTenths(session.durationMs))
        )}
      </TD>
      <TD numeric className={cn(session.errorCount > 0 ? 'font-medium text-danger' : 'text-muted-foreground')}>
        {formatCount(session.errorCount)}
      </TD>
      <TD className={BELOW_LG}>
        {session.recordingSegments > 0 ? (
          <span className="inline-flex items-center gap-1 text-xs">
            <MonitorPlay className="size-3.5 text-accent" aria-hidden />
            Recorded
          </span>
        ) : (
          <span className="text-xs text-muted-foreground">—</span>
        )}
      </TD>
    </TR>
  );
}

/** A text filter that writes to the URL once typing pauses, and follows the URL when it changes (back button). */
function DebouncedInput({
  value,
  onCommit,
  ref,
  ...props
}: { value: string; onCommit: (value: string) => void; label: string; ref?: React.Ref<HTMLInputElement> } & Omit<
  React.ComponentProps<'input'>,
  'value' | 'onChange' | 'ref' | 'type' | 'aria-label'
>) {
  const [draft, setDraft] = useState(value);
  const commit = useRef(onCommit);
  commit.current = onCommit;
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft.trim() === value) return;
    const timer = setTimeout(() => commit.current(draft.trim()), 300);
    return () => clearTimeout(timer);
  }, [draft, value]);
  return <SearchInput ref={ref} value={draft} onValue={setDraft} {...props} />;
}
