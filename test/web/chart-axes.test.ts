/**
 * The chart's axis helpers (web/src/components/charts/axes.ts): a duration axis counts in one unit
 * chosen from its range, at round steps of it, zero included; a time label that would reach past
 * the canvas is dropped, not cut.
 */
import { describe, expect, it } from 'vitest';
import { durationAxisUnit, durationIncrements, durationTickLabels } from '../../web/src/components/charts/axes.js';

/** The ticks uPlot draws: multiples of the smallest step that leaves `space` px between ticks. */
function ticks(min: number, max: number, heightPx: number, space = 30): number[] {
  const step = durationIncrements(min, max).find((incr) => (incr / (max - min)) * heightPx >= space)!;
  const out: number[] = [];
  for (let value = Math.ceil(min / step) * step; value <= max; value += step) out.push(value);
  return out;
}

describe('duration axis', () => {
  it('writes every tick of an axis in one unit, zero included', () => {
    // Endpoints' stacked total time, up to 1.67 min (the walkthrough's "0 ms / 50 s / 1.67 min").
    const max = 100_000 * 1.08;
    expect(durationTickLabels(ticks(0, max, 160), 0, max)).toEqual(['0 s', '30 s', '60 s', '90 s']);
    // A task's latency up to 1.25 min ("0 ms / 25 s / 50 s / 1.25 min").
    const tasks = 75_000 * 1.08;
    expect(durationTickLabels(ticks(0, tasks, 160), 0, tasks)).toEqual(['0 s', '20 s', '40 s', '60 s', '80 s']);
    // Several minutes count minutes.
    expect(durationTickLabels(ticks(0, 5.4 * 60_000, 160), 0, 5.4 * 60_000)).toEqual(['0 min', '2 min', '4 min']);
    expect(durationTickLabels(ticks(0, 5.4 * 60_000, 300), 0, 5.4 * 60_000)).toEqual([
      '0 min',
      '1 min',
      '2 min',
      '3 min',
      '4 min',
      '5 min',
    ]);
  });

  it('picks the unit from the range: µs below 1 ms, ms below 1 s, s below 2 min, min below 2 h', () => {
    expect(durationAxisUnit(0.4).symbol).toBe('µs');
    expect(durationAxisUnit(0).symbol).toBe('ms');
    expect(durationAxisUnit(950).symbol).toBe('ms');
    // "1000 ms" and "1500 ms" are too wide for the axis: seconds from 1 s.
    expect(durationAxisUnit(1_080).symbol).toBe('s');
    expect(durationAxisUnit(2_000).symbol).toBe('s');
    expect(durationAxisUnit(119_000).symbol).toBe('s');
    expect(durationAxisUnit(120_000).symbol).toBe('min');
    expect(durationAxisUnit(3 * 3_600_000).symbol).toBe('h');
  });

  it('steps in round numbers, fractions of the unit only on a short axis', () => {
    const latency = 540;
    expect(durationTickLabels(ticks(0, latency, 160), 0, latency)).toEqual(['0 ms', '200 ms', '400 ms']);
    const short = 3_000 * 1.08;
    expect(durationTickLabels(ticks(0, short, 160), 0, short)).toEqual(['0 s', '1 s', '2 s', '3 s']);
    expect(durationTickLabels(ticks(0, short, 300), 0, short)).toEqual([
      '0 s',
      '0.5 s',
      '1 s',
      '1.5 s',
      '2 s',
      '2.5 s',
      '3 s',
    ]);
    // An endpoint's latency just over a second: seconds, not "1000 ms".
    const second = 1_050 * 1.08;
    expect(durationTickLabels(ticks(0, second, 160), 0, second)).toEqual(['0 s', '0.5 s', '1 s']);
    // Float noise of step multiples does not reach the label.
    expect(durationTickLabels([0.1 * 3 * 1000], 0, 3_000)).toEqual(['0.3 s']);
    expect(durationTickLabels([-0], 0, 3_000)).toEqual(['0 s']);
  });
});
