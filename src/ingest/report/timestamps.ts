/**
 * Strict RFC 3339 timestamps to exact nanoseconds.
 *
 * `Date.parse` keeps milliseconds only and accepts many non-RFC forms, so this is a hand-written
 * parser of the one form RFC 3339 section 5.6 allows: `YYYY-MM-DDTHH:MM:SS[.F{1,9}](Z|±HH:MM)`,
 * where `T` and `Z` may be lower case. Leap seconds (`:60`) are rejected, as Go's `time.Parse`
 * (the reference client's runtime) does.
 */
import type { UnixNanos } from '../../core/records.js';

const NANOS_PER_SECOND = 1_000_000_000n;
/** Powers of ten that scale a fraction of n digits to nanoseconds, indexed by n. */
const FRACTION_SCALE = [0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];

/**
 * The range of the telemetry tables' DateTime64(9) columns: from 1900-01-01T00:00:00Z to the
 * int64 nanosecond limit (2262-04-11T23:47:16.854775807Z). A value outside would fail the insert
 * of a whole batch, so it is rejected here with its record.
 */
const MIN_UNIX_SECONDS = -2_208_988_800;
const MAX_UNIX_NANOS = 9_223_372_036_854_775_807n;

const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const PLUS = 0x2b;
const UPPER_T = 0x54;
const LOWER_T = 0x74;
const UPPER_Z = 0x5a;
const LOWER_Z = 0x7a;

/** The timestamp as nanoseconds since the Unix epoch, or undefined if it is not RFC 3339. */
export function parseRfc3339Nanos(text: string): UnixNanos | undefined {
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (
    // digitsAt answers -1 for a non-digit, which makes the bitwise OR negative.
    (year | month | day | hour | minute | second) < 0 ||
    text.charCodeAt(4) !== DASH ||
    text.charCodeAt(7) !== DASH ||
    (text.charCodeAt(10) !== UPPER_T && text.charCodeAt(10) !== LOWER_T) ||
    text.charCodeAt(13) !== COLON ||
    text.charCodeAt(16) !== COLON ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return undefined;
  }

  let position = 19;
  let fractionNanos = 0;
  if (text.charCodeAt(position) === DOT) {
    const start = ++position;
    let fraction = 0;
    for (let code = text.charCodeAt(position); isDigit(code); code = text.charCodeAt(++position)) {
      fraction = fraction * 10 + (code - 48);
    }
    const fractionDigits = position - start;
    if (fractionDigits === 0 || fractionDigits > 9) return undefined;
    fractionNanos = fraction * (FRACTION_SCALE[fractionDigits] as number);
  }

  let offsetSeconds = 0;
  const zone = text.charCodeAt(position);
  if (zone === UPPER_Z || zone === LOWER_Z) {
    if (position + 1 !== text.length) return undefined;
  } else {
    const offsetHours = digitsAt(text, position + 1, 2);
    const offsetMinutes = digitsAt(text, position + 4, 2);
    if (
      (zone !== PLUS && zone !== DASH) ||
      text.charCodeAt(position + 3) !== COLON ||
      position + 6 !== text.length ||
      (offsetHours | offsetMinutes) < 0 ||
      offsetHours > 23 ||
      offsetMinutes > 59
    ) {
      return undefined;
    }
    offsetSeconds = (zone === PLUS ? 1 : -1) * (offsetHours * 3600 + offsetMinutes * 60);
  }

  const unixSeconds = daysSinceEpoch(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds;
  if (unixSeconds < MIN_UNIX_SECONDS) return undefined;
  const nanos = BigInt(unixSeconds) * NANOS_PER_SECOND + BigInt(fractionNanos);
  return nanos <= MAX_UNIX_NANOS ? nanos : undefined;
}

/** The decimal value of `count` digits at `start`, or -1 if any of them is not a digit. */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + (code - 48);
  }
  return value;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
