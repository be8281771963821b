import { describe, expect, it } from 'vitest';
import { parseIsoInstant } from './instants.js';

describe('parseIsoInstant', () => {
  it.each([
    ['2024-01-01T00:00:00.000Z', Date.UTC(2024, 0, 1)],
    ['2024-02-29T10:00:00Z', Date.UTC(2024, 1, 29, 10)],
    ['2024-06-30T23:59:59+02:00', Date.UTC(2024, 5, 30, 21, 59, 59)],
    ['2024-01-01', Date.UTC(2024, 0, 1)],
  ])('reads %s', (text, ms) => {
    expect(parseIsoInstant(text)).toBe(ms);
  });

  // Date.parse reads the first three as other days (March 1, March 1, January 2): no longer taken.
  it.each([
    '2024-02-30T10:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-06-31',
    '2024-13-01T00:00:00Z',
    '2024-01-01T10:60:00Z',
    'not-a-date',
    '1700000000000',
    '2024-01-01 garbage',
    '',
  ])('refuses %s', (text) => {
    expect(parseIsoInstant(text)).toBeNull();
  });
});
