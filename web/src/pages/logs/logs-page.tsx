/**
 * /logs: search by body, minimum severity, service, trace and attribute chips (all in the URL),
 * expandable rows with every attribute, "load more" paging in a window fixed at the first page,
 * and a live tail (live-tail.ts). The route's 24-hour rule for free text (422) is shown with a
 * one-click way to narrow the range.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Pause, Play, Radio, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input, SearchInput, Select } from '@/components/ui/input';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { BELOW_LG, Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { linkStyles } from '@/components/ui/link';
import { api, ApiError, read } from '@/lib/api';
import { formatCount, formatPreciseTime } from '@/lib/format';
import { traceUuid } from '@/lib/ids';
import { scopeKey, scopeParams, useTelemetryScope } from '@/lib/telemetry';
import { useListKeyboard } from '@/lib/use-list-keyboard';
import { cn } from '@/lib/utils';
import { PageHeader } from '../page-header';
import { LogDetail } from './log-detail';
import { MAX_ROWS, useLiveTail } from './live-tail';
import { CHIP_OPS, chipLabel, filterBody, rowKey, SEVERITIES, severityName, severityTone } from './search';
import type { LogFilter, LogPage, LogRecord, LogsSearch } from './types';

const route = getRouteApi('/app/logs');
/**
 * The theme's amber is too light for small text: a darker amber keeps 4.5:1 on white and on the
 * keyboard cursor's tint (amber-700 fell to 4.3:1 there).
 */
const WARNING_TEXT = 'text-amber-800 dark:text-warning';
const PAGE_SIZE = 100;

interface Window {
  fromDate: string;
  toDate: string;
}
type PageParam = { page: number } & Partial<Window>;

