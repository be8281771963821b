/**
 * `--since 1h|24h|7d` (before now, or before `--to`) or `--from/--to`, as the read API's fromDate/toDate. Every range is checked
 * here, before anything is asked of the service, against what the service answers (timeRangeOf in
 * src/api/telemetry/conventions.ts): a range that is not empty, from 1970 to 9999 (ISO 8601 with a
 * four-digit year), at most 31 days long. A bad one is a usage error naming the flags given.
 */
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

export const DAY_MS = UNIT_MS.d;
/** The longest range the service answers (MAX_RANGE_MS of src/api/telemetry/conventions.ts). */
export const MAX_RANGE_MS = 31 * DAY_MS;
/** The times the service reads: ISO 8601 with a four-digit year, and none before 1970. */
const EARLIEST_MS = 0;
const LATEST_MS = Date.UTC(10_000, 0, 1) - 1;

/** A duration of at most 31 days (the longest range), zero included; `flag` names it in errors. */
export function parseDuration(text: string, flag = '--since'): number {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  if (!match) throw usageError(`${flag} "${text}" is not a duration`, 'use a number and a unit: 30m, 1h, 24h, 7d');
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (!(ms <= MAX_RANGE_MS))
    throw usageError(
      `${flag} "${text}" is longer than 31 days, the longest range the service answers`,
      'use at most 31d; --from and --to pick an older period',
    );
  return ms;
}

/** A date and time without a zone, as the tables show times ("2026-11-26 21:25:03"). */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

/** An ISO 8601 time; one without a zone is UTC, as the tables show times (JavaScript would read it as local time). */
function parseTime(text: string, flag: string): number {
  const zoneless = ZONELESS.exec(text.trim());
  const ms = Date.parse(zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : text);
  if (Number.isNaN(ms)) throw usageError(`${flag} "${text}" is not a time`, 'use ISO 8601, e.g. 2025-01-31T12:00:00Z');
  if (ms < EARLIEST_MS || ms > LATEST_MS)
    throw usageError(`${flag} "${text}" is out of range`, 'use a time from 1970 to 9999');
  return ms;
}

export function resolveRange(options: TimeOptions, defaultSince = '24h', now = Date.now()): TimeRange {
  // --since with --to is the duration before --to; with --from the range would be given twice.
  if (options.since !== undefined && options.from !== undefined)
    throw usageError(
      '--since cannot be combined with --from',
      'use --since alone (up to now) or with --to (the duration before it), or --from with --to',
    );
  const to = options.to !== undefined ? parseTime(options.to, '--to') : now;
  const toText = options.to !== undefined ? '--to' : 'now (the default --to)';
  let from: number;
  if (options.from !== undefined) {
    from = parseTime(options.from, '--from');
    if (from >= to) throw usageError(`the range is empty: --from must be before ${toText}`);
    if (to - from > MAX_RANGE_MS)
      throw usageError(
        `the range from --from to ${toText} is longer than 31 days, the longest range the service answers`,
        'narrow --from/--to to 31 days at most',
      );
  } else {
    const since = options.since ?? defaultSince;
    const duration = parseDuration(since);
    if (duration === 0)
      throw usageError(`--since "${since}" is an empty range`, 'use a duration above zero: 30m, 1h, 24h, 7d');
    from = to - duration;
    if (from < EARLIEST_MS)
      throw usageError(`the range starts before 1970 (${since} before ${toText})`, 'use a later --to');
  }
  return { fromDate: new Date(from).toISOString(), toDate: new Date(to).toISOString() };
}

/** The length of a resolved range, in milliseconds. */
export const rangeMs = (range: TimeRange): number => Date.parse(range.toDate) - Date.parse(range.fromDate);
