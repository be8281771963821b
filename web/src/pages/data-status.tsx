import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { linkStyles } from '@/components/ui/link';
import { api, read } from '@/lib/api';
import { useCurrentProject } from '@/lib/current-project';
import { ingestPausedDetail, ingestPausedUntil } from '@/lib/ingest-quota';
import { usageQuery } from '@/lib/queries';
import { daysText, planKeptDays } from '@/lib/retention';
import type { DataStatus } from '@/lib/types';
import { cn } from '@/lib/utils';

/** Polls fast while nothing has arrived (the person is wiring a client up right now), slowly after. */
const WAITING_POLL_MS = 3_000;
const RECEIVING_POLL_MS = 15_000;

export const dataStatusQuery = (projectId: string) => ({
  queryKey: ['data-status', projectId],
  queryFn: () => read<DataStatus>(api.GET('/api/projects/data-status', { params: { query: { projectId } } })),
});

/** "5 s", "3 min", "2 h": how long ago, coarse enough to read at a glance. */
function ago(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}

/** Re-renders every second, so "N s ago" moves between polls. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Whether the project has received data yet: "Waiting for the first data…" (polling every few
 * seconds) until something arrives, then "Receiving data — last event N s ago"; for a project whose
 * every event is past its plan's retention, how many days the plan keeps. A live region, so
 * a screen reader hears the change. Above all of these: ingest paused by the organization's monthly
 * quota, when whatever the application sends is refused (before: "Receiving data" went on showing).
 */
export function DataStatusBanner({ projectId, className }: { projectId: string; className?: string }) {
  const status = useQuery({
    ...dataStatusQuery(projectId),
    refetchInterval: (query) => (query.state.data?.lastEventAt ? RECEIVING_POLL_MS : WAITING_POLL_MS),
  });
  const { project } = useCurrentProject();
  const usage = useQuery({ ...usageQuery(project?.organizationId), refetchInterval: RECEIVING_POLL_MS });
  const pausedUntil = usage.data ? ingestPausedUntil(usage.data) : null;
  const now = useNow();
  const data = status.data;
  const state = pausedUntil
    ? 'paused'
    : !data
      ? 'loading'
      : data.lastEventAt
        ? 'receiving'
        : data.hasData
          ? 'quiet'
          : data.expiredData
            ? 'expired'
            : 'waiting';
  const planDays = usage.data ? planKeptDays(usage.data.limits) : undefined;
  return (
    <div
      role="status"
      aria-live="polite"
      aria-busy={state === 'loading'}
      className={cn('flex items-center gap-2.5 rounded-lg border bg-panel px-4 py-2.5 text-sm', className)}
      data-state={state}
    >
      <span
        aria-hidden
        className={cn(
          'size-2 shrink-0 rounded-full',
          state === 'paused'
            ? 'bg-danger'
            : state === 'receiving'
              ? 'bg-success'
              : state === 'quiet' || state === 'expired'
                ? 'bg-warning'
                : 'animate-pulse bg-muted-foreground',
        )}
      />
      {pausedUntil ? (
        <span>
          <span className="font-medium text-danger">Ingest is paused</span>
          <span className="text-muted-foreground"> — {ingestPausedDetail(pausedUntil)}</span>{' '}
          <Link to="/settings/organization" className={linkStyles.accent}>
            Plan and usage
          </Link>
        </span>
      ) : status.error ? (
        <span className="text-danger">{status.error.message}</span>
      ) : state === 'loading' ? (
        <span className="text-muted-foreground">Checking for data…</span>
      ) : state === 'receiving' ? (
        <span>
          <span className="font-medium">Receiving data</span>
          <span className="text-muted-foreground"> — last event {ago(now - Date.parse(data!.lastEventAt!))} ago</span>
        </span>
      ) : state === 'quiet' ? (
        <span>
          <span className="font-medium">No data in the last 24 hours</span>
          <span className="text-muted-foreground">
            {' '}
            — this project received data before; check that your application still sends it.
          </span>
        </span>
      ) : state === 'expired' ? (
        <span>
          <span className="font-medium">
            {planDays === undefined
              ? 'No data in the days your plan keeps'
              : `No data in the last ${daysText(planDays)} your plan keeps`}
          </span>
          <span className="text-muted-foreground">
            {' '}
            — this project received data before, all of it older than that; check that your application still sends it.
          </span>{' '}
          <Link to="/settings/organization" className={linkStyles.accent}>
            Plan and usage
          </Link>
        </span>
      ) : (
        <span>
          <span className="font-medium">Waiting for the first data…</span>
          <span className="text-muted-foreground">
            {' '}
            This updates by itself as soon as your application sends something.
          </span>
        </span>
      )}
    </div>
  );
}
