/**
 * /issues/:hash: one group of exceptions — its figures, the stack trace as frames (symbolicated
 * ones with the raw text one click away), the occurrences in the time range, and the selected
 * occurrence's attributes with links to its trace, session and distributed trace; an occurrence
 * raised in a browser session shows that session's replay card (session-replay-card.tsx).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Sparkline } from '@/components/charts/sparkline';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { linkStyles } from '@/components/ui/link';
import { PagedTable } from '@/components/ui/pagination';
import { RelativeTime } from '@/components/ui/relative-time';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { ApiError, api, read } from '@/lib/api';
import { formatCount, formatPreciseTime } from '@/lib/format';
import { sessionPastKept, useSessionsKept } from '@/lib/retention';
import { scopeKey, scopeParams, useTelemetryScope } from '@/lib/telemetry';
import { cn } from '@/lib/utils';
import { AttributeTable } from '../traces/attribute-table';
import { EMBEDDED_PLAYER_HEIGHT, PlayerSkeleton } from '../sessions/lazy-replay-player';
import { sessionReplayLink } from '../sessions/links';
import { mayBePastRetentionNote, pastRetentionNote, UnopenableSessionId } from '../sessions/past-retention';
import { sessionQuery } from '../sessions/queries';
import { IssueActivity, IssueStatusActions } from './status';
import { MAPPED_FRAMES_ATTRIBUTE, mappedFramesOf } from '@sightline/stack-frames';
import { StackTraceView } from './stack-trace-view';
import type { IssueList, Occurrence, OccurrenceList } from './types';

const route = getRouteApi('/app/issues/$hash');
// Its own chunk, fetched only for an occurrence raised in a browser session; the rrweb player is a
// further chunk it fetches when there is a recording to play.
const SessionReplayCard = lazy(() =>
  import('./session-replay-card').then((module) => ({ default: module.SessionReplayCard })),
);
const PAGE_SIZE = 20;

/** The attributes without the mapped-frames record the stack trace view shows as marks and source. */
function withoutMappedFrames(attributes: Record<string, string>): Record<string, string> {
  if (!(MAPPED_FRAMES_ATTRIBUTE in attributes)) return attributes;
  const { [MAPPED_FRAMES_ATTRIBUTE]: _mapped, ...rest } = attributes;
  return rest;
}

/** The service keeps the text as received when it symbolicated a trace. */
const symbolicated = (occurrence: Occurrence | undefined): boolean =>
  occurrence !== undefined && occurrence.rawStackTrace !== '' && occurrence.rawStackTrace !== occurrence.stackTrace;

