// Dates and times: in the organization's time zone, one style (lib/time-zone.ts).
export { formatDateTime, formatInZone, formatPreciseTime } from './time-zone.js';

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

/** Bytes in decimal units (the plans' ingest limit is in GB of 10⁹ bytes). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

/** A duration in milliseconds, humanized (DASHBOARD.md §1.6): µs, ms, s, min, h. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const sign = ms < 0 ? '-' : '';
  const value = Math.abs(ms);
  if (value === 0) return '0 ms';
  if (value < 1) return `${sign}${trim(value * 1000)} µs`;
  if (value < 1000) return `${sign}${trim(value)} ms`;
  if (value < 60_000) return `${sign}${trim(value / 1000)} s`;
  if (value < 3_600_000) return `${sign}${trim(value / 60_000)} min`;
  return `${sign}${trim(value / 3_600_000)} h`;
}

/** Three significant figures at most, no trailing zeros: 1.25, 12.5, 125. */
function trim(value: number): string {
  return String(Number(value.toPrecision(value >= 100 ? String(Math.round(value)).length : 3)));
}

/** A count for a figure or a cell: 1234 → "1,234"; `short` gives "1.2K". */
export function formatCount(value: number | null | undefined, short = false): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return short && Math.abs(value) >= 10_000 ? compact.format(value) : whole.format(value);
}

// The dashboard and the CLI show percentages and costs alike.
export { formatCost, formatPercent } from '@sightline/api-client';

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "5 min ago", "in 2 h": the age of a timestamp relative to now. */
export function formatRelative(value: string | number | Date | null | undefined, now: number = Date.now()): string {
  if (value === null || value === undefined) return '—';
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 30],
    ['month', 12],
    ['year', Number.POSITIVE_INFINITY],
  ];
  let amount = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return relative.format(Math.round(amount), 'year');
}
