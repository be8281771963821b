/**
 * A rule's condition in words, for the rules table, and the log severities the rule dialog offers.
 * The words are the rule dialog's (rule-dialog.tsx PARAM_FIELDS), so a row reads like its form.
 */
import { SEVERITY_LEVELS, severityLevelOf } from '@/lib/severity';
import type { AlertRule } from './types';

/** ERROR for 17, WARN2 (14) for 14: OpenTelemetry's short names, the number shown when it is not a level's first. */
export function severityName(severity: number): string {
  const level = severityLevelOf(severity);
  if (!level) return String(severity);
  return level.value === severity ? level.name : `${level.name}${severity - level.value + 1} (${severity})`;
}

/** The options of the minimum-severity select: none, the levels, and a stored number that is no level's first. */
export function severityOptions(current: string | undefined): Array<{ value: string; label: string }> {
  const stored = current ? Number(current) : undefined;
  return [
    { value: '', label: 'Any' },
    ...SEVERITY_LEVELS.map((level) => ({ value: String(level.value), label: level.name })),
    ...(stored !== undefined && !SEVERITY_LEVELS.some((level) => level.value === stored)
      ? [{ value: String(stored), label: severityName(stored) }]
      : []),
  ].sort((a, b) => (a.value === '' ? -1 : b.value === '' ? 1 : Number(a.value) - Number(b.value)));
}

/** A reminder interval in words: "1 hour", "4 hours", "90 minutes". */
export function intervalLabel(seconds: number): string {
  const [count, unit] = seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : [Math.round(seconds / 60), 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The rule's reminders in words, for a threshold rule ("remind every 4 hours"); null for an event rule. */
export function ruleReminder(rule: Pick<AlertRule, 'kind' | 'repeatIntervalSeconds'>): string | null {
  if (rule.kind === 'new_issue' || rule.kind === 'regression') return null;
  return rule.repeatIntervalSeconds === null
    ? 'no reminders'
    : `remind every ${intervalLabel(rule.repeatIntervalSeconds)}`;
}

const COMPARATOR_SYMBOLS: Record<string, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤' };

/** What the rule watches, in one line: "p95 above 500 ms in 5 min · GET /api/orders". */
export function ruleCondition(rule: Pick<AlertRule, 'kind' | 'params'>): string {
  const p = rule.params as Record<string, unknown>;
  const window = `in ${p.windowMinutes ?? 5} min`;
  const parts = (...items: Array<string | false | null | undefined>) => items.filter(Boolean).join(' · ');
  switch (rule.kind) {
    case 'new_issue':
      return 'Any issue seen for the first time';
    case 'regression':
      return 'Any resolved issue occurring again';
    case 'issue_frequency':
      return parts(`Occurrences at least ${p.threshold} ${window}`, p.hash ? `issue ${p.hash}` : 'any issue');
    case 'endpoint_latency':
      return parts(`${p.percentile} above ${p.thresholdMs} ms ${window}`, (p.endpoint as string) ?? 'all endpoints');
    case 'error_rate':
      return parts(
        `Error rate above ${p.thresholdPercent}% ${window}`,
        (p.endpoint as string) ?? 'all endpoints',
        typeof p.minRequests === 'number' && `minimum ${p.minRequests} requests`,
      );
    case 'metric_threshold':
      return `${p.aggregation}(${p.metric}) ${COMPARATOR_SYMBOLS[p.comparator as string] ?? p.comparator} ${p.threshold} ${window}`;
    case 'log_match':
      return parts(
        `Matching lines at least ${p.threshold} ${window}`,
        typeof p.search === 'string' && `text “${p.search}”`,
        typeof p.minSeverity === 'number' && `severity ${severityName(p.minSeverity)} or above`,
        typeof p.serviceName === 'string' && `service ${p.serviceName}`,
      );
  }
  return rule.kind;
}