export function IssuePage() {
  const { hash } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const scope = useTelemetryScope();
  const page = search.page ?? 1;

  const group = useQuery({
    queryKey: ['issue-group', hash, ...scopeKey(scope)],
    enabled: scope !== undefined,
    queryFn: async () => {
      const { projectId, ...range } = scopeParams(scope!);
      const list = await read<IssueList>(
        api.POST('/api/exception-stack-traces', {
          params: { query: { projectId } },
          body: { ...range, filters: [{ field: 'hash', op: 'eq', value: hash }], pagination: { page: 1, pageSize: 1 } },
        }),
      );
      return list.items[0] ?? null;
    },
  });

  const occurrences = useQuery({
    queryKey: ['issue-occurrences', hash, ...scopeKey(scope), page],
    enabled: scope !== undefined,
    placeholderData: keepPreviousData,
    queryFn: () => {
      const { projectId, ...range } = scopeParams(scope!);
      return read<OccurrenceList>(
        api.POST('/api/exception-stack-traces/{hash}', {
          params: { query: { projectId }, path: { hash } },
          body: { ...range, pagination: { page, pageSize: PAGE_SIZE } },
        }),
      );
    },
  });

  const items = occurrences.data?.items ?? [];
  const selectedIndex = Math.min(search.occurrence ?? 0, Math.max(0, items.length - 1));
  const selected = items[selectedIndex];
  const trace = selected?.stackTrace ?? group.data?.stackTrace ?? '';
  // Frames mapped through source maps, shown marked with their source; only for the selected occurrence's own text.
  const mappedFrames = useMemo(
    () => (selected && trace === selected.stackTrace ? mappedFramesOf(selected.attributes) : undefined),
    [selected, trace],
  );
  const title = group.data?.title ?? trace.split('\n', 1)[0] ?? '';
  // The selected occurrence's session, read once with the replay card (one query key): its
  // links are offered only while it can be opened.
  const selectedSession = useQuery({
    ...sessionQuery(scope?.projectId, selected?.sessionId ?? ''),
    enabled: scope !== undefined && Boolean(selected?.sessionId),
  });
  const { kept: sessionsKept, pending: sessionsKeptPending } = useSessionsKept();
  /**
   * Whether an occurrence's session may be linked to (`open`), cannot be opened (`gone`), or only
   * its read would tell (`unsure`): it may have begun before what is kept (an occurrence less than
   * the longest session after that edge), or how long sessions are kept is not known yet. Only the
   * selected occurrence's session is read, so an unsure row selects its occurrence instead of
   * linking: never a link to a "not found".
   */
  const sessionOf = (occurrence: Occurrence): OccurrenceSession => {
    const past = sessionPastKept(occurrence.recordedAt, sessionsKept, Date.now());
    const read = occurrence === selected ? selectedSession : undefined;
    const missing = read?.error instanceof ApiError && read.error.status === 404;
    if (sessionsKept && (past === 'certain' || (past === 'likely' && missing)))
      return { state: 'gone', why: pastRetentionNote(sessionsKept) };
    if (missing && !sessionsKeptPending) return { state: 'gone', why: 'The service never received this session' };
    if (read?.isSuccess) return { state: 'open' };
    if (sessionsKept && past === 'likely') return { state: 'unsure', why: mayBePastRetentionNote(sessionsKept) };
    if (sessionsKeptPending) return { state: 'unsure', why: 'How long sessions are kept is not known yet' };
    return { state: 'open' };
  };
  const select = (index: number) =>
    void navigate({ search: (prev) => ({ ...prev, occurrence: index }), replace: true });

  if (group.isError) return <Shell>{<ErrorState error={group.error} />}</Shell>;
  if (group.isSuccess && group.data === null && occurrences.isSuccess && items.length === 0) {
    return (
      <Shell>
        <Card>
          <EmptyState title="No occurrence of this issue in the time range">
            The issue <span className="font-mono">{hash}</span> has no occurrence between the range's ends. Widen the
            time range to find its older ones.
          </EmptyState>
        </Card>
      </Shell>
    );
  }

  return (
    <Shell>
      <header className="grid gap-2">
        {group.isPending ? (
          <Skeleton className="h-6 w-2/3" />
        ) : (
          <h1 className="text-lg font-semibold tracking-tight break-words" data-testid="issue-title">
            {title || '(empty message)'}
          </h1>
        )}
        <div className="flex flex-wrap items-center gap-x-5 gap-y-1 text-sm text-muted-foreground">
          <span className="font-mono text-xs">{hash}</span>
          {group.data && (
            <>
              <Figure label="Events" testId="issue-count">
                {formatCount(group.data.count)}
              </Figure>
              <Figure label="Users">{formatCount(group.data.usersAffected)}</Figure>
              <Figure label="Sessions">{formatCount(group.data.sessionsAffected)}</Figure>
              <Figure label="First seen">
                <RelativeTime value={group.data.firstSeen} />
              </Figure>
              <Figure label="Last seen">
                <RelativeTime value={group.data.lastSeen} />
              </Figure>
              <Sparkline values={group.data.sparkline} label="Events over the range" className="h-6 w-40" />
            </>
          )}
        </div>
        <IssueStatusActions hash={hash} issue={group.data} />
      </header>

      <div className="grid grid-cols-1 items-start gap-4 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="grid min-w-0 grid-cols-1 gap-4">
          <Card>
            <CardHeader
              title="Stack trace"
              description={selected ? `Occurrence of ${formatPreciseTime(selected.recordedAt)}` : undefined}
              actions={
                symbolicated(selected) ? (
                  <div className="flex items-center gap-2">
                    <span className="rounded border border-success/50 bg-success/10 px-1.5 py-0.5 text-xs font-medium text-foreground">
                      symbolicated
                    </span>
                    <button
                      type="button"
                      className={cn(linkStyles.accent, 'text-xs underline-offset-2')}
                      onClick={() =>
                        void navigate({
                          search: (prev) => ({ ...prev, raw: prev.raw ? undefined : true }),
                          replace: true,
                        })
                      }
                    >
                      {search.raw ? 'Show frames' : 'Show raw trace'}
                    </button>
                  </div>
                ) : undefined
              }
            />
            {group.isPending && occurrences.isPending ? (
              <div className="grid gap-2 p-4">
                {Array.from({ length: 6 }, (_, index) => (
                  <Skeleton key={index} className="h-4" style={{ width: `${90 - index * 8}%` }} />
                ))}
              </div>
            ) : search.raw && selected && symbolicated(selected) ? (
              <pre
                role="region"
                aria-label="Raw stack trace"
                className="overflow-x-auto px-4 py-3 font-mono text-xs leading-5 whitespace-pre"
              >
                {selected.rawStackTrace}
              </pre>
            ) : (
              <StackTraceView text={trace} mapped={mappedFrames} />
            )}
          </Card>

          {/* Browser occurrences only: a server-side exception has no session to replay. */}
          {selected?.sessionId && (
            <Suspense fallback={<ReplayCardSkeleton recorded={selected.hasRecording} />}>
              <SessionReplayCard
                projectId={scope?.projectId}
                sessionId={selected.sessionId}
                recordedAt={selected.recordedAt}
                hasRecording={selected.hasRecording}
              />
            </Suspense>
          )}

          <Card>
            <CardHeader
              title="Occurrences"
              description="In the selected time range, newest first. Select one to see its stack trace and attributes."
            />
            {occurrences.isPending ? (
              <TableSkeleton rows={5} columns={5} />
            ) : occurrences.isError ? (
              <ErrorState error={occurrences.error} className="m-4" />
            ) : items.length === 0 ? (
              <EmptyState title="No occurrence on this page" />
            ) : (
              <PagedTable
                aria-label="Occurrences"
                stale={occurrences.isPlaceholderData}
                paging={{
                  page,
                  pageSize: PAGE_SIZE,
                  total: occurrences.data?.total,
                  onPage: (next) =>
                    void navigate({ search: (prev) => ({ ...prev, page: next, occurrence: undefined }) }),
                }}
              >
                <THead>
                  <tr>
                    <TH>Time</TH>
                    <TH>Trace</TH>
                    <TH>Server</TH>
                    <TH>Version</TH>
                    <TH>Session</TH>
                  </tr>
                </THead>
                <TBody>
                  {items.map((item, index) => (
                    <TR
                      key={`${item.recordedAt}-${index}`}
                      active={index === selectedIndex}
                      aria-selected={index === selectedIndex}
                      data-occurrence={index}
                      className="cursor-pointer"
                      onClick={() => select(index)}
                    >
                      <TD className="whitespace-nowrap">
                        <button type="button" className={cn(linkStyles.plain, 'tabular')} onClick={() => select(index)}>
                          {formatPreciseTime(item.recordedAt)}
                        </button>
                      </TD>
                      <TD className="max-w-64 truncate">
                        {item.traceId ? (
                          <Link
                            to="/traces/$id"
                            params={{ id: item.traceId }}
                            className={linkStyles.plain}
                            onClick={(event) => event.stopPropagation()}
                          >
                            {item.linked?.name ?? <span className="font-mono text-xs">{item.traceId}</span>}
                          </Link>
                        ) : (
                          <span className="text-muted-foreground">—</span>
                        )}
                      </TD>
                      <TD className="text-muted-foreground">{item.serverName || '—'}</TD>
                      <TD className="font-mono text-xs text-muted-foreground">{item.appVersion || '—'}</TD>
                      <TD>
                        {item.sessionId ? (
                          <OccurrenceSessionCell
                            sessionId={item.sessionId}
                            session={sessionOf(item)}
                            link={sessionReplayLink(item.sessionId, item.recordedAt)}
                            onSelect={() => select(index)}
                          />
                        ) : (
                          <span className="text-muted-foreground">—</span>
                        )}
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </PagedTable>
            )}
          </Card>
          <IssueActivity hash={hash} />
        </div>

        <Card aria-label="Selected occurrence" className="min-w-0">
          <CardHeader
            title="This occurrence"
            description={selected ? formatPreciseTime(selected.recordedAt) : undefined}
          />
          {!selected ? (
            <div className="grid gap-2 p-4">
              <Skeleton className="h-4 w-3/4" />
              <Skeleton className="h-4 w-1/2" />
            </div>
          ) : (
            <div className="grid gap-3 py-3">
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 px-4 text-sm">
                <dt className="text-muted-foreground">Trace</dt>
                <dd className="min-w-0 truncate">
                  {orDash(selected.traceId, (value) => (
                    <Link
                      to="/traces/$id"
                      params={{ id: value }}
                      className={linkStyles.accent}
                      data-testid="occurrence-trace"
                      title={selected.linked?.name ?? value}
                    >
                      {selected.linked?.name ?? value}
                    </Link>
                  ))}
                </dd>
                <dt className="text-muted-foreground">Distributed</dt>
                <dd className="min-w-0 truncate">
                  {orDash(selected.distributedTraceId, (value) => (
                    <Link
                      to="/distributed-traces/$id"
                      params={{ id: value }}
                      className={cn(linkStyles.id, 'text-xs')}
                      title={value}
                    >
                      {value}
                    </Link>
                  ))}
                </dd>
                <dt className="text-muted-foreground">Session</dt>
                <dd className="min-w-0 truncate">
                  {orDash(selected.sessionId, (value) => {
                    const session = sessionOf(selected);
                    if (session.state === 'gone') return <UnopenableSessionId id={value} why={session.why} showWhy />;
                    // Read just now (it is the selected occurrence's): the link follows its answer.
                    if (session.state === 'unsure')
                      return (
                        <span className="truncate font-mono text-xs text-muted-foreground" title={session.why}>
                          {value}
                        </span>
                      );
                    return (
                      <span className="flex min-w-0 items-baseline gap-3">
                        <Link
                          to="/sessions/$id"
                          params={{ id: value }}
                          className={cn(linkStyles.id, 'truncate text-xs')}
                          title={value}
                        >
                          {value}
                        </Link>
                        {/* The replay opens at the moment this occurrence was recorded. */}
                        {selected.hasRecording && (
                          <Link
                            {...sessionReplayLink(value, selected.recordedAt)}
                            className={cn(linkStyles.accent, 'shrink-0 text-xs')}
                            data-testid="watch-replay"
                          >
                            Watch replay
                          </Link>
                        )}
                      </span>
                    );
                  })}
                </dd>
                <dt className="text-muted-foreground">Server</dt>
                <dd>{selected.serverName || '—'}</dd>
                <dt className="text-muted-foreground">Version</dt>
                <dd className="font-mono text-xs">{selected.appVersion || '—'}</dd>
                <dt className="text-muted-foreground">Source</dt>
                <dd>{selected.source || '—'}</dd>
              </dl>
              <AttributeTable attributes={withoutMappedFrames(selected.attributes)} label="Occurrence attributes" />
            </div>
          )}
        </Card>
      </div>
    </Shell>
  );
}

/** Whether an occurrence's session can be opened (IssuePage's sessionOf). */
type OccurrenceSession = { state: 'open' } | { state: 'gone' | 'unsure'; why: string };

/**
 * An occurrence's session in the occurrences table: a link to its replay at the occurrence when it
 * can be opened; its id and why not when it cannot; and when only its read would tell (`unsure`),
 * a button selecting the occurrence, whose details then say which.
 */
function OccurrenceSessionCell({
  sessionId,
  session,
  link,
  onSelect,
}: {
  sessionId: string;
  session: OccurrenceSession;
  link: ReturnType<typeof sessionReplayLink>;
  onSelect: () => void;
}) {
  const short = sessionId.slice(0, 8);
  if (session.state === 'gone') return <UnopenableSessionId id={short} why={session.why} />;
  if (session.state === 'unsure')
    return (
      <button
        type="button"
        className={cn(linkStyles.plain, 'font-mono text-xs text-muted-foreground')}
        title={`Session ${sessionId}. ${session.why}: select this occurrence to see whether it can be opened`}
        data-testid="session-unsure"
        onClick={(event) => {
          event.stopPropagation();
          onSelect();
        }}
      >
        {short}
      </button>
    );
  return (
    <Link
      {...link}
      // Accent, as ids that open something are: beside ids that cannot be opened (muted), a plain
      // link read as one more of them.
      className={cn(linkStyles.id, 'text-xs')}
      title={`Session ${sessionId}, at this occurrence`}
      onClick={(event) => event.stopPropagation()}
    >
      {short}
    </Link>
  );
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-4 px-6 py-5">
      <Link
        to="/issues"
        className="inline-flex w-fit items-center gap-1 text-xs text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-3.5" aria-hidden />
        Issues
      </Link>
      {children}
    </div>
  );
}

/** The replay card's shape while its code loads: the header, the summary's line and the player's stage. */
function ReplayCardSkeleton({ recorded }: { recorded: boolean }) {
  return (
    <Card aria-label="Session replay" aria-busy="true" className="overflow-hidden">
      <CardHeader title="Session replay" />
      <div className="border-b px-4 py-3">
        <Skeleton className="h-9 w-2/3" />
      </div>
      {recorded ? <PlayerSkeleton maxHeight={EMBEDDED_PLAYER_HEIGHT} /> : <Skeleton className="m-4 h-16" />}
    </Card>
  );
}

/** A value's rendering, or a dash when the occurrence has none. */
function orDash(value: string | null, render: (value: string) => ReactNode): ReactNode {
  return value ? render(value) : '—';
}

function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <span className="inline-flex items-baseline gap-1.5">
      <span className="text-xs">{label}</span>
      <span className="font-medium text-foreground tabular" data-testid={testId}>
        {children}
      </span>
    </span>
  );
}
