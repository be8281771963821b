/** `--since 1h|24h|7d` or `--from/--to`, as the read API's fromDate/toDate. */
import { usageError } from './errors.js';

export interface TimeOptions {
  since?: string;
  from?: string;
  to?: string;
}

export interface TimeRange {
  fromDate: string;
  toDate: string;
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function parseDuration(text: string): number {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  if (!match) throw usageError(`"${text}" is not a duration`, 'use a number and a unit: 30m, 1h, 24h, 7d');
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** A date and time without a zone, as the tables show times ("2026-11-26 21:25:03"). */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

/** An ISO 8601 time; one without a zone is UTC, as the tables show times (JavaScript would read it as local time). */
function parseTime(text: string, flag: string): number {
  const zoneless = ZONELESS.exec(text.trim());
  const ms = Date.parse(zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : text);
  if (Number.isNaN(ms)) throw usageError(`${flag} "${text}" is not a time`, 'use ISO 8601, e.g. 2025-01-31T12:00:00Z');
  return ms;
}

export function resolveRange(options: TimeOptions, defaultSince = '24h', now = Date.now()): TimeRange {
  if (options.since !== undefined && (options.from !== undefined || options.to !== undefined)) {
    throw usageError('--since cannot be combined with --from/--to');
  }
  const to = options.to !== undefined ? parseTime(options.to, '--to') : now;
  const from =
    options.from !== undefined ? parseTime(options.from, '--from') : to - parseDuration(options.since ?? defaultSince);
  if (from >= to) throw usageError('the range is empty: --from must be before --to');
  return { fromDate: new Date(from).toISOString(), toDate: new Date(to).toISOString() };
}
