import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, formatInstantInZone, isTimeZone, timeZoneOrUtc } from './time-zones.js';

describe('formatInstantInZone', () => {
  const at = new Date('2026-11-28T20:13:04.120Z');

  it('writes UTC as UTC, to the minute or the second', () => {
    expect(formatInstantInZone(at, 'UTC')).toBe('Nov 28, 2026, 20:13 UTC');
    expect(formatInstantInZone(at, 'UTC', 'second')).toBe('Nov 28, 2026, 20:13:04 UTC');
    // Aliases of UTC read the same, not "(Etc/UTC, UTC+00:00)".
    expect(formatInstantInZone(at, 'Etc/UTC')).toBe('Nov 28, 2026, 20:13 UTC');
  });

  it("names the zone and its offset; the day is the zone's", () => {
    expect(formatInstantInZone(at, 'Europe/Berlin')).toBe('Nov 28, 2026, 21:13 (Europe/Berlin, UTC+01:00)');
    expect(formatInstantInZone(at, 'America/New_York', 'second')).toBe(
      'Nov 28, 2026, 15:13:04 (America/New_York, UTC-05:00)',
    );
    // Past midnight in Tokyo: the 29th.
    expect(formatInstantInZone(at, 'Asia/Tokyo')).toBe('Nov 29, 2026, 05:13 (Asia/Tokyo, UTC+09:00)');
    // A zone at UTC's time that is not UTC keeps its name.
    expect(formatInstantInZone(at, 'Europe/London')).toBe('Nov 28, 2026, 20:13 (Europe/London, UTC+00:00)');
  });

  it('writes a half-hour zone by its current name (ICU knows Asia/Kolkata as Asia/Calcutta)', () => {
    expect(formatInstantInZone(at, 'Asia/Kolkata')).toBe('Nov 29, 2026, 01:43 (Asia/Kolkata, UTC+05:30)');
    expect(formatInstantInZone(new Date('2026-06-01T18:29:59Z'), 'Asia/Kolkata', 'second')).toBe(
      'Jun 1, 2026, 23:59:59 (Asia/Kolkata, UTC+05:30)',
    );
  });

  it('tells the two 02:30 of the night the clocks go back apart by their offset, and skips the hour they go forward', () => {
    // Berlin, Oct 25 2026: 03:00 CEST becomes 02:00 CET, so 02:30 happens twice.
    expect(formatInstantInZone(new Date('2026-10-25T00:30:00Z'), 'Europe/Berlin')).toBe(
      'Oct 25, 2026, 02:30 (Europe/Berlin, UTC+02:00)',
    );
    expect(formatInstantInZone(new Date('2026-10-25T01:30:00Z'), 'Europe/Berlin')).toBe(
      'Oct 25, 2026, 02:30 (Europe/Berlin, UTC+01:00)',
    );
    // Mar 29 2026: 02:00 CET becomes 03:00 CEST; a minute before and at the change.
    expect(formatInstantInZone(new Date('2026-03-29T00:59:00Z'), 'Europe/Berlin')).toBe(
      'Mar 29, 2026, 01:59 (Europe/Berlin, UTC+01:00)',
    );
    expect(formatInstantInZone(new Date('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe(
      'Mar 29, 2026, 03:00 (Europe/Berlin, UTC+02:00)',
    );
  });

  it('writes a zone the runtime does not know as UTC', () => {
    expect(formatInstantInZone(at, 'Mars/Olympus_Mons')).toBe('Nov 28, 2026, 20:13 UTC');
    expect(formatInstantInZone(at, '')).toBe('Nov 28, 2026, 20:13 UTC');
  });
});

describe('timeZoneOrUtc', () => {
  it('keeps a known zone as stored and falls back to UTC for anything else', () => {
    expect(timeZoneOrUtc('Europe/Berlin')).toBe('Europe/Berlin');
    expect(timeZoneOrUtc('Asia/Kolkata')).toBe('Asia/Kolkata');
    for (const setting of [undefined, null, '', 'Mars/Olympus_Mons', 5, { zone: 'Europe/Berlin' }])
      expect(timeZoneOrUtc(setting)).toBe('UTC');
  });

  it('isTimeZone takes IANA names and UTC only', () => {
    expect([isTimeZone('UTC'), isTimeZone('America/Argentina/Buenos_Aires'), isTimeZone('Berlin')]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe('canonicalTimeZone', () => {
  it('writes a name that differs only in case as the time zone database does, any other as given', () => {
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('AMERICA/NEW_YORK')).toBe('America/New_York');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    // The runtime resolves it to Asia/Calcutta; the name the person chose stays.
    expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
  });
});
