/**
 * The time zone every page writes times in (DASHBOARD.md §1.6): the organization's setting, put
 * here once by the shell when it is known (components/shell/app-shell.tsx), read by every
 * formatter (lib/format.ts, lib/time-range.ts) and by the charts (uPlot's `tzDate`). Until then, and
 * outside the signed-in shell, the browser's own zone. Only the display changes: time ranges and
 * the URL stay absolute instants.
 *
 * Pure (the React hook is lib/use-display-time-zone.ts), so the formatters are tested without a
 * browser or React (test/web).
 */
/** The zone this browser runs in ("UTC" when it cannot say). */
export function browserTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** True for a zone name this browser can format in (IANA names, "UTC"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone to display for an organization's setting: the setting when this browser knows it, else its own. */
export function resolveTimeZone(zone: string | null | undefined): string {
  return zone && isTimeZone(zone) ? zone : browserTimeZone();
}

/**
 * ICU's names for zones IANA has renamed, with the current name. ICU (so Chromium's and Node's
 * `Intl.supportedValuesOf('timeZone')`) lists only the old name — Asia/Calcutta, not Asia/Kolkata —
 * though both format. Found by resolving each zone of tzdata.zi that the list lacks (Node 20,
 * Chromium 156); the POSIX-style names (EST5EDT, CET…) and Etc/* are left out.
 */
export const RENAMED_ZONES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** The current IANA name of a zone ICU knows by an old one (Asia/Calcutta → Asia/Kolkata); other names as they are. */
export function currentZoneName(zone: string): string {
  return RENAMED_ZONES[zone] ?? zone;
}

/**
 * The zones a picker offers: UTC first, the stored value (even an old name, or one this browser
 * lacks, so it shows as saved), then the browser's list with old names replaced by current ones
 * (so Asia/Kolkata can be picked where the browser lists only Asia/Calcutta), sorted.
 */
export function pickableTimeZones(supported: readonly string[], stored: string): string[] {
  const current = [...new Set(supported.map(currentZoneName))].sort();
  return [...new Set(['UTC', stored, ...current])];
}

let current = browserTimeZone();
const listeners = new Set<() => void>();

export function displayTimeZone(): string {
  return current;
}

/** Sets the display zone (the organization's setting); an unknown name falls back to the browser's. */
export function setDisplayTimeZone(zone: string | null | undefined): void {
  const next = resolveTimeZone(zone);
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

export function subscribeTimeZone(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock reading of an instant in a zone. */
export function zonedParts(ms: number, zone: string = current): ZonedParts {
  let format = partFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormats.set(zone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

/** Minutes the zone is ahead of UTC at an instant (Asia/Kolkata: 330; America/New_York in winter: -300). */
export function zoneOffsetMinutes(ms: number, zone: string = current): number {
  const p = zonedParts(ms, zone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.millisecond);
  return Math.round((wall - ms) / 60_000);
}

/** "UTC+05:30", "UTC-04:00", "UTC" for no offset. */
export function formatOffset(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes < 0 ? '-' : '+';
  const value = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `UTC${sign}${pad(Math.floor(value / 60))}:${pad(value % 60)}`;
}

/**
 * What the time-range picker notes when the display zone runs at another offset than the browser
 * (DASHBOARD.md §1.6), or null when they agree: the zone, its offset and the browser's.
 */
export function zoneDifference(
  at: number = Date.now(),
  zone: string = current,
  browser: string = browserTimeZone(),
): { zone: string; offset: string; browserOffset: string } | null {
  const offset = zoneOffsetMinutes(at, zone);
  const browserOffset = zoneOffsetMinutes(at, browser);
  if (offset === browserOffset) return null;
  return { zone, offset: formatOffset(offset), browserOffset: formatOffset(browserOffset) };
}

/** `yyyy-MM-ddTHH:mm`, the wall clock of an instant in the zone: the value of an <input type="datetime-local">. */
export function toZonedInput(date: Date, zone: string = current): string {
  const p = zonedParts(date.getTime(), zone);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** The instant an <input type="datetime-local"> value names on the zone's wall clock; an invalid Date when it names none. */
export function fromZonedInput(value: string, zone: string = current): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  if (!match) return new Date(Number.NaN);
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const wall = Date.UTC(y!, mo! - 1, d!, h!, mi!, s || 0);
  // The offset at the guess, then at the corrected instant (they differ only next to a DST change).
  const first = wall - zoneOffsetMinutes(wall, zone) * 60_000;
  return new Date(wall - zoneOffsetMinutes(first, zone) * 60_000);
}

/**
 * Dates and times, all in the display time zone (the organization's: lib/time-zone.ts) and in one
 * style: month and day, a 24-hour clock, the year only when it is not this year —
 * "Nov 27, 21:35" in tables, "Nov 27, 21:35:12.733" where a page needs the precise instant.
 */
type Instant = string | number | Date;
type Precision = 'minute' | 'millisecond';

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(zone: string, precision: Precision, withYear: boolean): Intl.DateTimeFormat {
  const key = `${zone}|${precision}|${withYear}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, {
      timeZone: zone,
      hourCycle: 'h23',
      ...(withYear ? { year: 'numeric' } : {}),
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(precision === 'millisecond' ? { second: '2-digit', fractionalSecondDigits: 3 } : {}),
    });
    dateFormats.set(key, format);
  }
  return format;
}

/** An instant in the display zone at the given precision; the year only when it is not the current one. */
export function formatInZone(
  value: Instant,
  precision: Precision = 'minute',
  zone: string = displayTimeZone(),
  now: number = Date.now(),
): string {
  const ms = new Date(value).getTime();
  if (Number.isNaN(ms)) return '—';
  const withYear = zonedParts(ms, zone).year !== zonedParts(now, zone).year;
  return dateFormat(zone, precision, withYear).format(ms);
}

/** A timestamp from the API for a table cell ("Nov 27, 21:35"), or a dash when there is none. */
export function formatDateTime(value: Instant | null | undefined): string {
  return value === null || value === undefined || value === '' ? '—' : formatInZone(value, 'minute');
}

/** A timestamp to the millisecond ("Nov 27, 21:35:12.733"), for spans, logs and occurrences. */
export function formatPreciseTime(value: Instant | null | undefined): string {
  return value === null || value === undefined || value === '' ? '—' : formatInZone(value, 'millisecond');
}

const monthDayFormats = new Map<string, Intl.DateTimeFormat>();

/** "Nov 27": the day of an instant in the zone, as the other formats write it. */
export function formatMonthDay(ms: number, zone: string = current): string {
  let format = monthDayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, { timeZone: zone, month: 'short', day: 'numeric' });
    monthDayFormats.set(zone, format);
  }
  return format.format(ms);
}
