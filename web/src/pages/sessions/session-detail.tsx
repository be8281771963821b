/**
 * /sessions/:id: one browser session. The rrweb replay (its player a lazy chunk of its own,
 * lazy-replay-player.tsx), the timeline of console logs, network calls, navigations, clicks and exceptions that seeks the
 * replay, the session's exceptions linking to their issues, and its attributes. `?t=<seconds>`
 * is the replay's moment (kept when the replay comes to rest or an entry is clicked, so the URL
 * links to it); `?at=<ISO>` (sessionReplayLink) opens it at an instant and becomes `t`.
 */
import { getRouteApi, Link, useSearch } from '@tanstack/react-router';
import { ArrowLeft, Bug, Globe, MousePointerClick, Navigation, Sparkles, Terminal } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { linkStyles } from '@/components/ui/link';
import { EmptyState, ErrorState } from '@/components/ui/states';
import { NotFoundState } from '@/components/ui/problem-states';
import { ApiError } from '@/lib/api';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { formatDateTime, formatDuration, formatPreciseTime } from '@/lib/format';
import { sessionPastKept, useSessionsKept } from '@/lib/retention';
import { cn } from '@/lib/utils';
import { PageHeader } from '../page-header';
import { secondsParam } from './links';
import type { ReplayControls } from './replay-player';
import { formatClock, instantOf, toClockTenths, type TimelineEntry, type TimelineKind } from './timeline';
import type { SessionDetail } from './types';
import { useSessionReplay } from './use-session-replay';
import { LazyReplayPlayer, PlayerSkeleton } from './lazy-replay-player';
import { humanizeUserAgent } from '@/lib/user-agent';
import { displayUrl } from './display';
import { UnreadableSegmentsNotice } from './unreadable-notice';
import { PastRetentionExplanation, pastRetentionTitle } from './past-retention';

const route = getRouteApi('/app/sessions/$id');

