/**
 * How long the service keeps telemetry, as the dashboard tells it: the organization's plan
 * (GET /api/billing/usage, hot + warm days, at least one: src/core/plans.ts keptDays), within the
 * tables' own TTLs (telemetry migrations; docs/OPERATIONS.md §6). Reads answer nothing older
 * (src/api/telemetry/conventions.ts readClockOf), so a page linking to an older session says so
 * instead of leading to a "not found".
 */
import { useQuery } from '@tanstack/react-query';
import { useCurrentProject } from './current-project';
import { usageQuery, type Usage } from './queries';

const DAY_MS = 24 * 3600 * 1000;
/** The TTL of the logs, sessions, recordings and profiles tables; every other table keeps 90 days. */
export const SHORT_TABLE_DAYS = 30;
export const LONG_TABLE_DAYS = 90;
/** A browser session's maximum duration (the spec's limits): a session began at most this long before any of its events. */
const SESSION_MAX_MS = 60 * 60 * 1000;

/** Days of telemetry the plan keeps. */
export const planKeptDays = (limits: Usage['limits']): number =>
  Math.max(1, limits.retention_days_hot + limits.retention_days_warm);

export interface Kept {
  days: number;
  /** The plan is what bounds it (else the table's TTL, which a plan that keeps more cannot lengthen). */
  byPlan: boolean;
}

/** How long sessions (and their recordings) are kept under a plan keeping `planDays`. */
export const sessionsKept = (planDays: number): Kept => ({
  days: Math.min(planDays, SHORT_TABLE_DAYS),
  byPlan: planDays <= SHORT_TABLE_DAYS,
});

/** The plan's days for the current project's organization; undefined until the usage answer is in. */
export function usePlanKeptDays(): number | undefined {
  const { project } = useCurrentProject();
  const usage = useQuery(usageQuery(project?.organizationId));
  return usage.data ? planKeptDays(usage.data.limits) : undefined;
}

/** "14 days", "1 day". */
export const daysText = (days: number): string => `${days} day${days === 1 ? '' : 's'}`;

/**
 * Whether a session with an event at `eventAt` is past what is kept, judged from that event alone.
 * `certain` when the event itself is older (the session began before it); `likely` when only a
 * session as long as the longest one may have begun before: said only once its read answered 404.
 */
export function sessionPastKept(
  eventAt: string | null | undefined,
  kept: Kept | undefined,
  nowMs: number,
): 'certain' | 'likely' | false {
  const eventMs = eventAt ? Date.parse(eventAt) : Number.NaN;
  if (!kept || !Number.isFinite(eventMs)) return false;
  const keptFromMs = nowMs - kept.days * DAY_MS;
  if (eventMs < keptFromMs) return 'certain';
  return eventMs - SESSION_MAX_MS < keptFromMs ? 'likely' : false;
}

/** How long the current project's sessions are kept; undefined until the plan is known. */
export function useSessionsKept(): Kept | undefined {
  const planDays = usePlanKeptDays();
  return planDays === undefined ? undefined : sessionsKept(planDays);
}
