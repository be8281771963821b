/**
 * /traces/:id: one endpoint call, task run or AI trace — its details, the span waterfall with the
 * selected span's attributes (span and search in the URL), its exceptions and its logs, and links
 * to its distributed trace, the issue of each exception and the session replay where one was raised.
 */
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo, type ReactNode } from 'react';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { linkStyles } from '@/components/ui/link';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { NotFoundState } from '@/components/ui/problem-states';
import { ApiError } from '@/lib/api';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { RelativeTime } from '@/components/ui/relative-time';
import { api, read } from '@/lib/api';
import { formatCount, formatDateTime, formatDuration, formatPreciseTime } from '@/lib/format';
import { sessionPastKept, useSessionsKept } from '@/lib/retention';
import { useTelemetryScope } from '@/lib/telemetry';
import { cn } from '@/lib/utils';
import type { IssueList, OccurrenceList } from '../issues/types';
import { sessionReplayLink } from '../sessions/links';
import { pastRetentionNote, UnopenableSessionId } from '../sessions/past-retention';
import { AttributeTable } from './attribute-table';
import { EntityName, StatusBadge } from './entity';
import { SpanDetails } from './span-details';
import { traceQuery } from './api';
import type { LogList, TraceDetail } from './types';
import { SpanSearch, Waterfall } from './waterfall';
import { hiddenBySearch, instantMs } from './waterfall-tree';

const route = getRouteApi('/app/traces/$id');
const LOG_PAGE = 100;
/** Exceptions and logs of a trace are recorded during it or just after; read a window around it. */
const AROUND_MS = 15 * 60_000;

/**
 * Which logs are this entity's. Logs carry the OpenTelemetry trace id: a root entity's id is that
 * id (logs of every service in the trace); any other entity is one call inside a distributed
 * trace, whose id the logs carry, and its own logs are those of its service.
 */
function logsOf(id: string, trace: TraceDetail): { traceId: string; service?: string } {
  if (trace.isRoot || !trace.distributedTraceId) return { traceId: id };
  return { traceId: trace.distributedTraceId, ...(trace.serverName ? { service: trace.serverName } : {}) };
}

function windowOf(trace: TraceDetail): { fromDate: string; toDate: string } {
  const start = instantMs(trace.recordedAt);
  const from = Number.isFinite(start) ? start : Date.now() - 24 * 3600_000;
  return {
    fromDate: new Date(from - AROUND_MS).toISOString(),
    toDate: new Date(from + trace.durationMs + AROUND_MS).toISOString(),
  };
}

/** Log severity names of OpenTelemetry's numbers (9 INFO, 13 WARN, 17 ERROR). */
const severityClass = (n: number) => (n >= 17 ? 'text-danger' : n >= 13 ? 'text-warning' : 'text-muted-foreground');