export function SessionDetailPage() {
  const { id } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { projectId } = useSearch({ strict: false });

  const { session, recording, recorded, events, timeline, played, startMs, unreadableSegments } = useSessionReplay(
    projectId,
    id,
  );

  const { kept: sessionsKept, pending: sessionsKeptPending } = useSessionsKept();
  const controls = useRef<ReplayControls | null>(null);
  const [currentMs, setCurrentMs] = useState((search.t ?? 0) * 1000);
  const currentRef = useRef(currentMs);
  const urlOffsetMs =
    search.at !== undefined && events.length > 0 ? Date.parse(search.at) - startMs : (search.t ?? 0) * 1000;

  const keepMoment = useCallback(
    (offsetMs: number) =>
      void navigate({ search: (prev) => ({ ...prev, at: undefined, t: secondsParam(offsetMs) }), replace: true }),
    [navigate],
  );

  // `?at=` from another page becomes `?t=` once the recording says when its clock starts.
  useEffect(() => {
    if (search.at !== undefined && events.length > 0) keepMoment(Date.parse(search.at) - startMs);
  }, [search.at, events.length, startMs, keepMoment]);

  // Back/forward or an edited URL moves the replay to the URL's moment.
  useEffect(() => {
    if (search.t !== undefined && Math.abs(search.t * 1000 - currentRef.current) > 300)
      controls.current?.seek(search.t * 1000);
  }, [search.t]);

  const seekTo = (atMs: number) => {
    const offset = Math.max(0, atMs - startMs);
    controls.current?.seek(offset);
    currentRef.current = offset;
    setCurrentMs(offset);
    void navigate({ search: (prev) => ({ ...prev, at: undefined, t: secondsParam(offset) }) });
  };

  const onTime = useCallback((offsetMs: number) => {
    currentRef.current = offsetMs;
    // Re-render the timeline's "now" at the clock's tenths, not at every frame.
    setCurrentMs(Math.round(offsetMs / 100) * 100);
  }, []);

  const missing = session.error instanceof ApiError && session.error.status === 404;
  // Opened at an instant (a link from an occurrence or a trace), a session not found may be one past
  // what is kept, which the plan's answer tells: until it is in, the page stays loading rather than
  // saying "not found" first.
  const awaitingKept = missing && search.at !== undefined && sessionsKeptPending;
  if (missing && !awaitingKept) {
    // A session with an event that old is past what is kept, not unknown.
    const pastRetention = sessionsKept && sessionPastKept(search.at, sessionsKept, Date.now()) !== false;
    return (
      <NotFoundState
        kind="session"
        id={id}
        reason={
          pastRetention
            ? { title: pastRetentionTitle(sessionsKept), explanation: <PastRetentionExplanation kept={sessionsKept} /> }
            : undefined
        }
      />
    );
  }
  if (session.error && !awaitingKept) {
    return (
      <div className="grid gap-4 px-6 py-5">
        <BackLink />
        <ErrorState error={session.error} />
      </div>
    );
  }
  const data = session.data;
  const agent = humanizeUserAgent(data?.userAgent);

  return (
    <div className="grid gap-4 px-6 py-5">
      <BackLink />
      <PageHeader
        title="Session"
        description={
          data ? (
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="font-mono text-xs text-foreground">{data.id}</span>
              <span className="tabular">{formatDateTime(data.startedAt)}</span>
              <span className="font-mono text-xs" data-testid="session-duration">
                {data.durationMs === null ? 'still open' : formatDuration(toClockTenths(data.durationMs))}
              </span>
              <span title={data.userAgent ?? undefined}>{agent.label}</span>
            </span>
          ) : (
            <Skeleton className="h-4 w-96" />
          )
        }
      />
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <Card className="overflow-hidden">
          <CardHeader title="Replay" description={data?.url ? displayUrl(data.url) : undefined} />
          <UnreadableSegmentsNotice count={unreadableSegments} total={recording.data?.segments.length ?? 0} />
          {!data || (recorded && recording.isPending) ? (
            <PlayerSkeleton />
          ) : recording.error ? (
            <ErrorState error={recording.error} className="m-4" />
          ) : events.length === 0 ? (
            unreadableSegments > 0 ? null : (
              <EmptyState title="No recording for this session">
                The browser client records the page (rrweb) when always-on recording is on, and sends a segment about
                every 30 seconds. Its console logs and errors are still listed here.
              </EmptyState>
            )
          ) : (
            <LazyReplayPlayer
              events={played}
              initialOffsetMs={Math.max(0, urlOffsetMs)}
              onReady={(ready) => (controls.current = ready)}
              onTime={onTime}
              onSettle={keepMoment}
            />
          )}
        </Card>
        <Card className="flex max-h-[40rem] min-h-0 flex-col overflow-hidden">
          <CardHeader
            title="Timeline"
            description={events.length > 0 ? 'Click an entry to see that moment of the replay.' : undefined}
          />
          {!data || (recorded && recording.isPending) ? (
            <div className="grid gap-2 p-3" aria-busy="true">
              {Array.from({ length: 8 }, (_, index) => (
                <Skeleton key={index} className="h-8" />
              ))}
            </div>
          ) : timeline.length === 0 ? (
            <EmptyState title="Nothing happened that the client reported">
              Console output, requests, navigations and clicks appear here with their time in the replay.
            </EmptyState>
          ) : (
            <Timeline
              entries={timeline}
              startMs={startMs}
              currentMs={currentMs}
              replayable={events.length > 0}
              onSeek={seekTo}
            />
          )}
        </Card>
      </div>
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <Card className="overflow-hidden">
          <CardHeader title="Exceptions" description="Errors and messages captured during the session." />
          {!data ? (
            <BlockSkeleton className="h-16" />
          ) : data.exceptions.length === 0 ? (
            <EmptyState title="No exceptions in this session" />
          ) : (
            <Table aria-label="Exceptions">
              <THead>
                <tr>
                  <TH>At</TH>
                  <TH>Issue</TH>
                </tr>
              </THead>
              <TBody>
                {data.exceptions.map((exception, index) => {
                  const at = instantOf(exception.recordedAt);
                  return (
                    <TR key={`${exception.hash}-${index}`}>
                      <TD className="w-28 whitespace-nowrap">
                        {at !== undefined && events.length > 0 ? (
                          <button
                            type="button"
                            onClick={() => seekTo(at)}
                            className="font-mono text-xs text-accent outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                            aria-label={`${formatOffset(at - startMs)}: show ${exception.title} in the replay`}
                            title={formatPreciseTime(at)}
                          >
                            {formatOffset(at - startMs)}
                          </button>
                        ) : (
                          <span className="font-mono text-xs text-muted-foreground">
                            {formatPreciseTime(exception.recordedAt)}
                          </span>
                        )}
                      </TD>
                      <TD className="max-w-0">
                        <Link
                          to="/issues/$hash"
                          params={{ hash: exception.hash }}
                          className={cn(linkStyles.accent, 'flex min-w-0 items-center gap-2')}
                        >
                          <Bug
                            className={cn(
                              'size-3.5 shrink-0',
                              exception.isMessage ? 'text-muted-foreground' : 'text-danger',
                            )}
                            aria-hidden
                          />
                          <span className="truncate font-mono text-xs" title={exception.title}>
                            {exception.title}
                          </span>
                        </Link>
                      </TD>
                    </TR>
                  );
                })}
              </TBody>
            </Table>
          )}
        </Card>
        <Card className="overflow-hidden">
          <CardHeader
            title="Attributes"
            description="The browser context the client collected, and the caller's own keys."
          />
          {!data ? (
            <BlockSkeleton className="h-32" />
          ) : (
            <Table aria-label="Attributes">
              <TBody>
                {attributeRows(data).map(([key, value]) => (
                  <TR key={key}>
                    <TD className="w-40 text-xs whitespace-nowrap text-muted-foreground">{key}</TD>
                    <TD className="max-w-0 font-mono text-xs break-all">{value}</TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
      </div>
    </div>
  );
}

function attributeRows(session: SessionDetail): Array<[string, ReactNode]> {
  const rows: Array<[string, ReactNode]> = Object.entries(session.attributes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => [key, value]);
  if (session.distributedTraceId) {
    rows.unshift([
      'distributed trace',
      <Link
        key="trace"
        to="/distributed-traces/$id"
        params={{ id: session.distributedTraceId }}
        className={linkStyles.id}
      >
        {session.distributedTraceId}
      </Link>,
    ]);
  }
  return rows;
}

const KIND_ICON: Record<TimelineKind, typeof Terminal> = {
  navigation: Navigation,
  log: Terminal,
  network: Globe,
  click: MousePointerClick,
  custom: Sparkles,
  exception: Bug,
};

const KIND_LABEL: Record<TimelineKind, string> = {
  navigation: 'Navigation',
  log: 'Console',
  network: 'Network',
  click: 'Click',
  custom: 'Custom',
  exception: 'Exception',
};

function Timeline({
  entries,
  startMs,
  currentMs,
  replayable,
  onSeek,
}: {
  entries: TimelineEntry[];
  startMs: number;
  currentMs: number;
  replayable: boolean;
  onSeek: (atMs: number) => void;
}) {
  // The entry the replay has reached: the last one at or before the current time.
  let reached = -1;
  entries.forEach((entry, index) => {
    if (entry.atMs - startMs <= currentMs + 50) reached = index;
  });
  return (
    <ol aria-label="Timeline" className="min-h-0 flex-1 overflow-y-auto">
      {entries.map((entry, index) => {
        const Icon = KIND_ICON[entry.kind];
        const content = (
          <>
            <span className="w-14 shrink-0 pt-px font-mono text-xs text-muted-foreground tabular">
              {formatOffset(entry.atMs - startMs)}
            </span>
            <Icon
              className={cn('mt-0.5 size-3.5 shrink-0', entry.severe ? 'text-danger' : 'text-muted-foreground')}
              aria-label={KIND_LABEL[entry.kind]}
            />
            <span className="grid min-w-0 flex-1">
              <span
                className={cn(
                  'truncate text-xs',
                  entry.kind === 'log' || entry.kind === 'network' || entry.kind === 'exception' ? 'font-mono' : '',
                  entry.severe && 'text-danger',
                )}
                title={entry.label}
              >
                {entry.label}
              </span>
              {entry.detail && <span className="truncate text-[11px] text-muted-foreground">{entry.detail}</span>}
            </span>
          </>
        );
        return (
          <li key={entry.key} data-kind={entry.kind} className="border-b last:border-b-0">
            {replayable ? (
              <button
                type="button"
                onClick={() => onSeek(entry.atMs)}
                data-reached={index === reached ? '' : undefined}
                className="flex w-full items-start gap-2 px-3 py-1.5 text-left outline-none hover:bg-muted/60 focus-visible:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset data-[reached]:bg-accent-soft"
              >
                {content}
              </button>
            ) : (
              <div className="flex items-start gap-2 px-3 py-1.5">{content}</div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** +m:ss.s from the replay's start, rounded as the player's clock; negative before it (an error logged before recording began). */
function formatOffset(ms: number): string {
  return `${toClockTenths(ms) < 0 ? '−' : '+'}${formatClock(ms)}`;
}

function BlockSkeleton({ className }: { className: string }) {
  return (
    <div className="p-3" aria-busy="true">
      <Skeleton className={className} />
    </div>
  );
}

function BackLink() {
  return (
    <Link
      to="/sessions"
      className="inline-flex w-fit items-center gap-1 text-xs text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft className="size-3.5" aria-hidden />
      Sessions
    </Link>
  );
}
