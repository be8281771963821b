/** The read API conventions as pure functions: time range, buckets, pagination, sort (filters: filters.test.ts beside the module). */
import { describe, expect, it } from 'vitest';
import { bucketSecondsOf, pageOf, paginationOf, sortOf, timeRangeOf } from '../../../src/api/telemetry/conventions.js';
import { HttpError } from '../../../src/http/errors.js';
import { fillSeries } from '../../../src/store/telemetry/queries/run.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const H = 3600_000;
/** A plan keeping 90 days: no range of these tests reaches past it. */
const CLOCK = { now: NOW, keptFromMs: NOW - 90 * 24 * H };

describe('timeRangeOf', () => {
  it('defaults to the 24 hours before now', () => {
    expect(timeRangeOf(undefined, CLOCK)).toEqual({ fromMs: NOW - 24 * H, toMs: NOW });
    expect(timeRangeOf({ toDate: '2026-11-20T00:00:00Z' }, CLOCK)).toEqual({
      fromMs: Date.parse('2026-11-19T00:00:00Z'),
      toMs: Date.parse('2026-11-20T00:00:00Z'),
    });
  });
  const statusOf = (input: { fromDate?: string; toDate?: string }) => {
    try {
      timeRangeOf(input, CLOCK);
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      return (error as HttpError).statusCode;
    }
    return null;
  };
  it('accepts 31 days; refuses more and a reversed range with 422 (before: 400), text that is no date with 400', () => {
    expect(timeRangeOf({ fromDate: '2026-10-22T12:00:00Z' }, CLOCK).fromMs).toBe(NOW - 31 * 24 * H);
    expect(statusOf({ fromDate: '2026-10-22T11:59:59Z' })).toBe(422);
    expect(statusOf({ fromDate: '2026-11-22T13:00:00Z' })).toBe(422);
    expect(statusOf({ fromDate: 'last week' })).toBe(400);
  });
  it('starts no earlier than the plan keeps; a range wholly before is empty (zero length), not refused', () => {
    const keptTwoDays = { now: NOW, keptFromMs: NOW - 48 * H };
    expect(timeRangeOf({ fromDate: '2026-11-17T12:00:00Z' }, keptTwoDays)).toEqual({ fromMs: NOW - 48 * H, toMs: NOW });
    expect(timeRangeOf({ fromDate: '2026-11-17T12:00:00Z', toDate: '2026-11-18T12:00:00Z' }, keptTwoDays)).toEqual({
      fromMs: Date.parse('2026-11-18T12:00:00Z'),
      toMs: Date.parse('2026-11-18T12:00:00Z'),
    });
    expect(timeRangeOf(undefined, keptTwoDays)).toEqual({ fromMs: NOW - 24 * H, toMs: NOW });
  });
  it('refuses a day the calendar does not have (before: 2026-02-30 was read as March 2)', () => {
    expect(statusOf({ fromDate: '2026-02-30T00:00:00Z', toDate: '2026-03-05T00:00:00Z' })).toBe(400);
  });
});

describe('bucketSecondsOf', () => {
  it('picks the smallest bucket giving at most 120 points', () => {
    expect(bucketSecondsOf({ fromMs: 0, toMs: H })).toBe(60);
    expect(bucketSecondsOf({ fromMs: 0, toMs: 24 * H })).toBe(900);
    expect(bucketSecondsOf({ fromMs: 0, toMs: 7 * 24 * H })).toBe(10800);
    // 31 days: 124 buckets of 6 h is over 120, so 12 h (62 buckets).
    expect(bucketSecondsOf({ fromMs: 0, toMs: 31 * 24 * H })).toBe(43200);
  });
  it('zero-fills a series over the range', () => {
    expect(fillSeries({ fromMs: 0, toMs: 180_000 }, 60, new Map([[60, 5]]))).toEqual([0, 5, 0]);
  });
});

describe('pagination and sort', () => {
  it('defaults to page 1 of 50 and refuses out-of-range values', () => {
    expect(paginationOf(undefined)).toEqual({ page: 1, pageSize: 50 });
    for (const bad of [
      { page: 0, pageSize: 1 },
      { page: 1, pageSize: 501 },
      { page: 1, pageSize: 0 },
    ])
      expect(() => paginationOf(bad)).toThrow(HttpError);
  });
  it('pages a ranked list with total and hasMore', () => {
    expect(pageOf([1, 2, 3, 4, 5], { page: 2, pageSize: 2 })).toEqual({
      items: [3, 4],
      page: 2,
      pageSize: 2,
      total: 5,
      hasMore: true,
    });
    expect(pageOf([1, 2, 3], { page: 2, pageSize: 2 })).toMatchObject({ items: [3], hasMore: false });
  });
  it('accepts only allowed sort keys', () => {
    expect(
      sortOf({ orderBy: 'count', sortDirection: 'asc' }, ['count'], { orderBy: 'count', direction: 'desc' }),
    ).toEqual({ orderBy: 'count', direction: 'asc' });
    expect(() => sortOf({ orderBy: 'project_id' }, ['count'], { orderBy: 'count', direction: 'desc' })).toThrow(
      HttpError,
    );
  });
});
