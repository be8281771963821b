/**
 * Axis helpers of the time-series chart, pure so they are tested without a browser
 * (test/web/chart-axes.test.ts).
 *
 * A duration axis writes every tick in one unit chosen from the axis's range, at round steps of
 * that unit (0, 30 s, 60 s, 90 s — not 0 ms, 50 s, 1.67 min), zero included ("0 s").
 *
 * A time axis reads on the organization's wall clock (lib/time-zone.ts), in the tables' style.
 */
import { formatMonthDay, zonedParts } from '../../lib/time-zone.js';

export interface DurationUnit {
  symbol: 'µs' | 'ms' | 's' | 'min' | 'h';
  /** Milliseconds in one of it. */
  ms: number;
  /** Round steps in this unit, smallest first. */
  steps: readonly number[];
}

/** Steps below one unit, for an axis that spans only a few of it (0, 0.5 s, 1 s, 1.5 s). */
const FRACTIONS = [0.1, 0.2, 0.5];

const UNITS: readonly DurationUnit[] = [
  { symbol: 'µs', ms: 0.001, steps: [1, 2, 5, 10, 20, 50, 100, 200, 500] },
  { symbol: 'ms', ms: 1, steps: [1, 2, 5, 10, 20, 50, 100, 200, 500] },
  { symbol: 's', ms: 1000, steps: [1, 2, 5, 10, 15, 20, 30, 60] },
  { symbol: 'min', ms: 60_000, steps: [1, 2, 5, 10, 15, 20, 30, 60] },
  {
    symbol: 'h',
    ms: 3_600_000,
    steps: [1, 2, 3, 6, 12, 24, 48, ...[1, 2, 5].flatMap((step) => [100, 1000, 10_000].map((power) => step * power))],
  },
];

/**
 * The unit of an axis whose values reach `maxAbsMs`: µs below 1 ms, ms below 1 s (never "1000 ms",
 * too wide for the axis), then the largest unit the axis spans at least twice (an axis up to 100 s
 * counts seconds — 0, 30 s, 60 s, 90 s —, one up to 5 min counts minutes).
 */
export function durationAxisUnit(maxAbsMs: number): DurationUnit {
  const reach = Number.isFinite(maxAbsMs) ? Math.abs(maxAbsMs) : 0;
  if (reach === 0) return UNITS[1]!;
  if (reach < 1) return UNITS[0]!;
  if (reach < 1000) return UNITS[1]!;
  for (let index = UNITS.length - 1; index > 2; index--) if (reach >= 2 * UNITS[index]!.ms) return UNITS[index]!;
  return UNITS[2]!;
}

/** uPlot's candidate tick steps (milliseconds) for an axis from `min` to `max`: round numbers of its unit. */
export function durationIncrements(min: number, max: number): number[] {
  const unit = durationAxisUnit(Math.max(Math.abs(min), Math.abs(max)));
  return [...FRACTIONS, ...unit.steps].map((step) => step * unit.ms);
}

/** A tick of a duration axis in the axis's unit: "0 s", "30 s", "1.5 min". */
export function formatDurationTick(ms: number, unit: DurationUnit): string {
  // toPrecision drops the float noise of step multiples (0.1 + 0.2); `|| 0` turns -0 into 0.
  const value = Number((ms / unit.ms).toPrecision(12)) || 0;
  return `${value} ${unit.symbol}`;
}

/** The ticks of a duration axis whose scale runs from `min` to `max`, all in the same unit. */
export function durationTickLabels(ticks: readonly number[], min: number, max: number): string[] {
  const unit = durationAxisUnit(Math.max(Math.abs(min), Math.abs(max)));
  return ticks.map((tick) => formatDurationTick(tick, unit));
}

/**
 * The labels of a time axis (ticks in epoch seconds, `step` seconds apart), on the wall clock of
 * `zone` (the organization's) and in the style of the tables: a 24-hour clock ("21:30", with
 * seconds below a minute's step), the date under the first tick and under each tick of a new day
 * ("21:30\nNov 27"); day steps and longer write the date alone ("Nov 27").
 */
export function timeTickLabels(ticks: readonly number[], step: number, zone: string): string[] {
  const pad = (n: number) => String(n).padStart(2, '0');
  let previousDay = '';
  return ticks.map((tick) => {
    const p = zonedParts(tick * 1000, zone);
    const date = formatMonthDay(tick * 1000, zone);
    if (step >= 86_400) return date;
    const time = `${pad(p.hour)}:${pad(p.minute)}${step < 60 ? `:${pad(p.second)}` : ''}`;
    const day = `${p.year}-${p.month}-${p.day}`;
    const newDay = day !== previousDay;
    previousDay = day;
    return newDay ? `${time}\n${date}` : time;
  });
}
