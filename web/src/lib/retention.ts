/**
 * How long the service keeps telemetry, as the dashboard tells it: the organization's plan
 * (GET /api/billing/usage, hot + warm days, at least one: src/core/plans.ts keptDays), within the
 * tables' own TTLs as the engine has them (the same answer's `tableRetentionDays`: an operator may
 * have changed one, docs/OPERATIONS.md §6). Reads answer nothing older
 * (src/api/telemetry/conventions.ts readClockOf), so a page linking to an older session says so
 * instead of leading to a "not found".
 */
import { useQuery } from '@tanstack/react-query';
import { useCurrentProject } from './current-project';
import { usageQuery, type Usage } from './queries';

const DAY_MS = 24 * 3600 * 1000;
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

/**
 * How long a table keeps a row under a plan keeping `planDays`: the plan's days within the table's
 * TTL (`tableDays`; null when it has none the service can read, so only the plan bounds it).
 */
export const tableKept = (planDays: number, tableDays: number | null): Kept =>
  tableDays === null || planDays <= tableDays ? { days: planDays, byPlan: true } : { days: tableDays, byPlan: false };

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

export interface SessionsKept {
  /** How long the current project's sessions (and their recordings) are kept; undefined until known. */
  kept: Kept | undefined;
  /** The usage answer that tells it is still on its way: a page waits for it before calling a session "not found". */
  pending: boolean;
}

export function useSessionsKept(): SessionsKept {
  const { project } = useCurrentProject();
  const usage = useQuery(usageQuery(project?.organizationId));
  return {
    kept: usage.data ? tableKept(planKeptDays(usage.data.limits), usage.data.tableRetentionDays.sessions) : undefined,
    pending: usage.isPending,
  };
}
