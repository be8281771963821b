import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paintIntervals } from './painter.js';

/** The owner of every address by brute force: the highest-index interval covering it. */
function ownerAt(low: number[], high: number[], pc: number): number {
  for (let i = low.length - 1; i >= 0; i--) if (low[i]! <= pc && pc < high[i]!) return i;
  return -1;
}

describe('paintIntervals', () => {
  it('gives every address to the highest-index interval covering it', () => {
    const interval = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 20 }));
    fc.assert(
      fc.property(fc.array(interval, { maxLength: 30 }), (intervals) => {
        const low = intervals.map(([start]) => start);
        const high = intervals.map(([start, length]) => start + length);
        const painted = paintIntervals(low, high);
        for (let i = 1; i < painted.start.length; i++)
          expect(painted.start[i]).toBeGreaterThanOrEqual(painted.end[i - 1]!);
        for (let pc = 0; pc < 82; pc++) {
          const segment = painted.start.findIndex((start, i) => start <= pc && pc < painted.end[i]!);
          expect(segment < 0 ? -1 : painted.owner[segment]).toBe(ownerAt(low, high, pc));
        }
      }),
    );
  });

  it('merges adjacent pieces of one owner', () => {
    expect(paintIntervals([0, 4, 6], [10, 6, 8])).toEqual({
      start: [0, 4, 6, 8],
      end: [4, 6, 8, 10],
      owner: [0, 1, 2, 0],
    });
    expect(paintIntervals([0, 2], [10, 2])).toEqual({ start: [0], end: [10], owner: [0] });
  });
});