export function LogsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const scope = useTelemetryScope();
  const filters = useMemo(() => filterBody(search), [search]);
  const setSearch = (patch: Partial<LogsSearch>, replace = false) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace });

  const logs = useInfiniteQuery({
    queryKey: ['logs', ...scopeKey(scope), filters],
    enabled: scope !== undefined,
    initialPageParam: { page: 1 } as PageParam,
    // Later pages keep the first page's window, so "now" moving on does not shift the offsets.
    queryFn: async ({ pageParam }): Promise<LogPage & { window: Window }> => {
      const { projectId, ...window } = scopeParams(scope!);
      const fixed =
        pageParam.fromDate && pageParam.toDate ? { fromDate: pageParam.fromDate, toDate: pageParam.toDate } : window;
      const answer = await read<LogPage>(
        api.POST('/api/logs', {
          params: { query: { projectId } },
          body: { ...filters, ...fixed, pagination: { page: pageParam.page, pageSize: PAGE_SIZE } },
        }),
      );
      return { ...answer, window: fixed };
    },
    getNextPageParam: (last): PageParam | undefined =>
      last.hasMore ? { page: last.page + 1, ...last.window } : undefined,
    refetchOnWindowFocus: false,
  });

  const listed = useMemo(() => {
    const seen = new Set<string>();
    return (logs.data?.pages ?? [])
      .flatMap((page) => page.items)
      .filter((row) => !seen.has(rowKey(row)) && seen.add(rowKey(row)));
  }, [logs.data]);

  const scroller = useRef<HTMLElement | null>(null);
  const paused = useScrolledAway(Boolean(search.live), scroller);
  // The tail starts from the rows of the first page, once it is there.
  const live = useLiveTail({
    enabled: Boolean(search.live) && !logs.isPending,
    paused,
    projectId: scope?.projectId ?? '',
    filters,
    seed: listed.slice(0, MAX_ROWS),
  });
  const rows = search.live ? live.rows : listed;

  const searchField = useRef<HTMLInputElement>(null);
  const toggle = (key: string) => setSearch({ open: search.open === key ? undefined : key }, true);
  const keyboard = useListKeyboard({
    count: rows.length,
    onOpen: (index) => rows[index] && toggle(rowKey(rows[index])),
    search: searchField,
  });

  const addChip = (chip: LogFilter) => {
    const current = search.filters ?? [];
    if (current.some((f) => f.field === chip.field && f.op === chip.op && f.value === chip.value)) return;
    setSearch({ filters: [...current, chip] });
  };
  const anyFilter = Boolean(
    search.q || search.severity !== undefined || search.service || search.traceId || search.filters?.length,
  );
  const error = search.live ? live.error : logs.error;

  return (
    <div className="grid gap-3 px-6 py-5" ref={(element) => void (scroller.current = element?.closest('main') ?? null)}>
      <PageHeader
        title="Logs"
        description={
          search.live
            ? 'Live: the newest records as they arrive, whatever the time range.'
            : 'Log records of the time range, newest first.'
        }
        actions={
          <Button
            variant={search.live ? 'primary' : 'secondary'}
            aria-pressed={Boolean(search.live)}
            onClick={() => setSearch({ live: search.live ? undefined : true, open: undefined })}
          >
            <Radio />
            {search.live ? 'Stop live tail' : 'Live tail'}
          </Button>
        }
      />
      <FilterBar
        key={`${search.q}|${search.service}|${search.traceId}`}
        search={search}
        setSearch={setSearch}
        searchField={searchField}
      />
      <Chips search={search} setSearch={setSearch} />
      {search.live && (
        <LiveStatus
          paused={paused}
          rate={live.rate}
          count={live.rows.length}
          onResume={() => scroller.current?.scrollTo({ top: 0 })}
        />
      )}
      {error ? (
        <ErrorState
          error={error}
          action={
            error instanceof ApiError && error.status === 422 && search.q ? (
              <Button
                size="sm"
                onClick={() =>
                  void navigate({ search: (prev) => ({ ...prev, range: '24h', from: undefined, to: undefined }) })
                }
              >
                Narrow to the last 24 hours
              </Button>
            ) : undefined
          }
        />
      ) : (
        <Card className="overflow-hidden">
          {!search.live && logs.isPending ? (
            <TableSkeleton rows={12} columns={4} />
          ) : rows.length === 0 ? (
            <NoLogs
              filtered={anyFilter}
              live={Boolean(search.live)}
              onClear={() =>
                setSearch({
                  q: undefined,
                  severity: undefined,
                  service: undefined,
                  traceId: undefined,
                  filters: undefined,
                })
              }
            />
          ) : (
            <Table aria-label="Log records" className="min-w-[36rem] table-fixed">
              {/* The time column fits "Nov 27, 04:01:28.129 PM" in the monospace face; below 1024 px
                  the service column goes (an expanded row lists service.name with its resource attributes), so the message keeps its room. */}
              <colgroup>
                <col className="w-48" />
                <col className="w-16" />
                <col className={cn('w-36', BELOW_LG)} />
                <col />
                <col className="w-24" />
              </colgroup>
              <THead>
                <tr>
                  <TH>Time</TH>
                  <TH>Level</TH>
                  <TH className={BELOW_LG}>Service</TH>
                  <TH>Message</TH>
                  <TH>Trace</TH>
                </tr>
              </THead>
              <TBody>
                {rows.map((row, index) => {
                  const key = rowKey(row);
                  const open = search.open === key;
                  return (
                    <LogRow
                      key={key}
                      row={row}
                      open={open}
                      onToggle={() => toggle(key)}
                      onFilter={addChip}
                      onTrace={(traceId) => setSearch({ traceId, open: undefined })}
                      {...keyboard.rowProps(index)}
                    />
                  );
                })}
              </TBody>
            </Table>
          )}
          {!search.live && rows.length > 0 && (
            <div className="flex items-center justify-between gap-3 border-t px-3 py-2 text-xs text-muted-foreground">
              <span className="tabular">{formatCount(rows.length)} rows</span>
              {logs.hasNextPage ? (
                <Button size="sm" onClick={() => void logs.fetchNextPage()} disabled={logs.isFetchingNextPage}>
                  {logs.isFetchingNextPage ? 'Loading…' : 'Load more'}
                </Button>
              ) : (
                <span>End of the range</span>
              )}
            </div>
          )}
        </Card>
      )}
    </div>
  );
}

