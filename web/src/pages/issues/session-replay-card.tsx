/**
 * The issue page's "Session replay" card: for an occurrence raised in a browser session, the
 * session's summary (start in the organization's zone, duration, page, browser) and its replay,
 * embedded and opened a few seconds before the occurrence, with the way to the full session at
 * that moment. The session and recording are the session page's own reads (use-session-replay),
 * the player its lazy chunk, so this page's first JavaScript carries no rrweb.
 */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { linkStyles } from '@/components/ui/link';
import { EmptyState, ErrorState } from '@/components/ui/states';
import { ApiError } from '@/lib/api';
import { formatDuration, formatInZone } from '@/lib/format';
import { useDisplayTimeZone } from '@/lib/use-display-time-zone';
import { sessionPastKept, useSessionsKept } from '@/lib/retention';
import { cn } from '@/lib/utils';
import { humanizeUserAgent } from '@/lib/user-agent';
import { displayUrl } from '../sessions/display';
import { UnreadableSegmentsNotice } from '../sessions/unreadable-notice';
import { EMBEDDED_PLAYER_HEIGHT, LazyReplayPlayer, PlayerSkeleton } from '../sessions/lazy-replay-player';
import { sessionReplayLink } from '../sessions/links';
import { PastRetentionExplanation, pastRetentionTitle } from '../sessions/past-retention';
import { formatClock, toClockTenths } from '../sessions/timeline';
import type { SessionDetail } from '../sessions/types';
import { useSessionReplay } from '../sessions/use-session-replay';

/** How long before the occurrence the embedded replay starts: the moments that led to it. */
const REPLAY_LEAD_MS = 5_000;

export function SessionReplayCard({
  projectId,
  sessionId,
  recordedAt,
  hasRecording,
}: {
  projectId: string | undefined;
  sessionId: string;
  /** The occurrence's instant (ISO). */
  recordedAt: string | null;
  hasRecording: boolean;
}) {
  const { session, recording, recorded, events, played, startMs, unreadableSegments } = useSessionReplay(
    projectId,
    sessionId,
    hasRecording,
  );
  const occurredMs = recordedAt ? Date.parse(recordedAt) : Number.NaN;
  // The occurrence on the replay's clock, and where the player starts: a few seconds before it, not before the recording.
  const occurrenceOffset = Number.isFinite(occurredMs) && events.length > 0 ? occurredMs - startMs : undefined;
  const startOffset = occurrenceOffset === undefined ? 0 : Math.max(0, occurrenceOffset - REPLAY_LEAD_MS);
  const missing = session.error instanceof ApiError && session.error.status === 404;
  const { kept, pending: keptPending } = useSessionsKept();
  const past = sessionPastKept(recordedAt, kept, Date.now());
  // Older than kept: known from the occurrence's time, or likely from it once the read found nothing.
  const pastRetention = past === 'certain' || (past === 'likely' && missing);
  // A session not found is said to be past what is kept or never received only once the plan's answer tells which.
  const awaitingKept = missing && keptPending;

  const open = (
    <Link
      {...sessionReplayLink(sessionId, recorded ? recordedAt : undefined)}
      className={cn(linkStyles.accent, 'shrink-0 text-xs')}
      data-testid="replay-card-open"
    >
      Open session
    </Link>
  );

  return (
    <Card aria-label="Session replay" data-testid="session-replay-card" className="overflow-hidden">
      <CardHeader
        title="Session replay"
        description={momentOf(occurrenceOffset, startOffset)}
        actions={missing || pastRetention ? undefined : open}
      />
      {pastRetention && kept ? (
        <EmptyState title={pastRetentionTitle(kept)}>
          <PastRetentionExplanation kept={kept} />
        </EmptyState>
      ) : missing && !awaitingKept ? (
        <EmptyState title="The service never received this session">
          The occurrence names the browser session <span className="font-mono">{sessionId}</span>, but no details or
          recording of it arrived.
        </EmptyState>
      ) : session.error && !awaitingKept ? (
        <ErrorState error={session.error} className="m-4" />
      ) : (
        <>
          <SessionSummary session={session.data} />
          <UnreadableSegmentsNotice count={unreadableSegments} total={recording.data?.segments.length ?? 0} />
          {!session.data || (recorded && recording.isPending) ? (
            recorded ? (
              <PlayerSkeleton maxHeight={EMBEDDED_PLAYER_HEIGHT} />
            ) : (
              <div className="p-4" aria-busy="true">
                <Skeleton className="h-16" />
              </div>
            )
          ) : recording.error ? (
            <ErrorState error={recording.error} className="m-4" />
          ) : events.length === 0 ? (
            unreadableSegments > 0 ? null : (
              <EmptyState title="This session has no recording" className="py-8">
                The browser client sent the session but no replay of it: it records the page (rrweb) only when recording
                is on. The session's page still lists its console logs, requests and errors.
              </EmptyState>
            )
          ) : (
            <LazyReplayPlayer
              // A new moment rebuilds the player there (another occurrence of the same session).
              key={`${sessionId}-${recordedAt}`}
              events={played}
              initialOffsetMs={startOffset}
              maxHeight={EMBEDDED_PLAYER_HEIGHT}
            />
          )}
        </>
      )}
    </Card>
  );
}

/** Where the player starts, said against the occurrence's moment on the replay's clock. */
function momentOf(occurrenceOffset: number | undefined, startOffset: number): string {
  if (occurrenceOffset === undefined) return 'The browser session this occurrence was raised in.';
  if (occurrenceOffset < 0)
    return `This occurrence came ${formatClock(-occurrenceOffset)} before the recording began; the replay starts at its beginning.`;
  const at = `This occurrence is at ${formatClock(occurrenceOffset)}`;
  return startOffset === 0
    ? `${at}; the replay starts at the session's beginning.`
    : `${at}; the replay starts ${formatClock(occurrenceOffset - startOffset)} before it.`;
}

/** Start (the organization's zone), duration, browser and page, as the session page's header says them. */
function SessionSummary({ session }: { session: SessionDetail | undefined }) {
  const zone = useDisplayTimeZone();
  const agent = humanizeUserAgent(session?.userAgent);
  return (
    <dl
      className="grid grid-cols-2 gap-x-6 gap-y-2 border-b px-4 py-3 text-sm md:grid-cols-[auto_auto_auto_minmax(0,1fr)]"
      data-testid="replay-card-summary"
    >
      <Fact label="Started" testId="replay-card-started">
        {session ? (session.startedAt ? formatInZone(session.startedAt, 'minute', zone) : '—') : undefined}
      </Fact>
      <Fact label="Duration" testId="replay-card-duration">
        {session
          ? session.durationMs === null
            ? 'still open'
            : formatDuration(toClockTenths(session.durationMs))
          : undefined}
      </Fact>
      <Fact label="Browser" testId="replay-card-browser" title={session?.userAgent ?? undefined}>
        {session ? agent.label : undefined}
      </Fact>
      <Fact label="Page" testId="replay-card-url" title={session?.url ?? undefined}>
        {session ? displayUrl(session.url) : undefined}
      </Fact>
    </dl>
  );
}

/** One term of the summary; a skeleton while its value is unknown. */
function Fact({
  label,
  children,
  testId,
  title,
}: {
  label: string;
  children: ReactNode | undefined;
  testId: string;
  title?: string;
}) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 truncate tabular" data-testid={testId} title={title}>
        {children === undefined ? <Skeleton className="my-0.5 h-4 w-24" /> : children}
      </dd>
    </div>
  );
}
