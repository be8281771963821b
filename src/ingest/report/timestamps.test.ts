import { describe, expect, it } from 'vitest';
import { parseRfc3339Nanos } from './timestamps.js';

/** 2024-05-01T10:00:00Z in nanoseconds. */
const MAY_FIRST = 1_714_557_600_000_000_000n;
const HOUR = 3_600_000_000_000n;

describe('parseRfc3339Nanos', () => {
  it.each([
    ['2024-05-01T10:00:00Z', MAY_FIRST],
    ['2024-05-01T10:00:00.123456789Z', MAY_FIRST + 123_456_789n],
    ['2024-05-01T10:00:00.000000001Z', MAY_FIRST + 1n],
    ['2024-05-01T10:00:00.1Z', MAY_FIRST + 100_000_000n],
    ['2024-05-01T10:00:00.123Z', MAY_FIRST + 123_000_000n],
    ['2024-05-01T10:00:00.123456Z', MAY_FIRST + 123_456_000n],
    ['2024-05-01T12:00:00.123456789+02:00', MAY_FIRST + 123_456_789n],
    ['2024-05-01T05:30:00-04:30', MAY_FIRST],
    ['2024-05-01T10:00:00-00:00', MAY_FIRST],
    ['2024-05-01T10:00:00+00:00', MAY_FIRST],
    ['2024-05-01t10:00:00z', MAY_FIRST],
    ['2024-05-02T09:59:00+23:59', MAY_FIRST],
    ['1970-01-01T00:00:00Z', 0n],
    ['1969-12-31T23:59:59.999999999Z', -1n],
    ['2000-02-29T00:00:00Z', 951_782_400_000_000_000n],
    ['1900-01-01T00:00:00Z', -2_208_988_800_000_000_000n],
    ['2262-04-11T23:47:16.854775807Z', 9_223_372_036_854_775_807n],
  ])('%s', (text, expected) => {
    expect(parseRfc3339Nanos(text)).toBe(expected);
  });

  it('keeps every nanosecond digit across offsets', () => {
    const utc = MAY_FIRST + 987_654_321n;
    expect(parseRfc3339Nanos('2024-05-01T10:00:00.987654321Z')).toBe(utc);
    expect(parseRfc3339Nanos('2024-05-01T12:00:00.987654321+02:00')).toBe(utc);
    expect(parseRfc3339Nanos('2024-05-01T07:00:00.987654321-03:00')).toBe(utc);
    expect(parseRfc3339Nanos('2024-05-01T11:00:00.987654321Z')).toBe(utc + HOUR);
  });

  it.each([
    ['empty', ''],
    ['date only', '2024-05-01'],
    ['no zone', '2024-05-01T10:00:00'],
    ['space separator', '2024-05-01 10:00:00Z'],
    ['ten fraction digits', '2024-05-01T10:00:00.1234567890Z'],
    ['dot without digits', '2024-05-01T10:00:00.Z'],
    ['comma fraction', '2024-05-01T10:00:00,5Z'],
    ['offset without colon', '2024-05-01T10:00:00+0200'],
    ['offset hours only', '2024-05-01T10:00:00+02'],
    ['offset hour 24', '2024-05-01T10:00:00+24:00'],
    ['offset minute 60', '2024-05-01T10:00:00+01:60'],
    ['trailing text', '2024-05-01T10:00:00Zx'],
    ['trailing text after offset', '2024-05-01T10:00:00+02:00 '],
    ['leading space', ' 2024-05-01T10:00:00Z'],
    ['month 13', '2024-13-01T10:00:00Z'],
    ['month 0', '2024-00-01T10:00:00Z'],
    ['day 0', '2024-05-00T10:00:00Z'],
    ['April 31', '2024-04-31T10:00:00Z'],
    ['February 29 of a common year', '2023-02-29T10:00:00Z'],
    ['February 29 of 1900', '1900-02-29T10:00:00Z'],
    ['hour 24', '2024-05-01T24:00:00Z'],
    ['minute 60', '2024-05-01T10:60:00Z'],
    ['leap second', '2016-12-31T23:59:60Z'],
    ['short year', '24-05-01T10:00:00Z'],
    ['signed digits', '2024-+5-01T10:00:00Z'],
    ['slashes', '2024/05/01T10:00:00Z'],
    ['before 1900', '1899-12-31T23:59:59Z'],
    ['Go zero time', '0001-01-01T00:00:00Z'],
    ['after the int64 nanosecond range', '2262-04-11T23:47:16.854775808Z'],
    ['year 9999', '9999-12-31T23:59:59Z'],
    ['Unix seconds', '1714557600'],
  ])('rejects %s', (_case, text) => {
    expect(parseRfc3339Nanos(text)).toBeUndefined();
  });

  it('agrees with Date.parse to the millisecond over many instants', () => {
    for (let ms = -2_000_000_000_000; ms < 9_000_000_000_000; ms += 123_456_789_123) {
      const iso = new Date(ms).toISOString();
      expect(parseRfc3339Nanos(iso)).toBe(BigInt(ms) * 1_000_000n);
    }
  });
});