/** True while live tail is on and the page is scrolled down: reading, so the tail waits. */
function useScrolledAway(enabled: boolean, scroller: React.RefObject<HTMLElement | null>): boolean {
  const [away, setAway] = useState(false);
  useEffect(() => {
    const element = scroller.current;
    if (!enabled || !element) {
      setAway(false);
      return;
    }
    const onScroll = () => setAway(element.scrollTop > 8);
    onScroll();
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [enabled, scroller]);
  return away;
}

function LiveStatus({
  paused,
  rate,
  count,
  onResume,
}: {
  paused: boolean;
  rate: number;
  count: number;
  onResume: () => void;
}) {
  return (
    // Sticky, so the Resume button is in view when reading far down the list.
    <div
      role="status"
      className="sticky top-0 z-10 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border bg-panel px-3 py-2 text-sm shadow-sm"
    >
      {paused ? (
        <>
          <span className="flex items-center gap-1.5 font-medium">
            <Pause className="size-4 text-muted-foreground" aria-hidden />
            Paused while you scroll
          </span>
          <Button size="sm" variant="primary" onClick={onResume}>
            <Play />
            Resume
          </Button>
        </>
      ) : (
        <span className="flex items-center gap-1.5 font-medium">
          <span className="size-2 animate-pulse rounded-full bg-success" aria-hidden />
          Live
        </span>
      )}
      <span className="text-muted-foreground tabular" data-testid="live-rate">
        {rate.toFixed(rate >= 10 ? 0 : 1)} rows/s
      </span>
      <span className="text-muted-foreground tabular">
        {formatCount(count)} rows shown · keeps the newest {formatCount(MAX_ROWS)}
      </span>
    </div>
  );
}

type SetSearch = (patch: Partial<LogsSearch>, replace?: boolean) => void;

function FilterBar({
  search,
  setSearch,
  searchField,
}: {
  search: LogsSearch;
  setSearch: SetSearch;
  searchField: React.RefObject<HTMLInputElement | null>;
}) {
  const [q, setQ] = useState(search.q ?? '');
  const [service, setService] = useState(search.service ?? '');
  const [traceId, setTraceId] = useState(search.traceId ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trace = traceId.trim();
    if (trace && !/^[0-9a-fA-F]{32}$|^[0-9a-fA-F-]{36}$/.test(trace)) {
      setProblem('A trace id is 32 hexadecimal digits (or a UUID).');
      return;
    }
    setProblem(null);
    setSearch({
      q: q.trim() || undefined,
      service: service.trim() || undefined,
      traceId: trace || undefined,
      open: undefined,
    });
  };
  return (
    <form onSubmit={submit} className="grid gap-2" aria-label="Log filters">
      <div className="flex flex-wrap items-center gap-2">
        <SearchInput
          ref={searchField}
          value={q}
          onValue={setQ}
          placeholder="Search message text…  ( / )"
          label="Search log messages"
          className="min-w-56 flex-[3]"
        />
        <Select
          aria-label="Minimum severity"
          value={search.severity ?? ''}
          onChange={(event) =>
            setSearch({ severity: event.target.value === '' ? undefined : Number(event.target.value), open: undefined })
          }
          className="w-36"
        >
          <option value="">Any severity</option>
          {SEVERITIES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label} and above
            </option>
          ))}
        </Select>
        <Input
          value={service}
          onChange={(event) => setService(event.target.value)}
          placeholder="Service"
          aria-label="Service name"
          className="w-40"
        />
        <Input
          value={traceId}
          onChange={(event) => setTraceId(event.target.value)}
          placeholder="Trace id"
          aria-label="Trace id"
          aria-invalid={problem !== null}
          className="w-72 font-mono"
        />
        <Button type="submit">Apply</Button>
      </div>
      {problem && (
        <p role="alert" className="text-xs text-danger">
          {problem}
        </p>
      )}
    </form>
  );
}

function Chip({ label, onRemove }: { label: React.ReactNode; onRemove: () => void }) {
  return (
    <li className="flex h-6 items-center gap-1 rounded-md border bg-panel pr-0.5 pl-2 font-mono text-xs">
      {label}
      <button
        type="button"
        onClick={onRemove}
        className="grid size-5 place-items-center rounded-sm text-muted-foreground hover:bg-muted hover:text-foreground"
        aria-label="Remove filter"
      >
        <X className="size-3" aria-hidden />
      </button>
    </li>
  );
}

