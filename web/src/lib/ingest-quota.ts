/** The monthly ingest quota as the dashboard tells it: the limit, whether ingest is paused, until when. */
import type { Usage } from './queries';

const BYTES_PER_GB = 1_000_000_000;

/** The monthly ingest limit in bytes (the plan counts decimal gigabytes, as the service does). */
export const ingestLimitBytes = (usage: Usage) => usage.limits.ingest_gb_monthly * BYTES_PER_GB;

/**
 * When ingest is paused for the month (the counters reached the plan's limit: every ingest route
 * answers 503), the start of the next UTC month, when it resumes; null while ingest is open.
 */
export function ingestPausedUntil(usage: Usage, now: Date = new Date()): Date | null {
  if (usage.counters.ingest_bytes < ingestLimitBytes(usage)) return null;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** What a paused ingest means for the person reading it, and when it ends (after "Ingest is paused"). */
export function ingestPausedDetail(until: Date): string {
  const day = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(until);
  return `this month's ingest limit is reached, so data sent now is refused (503) until ${day} (UTC) or a plan with a higher limit.`;
}
