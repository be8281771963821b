import { displayTimeZone, formatDateTime, fromZonedInput, toZonedInput } from './time-zone.js';

/**
 * The time range of every telemetry page, kept in the URL (`range=24h`, or `from` and `to` as
 * ISO timestamps for a custom range) so a reload or a pasted link shows the same window.
 */
export const PRESETS = [
  { value: '15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { value: '1h', label: 'Last hour', ms: 60 * 60_000 },
  { value: '6h', label: 'Last 6 hours', ms: 6 * 60 * 60_000 },
  { value: '24h', label: 'Last 24 hours', ms: 24 * 60 * 60_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 24 * 60 * 60_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 24 * 60 * 60_000 },
] as const;

export type Preset = (typeof PRESETS)[number]['value'];

/** The API's own default window (fromDate/toDate default to the last 24 h). */
export const DEFAULT_PRESET: Preset = '24h';

/** The longest range the read API answers (src/api/telemetry/conventions.ts, MAX_RANGE_MS): longer is a 400 on every page. */
export const MAX_RANGE_DAYS = 31;

export interface RangeSearch {
  range?: Preset;
  from?: string;
  to?: string;
}

const isPreset = (value: unknown): value is Preset => PRESETS.some((preset) => preset.value === value);
/** An instant the URL can carry: an ISO-style date (a bare number is not one). */
const instantOf = (value: unknown): number | undefined => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
};

/**
 * Keeps only a well-formed range from the query string; anything else falls back to the default.
 * Every key is returned (undefined when unusable): the router merges the raw query string under
 * what a validator returns, so an omitted key would let the raw value through. A custom range
 * given backwards (from after to) is turned round; an empty one is dropped.
 */
export function parseRange(search: Record<string, unknown>): RangeSearch {
  const from = instantOf(search.from);
  const to = instantOf(search.to);
  if (from !== undefined && to !== undefined && from !== to) {
    const [start, end] = from < to ? [search.from, search.to] : [search.to, search.from];
    return { range: undefined, from: start as string, to: end as string };
  }
  return { range: isPreset(search.range) ? search.range : undefined, from: undefined, to: undefined };
}

export interface ResolvedRange {
  from: Date;
  to: Date;
  label: string;
  custom: boolean;
}

export function resolveRange(search: RangeSearch, now: number = Date.now()): ResolvedRange {
  if (search.from !== undefined && search.to !== undefined) {
    const from = new Date(search.from);
    const to = new Date(search.to);
    return { from, to, label: `${formatInstant(from)} – ${formatInstant(to)}`, custom: true };
  }
  const preset = PRESETS.find((p) => p.value === (search.range ?? DEFAULT_PRESET)) ?? PRESETS[3];
  return { from: new Date(now - preset.ms), to: new Date(now), label: preset.label, custom: false };
}

/** An end of a custom range, as the tables write dates (in the organization's time zone). */
export function formatInstant(date: Date): string {
  return formatDateTime(date);
}

/** `yyyy-MM-ddTHH:mm` on the display zone's wall clock, the value of an <input type="datetime-local">. */
export function toLocalInput(date: Date): string {
  return toZonedInput(date, displayTimeZone());
}

/** The instant an <input type="datetime-local"> value names on the display zone's wall clock. */
export function fromLocalInput(value: string): Date {
  return fromZonedInput(value, displayTimeZone());
}