export function TracePage() {
  const { id } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const scope = useTelemetryScope();
  const projectId = scope?.projectId;

  const trace = useQuery(traceQuery(projectId, id));

  const exceptions = useQuery({
    queryKey: ['trace-exceptions', projectId, id],
    enabled: trace.isSuccess,
    queryFn: () =>
      read<IssueList>(
        api.POST('/api/exception-stack-traces', {
          params: { query: { projectId: projectId! } },
          body: {
            ...windowOf(trace.data!),
            filters: [{ field: 'traceId', op: 'eq', value: id }],
            pagination: { page: 1, pageSize: 50 },
          },
        }),
      ),
  });

  // A trace has a session when one of its exceptions was raised in a browser session; the groups
  // count sessions, so only those issues are asked for this trace's newest occurrence.
  const withSession = exceptions.data?.items.filter((item) => item.sessionsAffected > 0).slice(0, 5) ?? [];
  const session = useQuery({
    queryKey: ['trace-session', projectId, id, withSession.map((item) => item.hash)],
    enabled: withSession.length > 0,
    queryFn: async () => {
      const lists = await Promise.all(
        withSession.map((item) =>
          read<OccurrenceList>(
            api.POST('/api/exception-stack-traces/{hash}', {
              params: { query: { projectId: projectId! }, path: { hash: item.hash } },
              body: {
                ...windowOf(trace.data!),
                filters: [{ field: 'traceId', op: 'eq', value: id }],
                pagination: { page: 1, pageSize: 1 },
              },
            }),
          ),
        ),
      );
      const occurrence = lists.flatMap((list) => list.items).find((item) => item.sessionId !== null);
      return occurrence ? { sessionId: occurrence.sessionId!, at: occurrence.recordedAt } : null;
    },
  });

  const { kept: sessionsKept } = useSessionsKept();

  const logs = useQuery({
    queryKey: ['trace-logs', projectId, id],
    enabled: trace.isSuccess,
    queryFn: () =>
      read<LogList>(
        api.POST('/api/logs', {
          params: { query: { projectId: projectId! } },
          body: {
            ...windowOf(trace.data!),
            traceId: logsOf(id, trace.data!).traceId,
            serviceName: logsOf(id, trace.data!).service,
            orderBy: 'timestamp',
            sortDirection: 'asc',
            pagination: { page: 1, pageSize: LOG_PAGE },
          },
        }),
      ),
  });

  const axis = useMemo(() => {
    if (!trace.data) return undefined;
    const entityStart = instantMs(trace.data.recordedAt);
    let startMs = Number.isFinite(entityStart) ? entityStart : Infinity;
    let endMs = Number.isFinite(entityStart) ? entityStart + trace.data.durationMs : -Infinity;
    for (const span of trace.data.spans) {
      const start = instantMs(span.startTime);
      if (!Number.isFinite(start)) continue;
      startMs = Math.min(startMs, start);
      endMs = Math.max(endMs, start + span.durationMs);
    }
    return Number.isFinite(startMs) ? { startMs, endMs: Math.max(endMs, startMs + 0.001) } : undefined;
  }, [trace.data]);

  const selectedSpan = trace.data?.spans.find((span) => span.spanId === search.span);
  // The selection stays in the URL while the search hides it; the panel says so and offers to clear the search.
  const selectionHidden = useMemo(
    () => (trace.data && search.span ? hiddenBySearch(trace.data.spans, search.span, search.q ?? '') : false),
    [trace.data, search.span, search.q],
  );
  // In-page state (search, selection): the router must neither reset nor restore scroll positions,
  // or it would undo the waterfall's scroll to the selected span.
  const setSearch = (q: string) =>
    void navigate({ search: (prev) => ({ ...prev, q: q || undefined }), replace: true, resetScroll: false });
  const selectSpan = (span: string | undefined) =>
    void navigate({ search: (prev) => ({ ...prev, span }), replace: true, resetScroll: false });

  if (trace.error instanceof ApiError && trace.error.status === 404) return <NotFoundState kind="trace" id={id} />;
  if (trace.isError) {
    return (
      <div className="grid gap-4 px-6 py-5">
        <ErrorState error={trace.error} />
      </div>
    );
  }
  const data = trace.data;

  return (
    <div className="grid gap-4 px-6 py-5">
      <header className="grid gap-1">
        {data ? (
          <>
            <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
              <span className="capitalize">{data.kind === 'ai' ? 'AI trace' : data.kind}</span>
              <span aria-hidden>·</span>
              <span className="font-mono">{data.id}</span>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="text-lg font-semibold tracking-tight break-all" data-testid="trace-name">
                <EntityName entity={data} />
              </h1>
              <StatusBadge kind={data.kind} statusCode={data.statusCode} />
              <span className="font-mono text-sm" data-testid="trace-duration">
                {formatDuration(data.durationMs)}
              </span>
            </div>
          </>
        ) : (
          <>
            <Skeleton className="h-3 w-64" />
            <Skeleton className="h-6 w-96" />
          </>
        )}
      </header>

      <Card>
        <CardHeader title="Details" />
        {data ? (
          <div className="grid gap-3 py-3">
            <dl className="grid grid-cols-2 gap-x-6 gap-y-2 px-4 text-sm md:grid-cols-4" data-testid="trace-details">
              <Detail label="Time">
                <span title={formatDateTime(data.recordedAt)}>{formatPreciseTime(data.recordedAt)}</span>
              </Detail>
              <Detail label="Duration">
                <span className="font-mono text-xs">{formatDuration(data.durationMs)}</span>
              </Detail>
              <Detail label="Status">
                <StatusBadge kind={data.kind} statusCode={data.statusCode} />
              </Detail>
              <Detail label="Spans">
                <span className="tabular">{formatCount(data.spans.length)}</span>
              </Detail>
              <Detail label="Server">{data.serverName || '—'}</Detail>
              <Detail label="Version">
                {data.appVersion ? <span className="font-mono text-xs">{data.appVersion}</span> : '—'}
              </Detail>
              <Detail label="Client">
                {data.clientIp ? <span className="font-mono text-xs">{data.clientIp}</span> : '—'}
              </Detail>
              <Detail label="Distributed trace">
                {data.distributedTraceId ? (
                  <Link
                    to="/distributed-traces/$id"
                    params={{ id: data.distributedTraceId }}
                    className={cn(linkStyles.id, 'text-xs')}
                    data-testid="distributed-link"
                  >
                    {data.distributedTraceId}
                  </Link>
                ) : (
                  '—'
                )}
              </Detail>
              {session.data && (
                <Detail label="Session">
                  {sessionsKept && sessionPastKept(session.data.at, sessionsKept, Date.now()) === 'certain' ? (
                    <UnopenableSessionId id={session.data.sessionId} why={pastRetentionNote(sessionsKept)} showWhy />
                  ) : (
                    <Link
                      {...sessionReplayLink(session.data.sessionId, session.data.at)}
                      className={cn(linkStyles.accent, 'text-xs')}
                      data-testid="session-link"
                    >
                      Watch replay
                    </Link>
                  )}
                </Detail>
              )}
            </dl>
            {Object.keys(data.attributes).length > 0 && (
              <details className="group border-t pt-2">
                <summary className="cursor-pointer px-4 text-xs font-medium text-muted-foreground hover:text-foreground">
                  Attributes ({Object.keys(data.attributes).length})
                </summary>
                <div className="pt-2">
                  <AttributeTable attributes={data.attributes} label="Trace attributes" />
                </div>
              </details>
            )}
          </div>
        ) : (
          <div className="grid grid-cols-4 gap-4 p-4">
            {Array.from({ length: 8 }, (_, index) => (
              <Skeleton key={index} className="h-8" />
            ))}
          </div>
        )}
      </Card>

      <Card>
        <CardHeader
          title="Spans"
          description="Click a span (or use ↑ ↓ ← → and Enter) to see its attributes and events."
          actions={<SpanSearch value={search.q ?? ''} onChange={setSearch} />}
        />
        {data && axis ? (
          <div className={cn('grid', selectedSpan && 'xl:grid-cols-[minmax(0,1fr)_24rem]')}>
            <Waterfall
              spans={data.spans}
              axis={axis}
              selectedSpanId={search.span}
              onSelect={selectSpan}
              search={search.q ?? ''}
              label={`Spans of ${data.name}`}
            />
            {selectedSpan && (
              <SpanDetails
                span={selectedSpan}
                axisStartMs={axis.startMs}
                onClose={() => selectSpan(undefined)}
                hiddenBy={selectionHidden ? { search: search.q ?? '', onClear: () => setSearch('') } : undefined}
              />
            )}
          </div>
        ) : data ? (
          <EmptyState title="This trace has no spans" />
        ) : (
          <TableSkeleton rows={8} columns={2} />
        )}
      </Card>

      <div className="grid items-start gap-4 xl:grid-cols-2">
        <Card>
          <CardHeader title="Exceptions" description="Raised during this trace, by issue." />
          {exceptions.isPending ? (
            <TableSkeleton rows={2} columns={3} />
          ) : exceptions.isError ? (
            <ErrorState error={exceptions.error} className="m-4" />
          ) : exceptions.data.items.length === 0 ? (
            <p className="px-4 py-4 text-sm text-muted-foreground">No exception was recorded in this trace.</p>
          ) : (
            <Table aria-label="Exceptions of this trace">
              <THead>
                <tr>
                  <TH className="w-full">Issue</TH>
                  <TH numeric>Events</TH>
                  <TH numeric>Last seen</TH>
                </tr>
              </THead>
              <TBody>
                {exceptions.data.items.map((item) => (
                  <TR key={item.hash}>
                    <TD className="max-w-0">
                      <Link
                        to="/issues/$hash"
                        params={{ hash: item.hash }}
                        className={cn(linkStyles.plain, 'block truncate')}
                        title={item.title}
                      >
                        {item.title || '(empty message)'}
                      </Link>
                    </TD>
                    <TD numeric>{formatCount(item.count)}</TD>
                    <TD numeric className="text-muted-foreground">
                      <RelativeTime value={item.lastSeen} />
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </Card>

        <Card>
          <CardHeader
            title="Logs"
            description={
              data && !data.isRoot && data.serverName
                ? `Written by ${data.serverName} during this trace, oldest first.`
                : 'Written during this trace, oldest first.'
            }
            actions={
              <Link
                to="/logs"
                search={data ? logsOf(id, data) : { traceId: id }}
                className={cn(linkStyles.accent, 'text-xs')}
              >
                Open in Logs
              </Link>
            }
          />
          {logs.isPending ? (
            <TableSkeleton rows={3} columns={3} />
          ) : logs.isError ? (
            <ErrorState error={logs.error} className="m-4" />
          ) : logs.data.items.length === 0 ? (
            <p className="px-4 py-4 text-sm text-muted-foreground">
              {data && !data.isRoot && data.serverName
                ? `No log record of ${data.serverName} carries this trace's id.`
                : "No log record carries this trace's id."}
            </p>
          ) : (
            <Table aria-label="Logs of this trace">
              <THead>
                <tr>
                  <TH>Time</TH>
                  <TH>Level</TH>
                  <TH className="w-full">Message</TH>
                </tr>
              </THead>
              <TBody>
                {logs.data.items.map((log, index) => (
                  <TR key={index}>
                    <TD className="text-xs whitespace-nowrap text-muted-foreground tabular">
                      {formatPreciseTime(log.timestamp)}
                    </TD>
                    <TD className={cn('text-xs font-medium', severityClass(log.severityNumber))}>
                      {log.severityText || log.severityNumber}
                    </TD>
                    <TD className="max-w-0 truncate font-mono text-xs" title={log.body}>
                      {log.body}
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
          {logs.data?.hasMore && (
            <p className="border-t px-4 py-2 text-xs text-muted-foreground">
              The first {LOG_PAGE} records;{' '}
              <Link to="/logs" search={data ? logsOf(id, data) : { traceId: id }} className={linkStyles.inText}>
                see all in Logs
              </Link>
              .
            </p>
          )}
        </Card>
      </div>
    </div>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 truncate">{children}</dd>
    </div>
  );
}
