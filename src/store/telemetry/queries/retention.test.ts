import { describe, expect, it } from 'vitest';
import { ttlDaysOf } from './retention.js';

const MERGE_TREE = 'MergeTree PARTITION BY toDate(recorded_at) ORDER BY (project_id, recorded_at)';

describe('ttlDaysOf', () => {
  it('reads the TTL as ClickHouse writes it, and as an operator may have typed it', () => {
    expect(
      ttlDaysOf(`${MERGE_TREE} TTL toDateTime(recorded_at) + toIntervalDay(90) SETTINGS index_granularity = 8192`),
    ).toBe(90);
    expect(ttlDaysOf(`${MERGE_TREE} TTL timestamp + INTERVAL 7 DAY`)).toBe(7);
    expect(ttlDaysOf(`${MERGE_TREE} TTL toDateTime(hour) + toIntervalWeek(2) SETTINGS x = 1`)).toBe(14);
    expect(ttlDaysOf(`${MERGE_TREE} TTL toDateTime(t) + toIntervalHour(36)`)).toBe(1.5);
  });

  it('counts months and years long, so a plan is never left unapplied because of them', () => {
    expect(ttlDaysOf(`${MERGE_TREE} TTL toDateTime(t) + toIntervalMonth(3)`)).toBe(93);
    expect(ttlDaysOf(`${MERGE_TREE} TTL t + INTERVAL 1 YEAR`)).toBe(366);
  });

  it('answers undefined (apply every plan) without a TTL or with one it cannot read', () => {
    expect(ttlDaysOf(`${MERGE_TREE} SETTINGS index_granularity = 8192`)).toBeUndefined();
    expect(
      ttlDaysOf(
        `${MERGE_TREE} TTL toDateTime(t) + toIntervalDay(1) TO VOLUME 'cold', toDateTime(t) + toIntervalDay(90)`,
      ),
    ).toBeUndefined();
    expect(
      ttlDaysOf(`${MERGE_TREE} TTL toDateTime(t) + toIntervalDay(30) DELETE WHERE level = 'debug'`),
    ).toBeUndefined();
  });
});
