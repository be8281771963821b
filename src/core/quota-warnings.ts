/**
 * Warnings before and when the monthly ingest quota pauses ingest: which thresholds an
 * organization's usage has crossed, and the mail its admins get. Pure: no store, no clock.
 */

/** Percents of the plan's monthly ingest at which admins are told; 100 is when ingest pauses. */
export const QUOTA_WARNING_PERCENTS = [80, 100] as const;

const BYTES_PER_GB = 1_000_000_000;

/** The warning thresholds `usedBytes` has reached, lowest first (none for an unlimited plan). */
export function crossedPercents(usedBytes: number, limitBytes: number): number[] {
  if (!(limitBytes > 0)) return [];
  return QUOTA_WARNING_PERCENTS.filter((percent) => usedBytes * 100 >= limitBytes * percent);
}

export interface QuotaWarning {
  organizationName: string;
  /** The highest threshold crossed: the one the mail is about. */
  percent: number;
  usedBytes: number;
  limitBytes: number;
  /** `YYYY-MM`, UTC. */
  month: string;
  /** The organization's settings page, where the plan and usage are. */
  settingsUrl: string;
}

export function quotaWarningMail(warning: QuotaWarning): { subject: string; text: string } {
  const used = `${formatGb(warning.usedBytes)} of ${formatGb(warning.limitBytes)}`;
  const paused = warning.percent >= 100;
  const subject = paused
    ? `Ingest paused for ${warning.organizationName}: monthly quota used`
    : `${warning.organizationName} has used ${warning.percent}% of its monthly ingest quota`;
  const consequence = paused
    ? 'Sightline is refusing new telemetry from its projects (503 with Retry-After) until the month ends (UTC) or the plan grows. Clients keep their queued data and retry.'
    : 'When it reaches 100%, Sightline refuses new telemetry from its projects until the month ends (UTC) or the plan grows.';
  return {
    subject,
    text: [
      `The organization ${warning.organizationName} has sent ${used} of ingest in ${warning.month} (UTC), ${paused ? 'all' : `${warning.percent}%`} of its plan's monthly quota.`,
      '',
      consequence,
      '',
      `Plan and usage: ${warning.settingsUrl}`,
      '',
      'You receive this because you are an admin of the organization.',
    ].join('\n'),
  };
}

function formatGb(bytes: number): string {
  const gb = bytes / BYTES_PER_GB;
  return `${gb >= 10 ? gb.toFixed(0) : gb.toFixed(2)} GB`;
}