function Chips({ search, setSearch }: { search: LogsSearch; setSearch: SetSearch }) {
  const filters = search.filters ?? [];
  if (!search.traceId && !search.service && filters.length === 0) return null;
  return (
    <ul aria-label="Active filters" className="flex flex-wrap items-center gap-1.5">
      {search.traceId && (
        <Chip label={`trace = ${search.traceId}`} onRemove={() => setSearch({ traceId: undefined })} />
      )}
      {search.service && (
        <Chip label={`service = ${search.service}`} onRemove={() => setSearch({ service: undefined })} />
      )}
      {filters.map((filter, index) => (
        <Chip
          key={`${filter.field}${filter.op}${filter.value}`}
          label={
            <span>
              {chipLabel(filter.field)}{' '}
              <span className="text-muted-foreground">{CHIP_OPS.find((o) => o.op === filter.op)?.symbol}</span>{' '}
              {filter.value}
            </span>
          }
          onRemove={() =>
            setSearch({ filters: filters.length > 1 ? filters.filter((_, i) => i !== index) : undefined })
          }
        />
      ))}
      {filters.length > 1 && (
        <li>
          <Button size="sm" variant="ghost" onClick={() => setSearch({ filters: undefined })}>
            Clear attribute filters
          </Button>
        </li>
      )}
    </ul>
  );
}

export function SeverityLabel({ row }: { row: Pick<LogRecord, 'severityNumber' | 'severityText'> }) {
  const tone = severityTone(row.severityNumber);
  return (
    <span
      className={cn(
        'font-mono text-xs font-medium',
        tone === 'danger' ? 'text-danger' : tone === 'warning' ? WARNING_TEXT : 'text-muted-foreground',
      )}
    >
      {severityName(row)}
    </span>
  );
}

function LogRow({
  row,
  open,
  onToggle,
  onFilter,
  onTrace,
  active,
  ...rest
}: {
  row: LogRecord;
  open: boolean;
  onToggle: () => void;
  onFilter: (chip: LogFilter) => void;
  onTrace: (traceId: string) => void;
  active: boolean;
  'data-list-row': number;
  'aria-selected': boolean;
}) {
  return (
    <>
      <TR
        active={active}
        {...rest}
        className={cn('cursor-pointer', open && 'border-b-0 bg-muted/60')}
        onClick={onToggle}
      >
        <TD className="font-mono text-xs whitespace-nowrap text-muted-foreground tabular">
          {formatPreciseTime(row.timestamp)}
        </TD>
        <TD>
          <SeverityLabel row={row} />
        </TD>
        <TD className={cn('truncate text-xs', BELOW_LG)} title={row.serviceName}>
          {row.serviceName || '—'}
        </TD>
        <TD className="truncate font-mono text-xs" title={row.body.length > 200 ? undefined : row.body}>
          <button
            type="button"
            // Inset: the cell cuts what is drawn outside it (its text is truncated).
            className="w-full truncate rounded-sm text-left outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
            onClick={(event) => {
              event.stopPropagation();
              onToggle();
            }}
            aria-expanded={open}
          >
            {row.body.length > 500
              ? `${row.body.slice(0, 500)}…`
              : row.body || <span className="text-muted-foreground">(empty)</span>}
          </button>
        </TD>
        <TD className="text-xs" onClick={(event) => event.stopPropagation()}>
          {row.traceId ? (
            <Link
              to="/traces/$id"
              params={{ id: traceUuid(row.traceId) }}
              className={linkStyles.id}
              title={`Trace ${row.traceId}`}
            >
              {row.traceId.slice(0, 8)}
            </Link>
          ) : (
            <span className="text-muted-foreground">—</span>
          )}
        </TD>
      </TR>
      {open && (
        <tr className="border-b bg-muted/30">
          <td colSpan={5} className="px-3 pt-1 pb-3">
            <LogDetail row={row} onFilter={onFilter} onTrace={onTrace} />
          </td>
        </tr>
      )}
    </>
  );
}

function NoLogs({ filtered, live, onClear }: { filtered: boolean; live: boolean; onClear: () => void }) {
  if (filtered) {
    return (
      <EmptyState title={live ? 'Waiting for matching records…' : 'No log records match these filters'}>
        <Button size="sm" className="mt-1" onClick={onClear}>
          Clear filters
        </Button>
      </EmptyState>
    );
  }
  return (
    <EmptyState title={live ? 'Waiting for records…' : 'No log records in this time range'}>
      <p>
        Send logs with any OpenTelemetry SDK: set <code className="font-mono text-xs">OTEL_EXPORTER_OTLP_ENDPOINT</code>{' '}
        to this service's <code className="font-mono text-xs">/api/otel</code> and the project token as a bearer header.{' '}
        <Link to="/connection" className="text-accent hover:underline">
          Connection details and snippets
        </Link>
      </p>
    </EmptyState>
  );
}
