/**
 * Times in the organization's time zone (DASHBOARD.md §1.6; web/src/lib/time-zone.ts): every
 * formatter writes in the display zone once it is set, in one style (month and day, 24-hour clock,
 * the year only when it is not the current one); the time-range inputs read and write that zone's
 * wall clock; chart axes label their ticks in it; the browser's offset is noted when it differs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { timeTickLabels } from '../../web/src/components/charts/axes.js';
import { formatDateTime, formatInZone, formatPreciseTime } from '../../web/src/lib/format.js';
import { formatInstant, fromLocalInput, resolveRange, toLocalInput } from '../../web/src/lib/time-range.js';
import { organizationSettingsProblem } from '../../src/core/organizations.js';
import {
  browserTimeZone,
  currentZoneName,
  displayTimeZone,
  formatOffset,
  fromZonedInput,
  pickableTimeZones,
  RENAMED_ZONES,
  setDisplayTimeZone,
  toZonedInput,
  zoneDifference,
  zoneOffsetMinutes,
} from '../../web/src/lib/time-zone.js';

// 21:35:12.733 UTC is 03:05:12.733 the next day in Kolkata (+05:30, no daylight saving).
const INSTANT = Date.parse('2026-11-27T21:35:12.733Z');
const SAME_YEAR = Date.parse('2026-12-01T00:00:00Z');

afterEach(() => setDisplayTimeZone(browserTimeZone()));

describe('display time zone', () => {
  it('formats every date in the zone set for the organization, not the browser’s', () => {
    setDisplayTimeZone('Asia/Kolkata');
    expect(displayTimeZone()).toBe('Asia/Kolkata');
    expect(formatInZone(INSTANT, 'millisecond', displayTimeZone(), SAME_YEAR)).toMatch(/^Nov 28, 03:05:12\.733$/);
    expect(formatInZone(INSTANT, 'minute', displayTimeZone(), SAME_YEAR)).toBe('Nov 28, 03:05');
    // The shared formatters the pages call follow the same zone.
    expect(formatPreciseTime(new Date(INSTANT).toISOString())).toContain('03:05:12.733');
    expect(formatDateTime(INSTANT)).toContain('Nov 28');
    expect(formatDateTime(INSTANT)).toContain('03:05');
    setDisplayTimeZone('America/New_York');
    expect(formatPreciseTime(INSTANT)).toContain('Nov 27');
    expect(formatPreciseTime(INSTANT)).toContain('16:35:12.733');
  });

  it('writes one style: 24-hour clock, the year only when it is not the current one, a dash for nothing', () => {
    expect(formatInZone(INSTANT, 'minute', 'UTC', SAME_YEAR)).toBe('Nov 27, 21:35');
    expect(formatInZone(INSTANT, 'minute', 'UTC', Date.parse('2027-02-01T00:00:00Z'))).toBe('Nov 27, 2026, 21:35');
    // The year is the zone's: 23:30 UTC on 31 December is already next year in Kolkata.
    const newYear = Date.parse('2026-12-31T23:30:00Z');
    expect(formatInZone(newYear, 'minute', 'Asia/Kolkata', Date.parse('2027-01-01T12:00:00Z'))).toBe('Jan 1, 05:00');
    expect(formatDateTime(null)).toBe('—');
    expect(formatPreciseTime(undefined)).toBe('—');
  });

  it('ignores a zone this browser does not know, keeping the browser’s', () => {
    setDisplayTimeZone('Asia/Kolkata');
    setDisplayTimeZone('Mars/Olympus');
    expect(displayTimeZone()).toBe(browserTimeZone());
  });

  it('notes the browser’s offset only when the zones differ', () => {
    expect(zoneOffsetMinutes(INSTANT, 'Asia/Kolkata')).toBe(330);
    expect(zoneOffsetMinutes(INSTANT, 'America/New_York')).toBe(-300);
    expect(zoneOffsetMinutes(Date.parse('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(-240);
    expect(formatOffset(330)).toBe('UTC+05:30');
    expect(formatOffset(-240)).toBe('UTC-04:00');
    expect(formatOffset(0)).toBe('UTC');
    expect(zoneDifference(INSTANT, 'Asia/Kolkata', 'UTC')).toEqual({
      zone: 'Asia/Kolkata',
      offset: 'UTC+05:30',
      browserOffset: 'UTC',
    });
    expect(zoneDifference(INSTANT, 'Europe/London', 'UTC')).toBeNull();
  });
});

describe('time range in the display zone', () => {
  it('reads and writes the custom range on the zone’s wall clock; the URL keeps the instant', () => {
    setDisplayTimeZone('Asia/Kolkata');
    expect(toLocalInput(new Date(INSTANT))).toBe('2026-11-28T03:05');
    expect(fromLocalInput('2026-11-28T03:05').toISOString()).toBe('2026-11-27T21:35:00.000Z');
    const range = resolveRange({ from: '2026-11-27T21:35:00.000Z', to: '2026-11-27T22:35:00.000Z' });
    expect(range.from.toISOString()).toBe('2026-11-27T21:35:00.000Z');
    expect(range.label).toContain('03:05');
    expect(range.label).toContain('04:05');
    expect(formatInstant(new Date(INSTANT))).toContain('Nov 28');
  });

  it('crosses daylight saving changes (America/New_York)', () => {
    expect(fromZonedInput('2026-03-08T03:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(fromZonedInput('2026-07-04T12:00', 'America/New_York').toISOString()).toBe('2026-07-04T16:00:00.000Z');
    expect(fromZonedInput('2026-12-04T12:00', 'America/New_York').toISOString()).toBe('2026-12-04T17:00:00.000Z');
    expect(toZonedInput(new Date('2026-07-04T16:00:00Z'), 'America/New_York')).toBe('2026-07-04T12:00');
    expect(Number.isNaN(fromZonedInput('', 'UTC').getTime())).toBe(true);
  });
});

describe('chart time axis', () => {
  it('labels ticks on the zone’s clock, 24-hour, the date under the first tick of each day', () => {
    const seconds = INSTANT / 1000;
    expect(timeTickLabels([seconds - 1800, seconds, seconds + 3 * 3600], 1800, 'Asia/Kolkata')).toEqual([
      '02:35\nNov 28',
      '03:05',
      '06:05',
    ]);
    expect(timeTickLabels([seconds - 3600, seconds], 3600, 'UTC')).toEqual(['20:35\nNov 27', '21:35']);
    // Crossing midnight in the zone writes the new day.
    expect(timeTickLabels([seconds, seconds + 3 * 3600], 3 * 3600, 'UTC')).toEqual(['21:35\nNov 27', '00:35\nNov 28']);
    expect(timeTickLabels([seconds, seconds + 86_400], 86_400, 'Asia/Kolkata')).toEqual(['Nov 28', 'Nov 29']);
    expect(timeTickLabels([seconds, seconds + 10], 10, 'Asia/Kolkata')).toEqual(['03:05:12\nNov 28', '03:05:22']);
  });
});

describe('the time-zone picker’s names', () => {
  it('offers current IANA names where ICU lists old ones (Asia/Kolkata, not only Asia/Calcutta), and keeps a stored old name', () => {
    expect(currentZoneName('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(currentZoneName('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(currentZoneName('Europe/Berlin')).toBe('Europe/Berlin');
    const listed = ['Asia/Calcutta', 'Asia/Katmandu', 'Europe/Berlin', 'Europe/Kiev', 'UTC'];
    expect(pickableTimeZones(listed, 'UTC')).toEqual([
      'UTC',
      'Asia/Kathmandu',
      'Asia/Kolkata',
      'Europe/Berlin',
      'Europe/Kyiv',
    ]);
    // A stored old name stays selectable as saved, beside its current name.
    expect(pickableTimeZones(listed, 'Asia/Calcutta').slice(0, 3)).toEqual(['UTC', 'Asia/Calcutta', 'Asia/Kathmandu']);
    expect(pickableTimeZones(listed, 'Asia/Calcutta')).toContain('Asia/Kolkata');
  });

  it('maps only names this runtime lists to names it lacks, and the service accepts every current name', () => {
    const listed = new Set(Intl.supportedValuesOf('timeZone'));
    for (const [old, renamed] of Object.entries(RENAMED_ZONES)) {
      expect(listed.has(old), old).toBe(true);
      expect(listed.has(renamed), renamed).toBe(false);
      // Same zone: ICU resolves the current name to the old one.
      expect(new Intl.DateTimeFormat('en', { timeZone: renamed }).resolvedOptions().timeZone).toBe(old);
      // What PUT /api/organizations/:id/settings checks (Node's Intl).
      expect(organizationSettingsProblem({ timezone: renamed }), renamed).toBeNull();
    }
  });
});
