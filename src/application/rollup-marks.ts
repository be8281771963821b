/**
 * Tells the hourly rollup which hours received rows (store/telemetry/queries/rollups.ts). Called
 * after a request's rows are stored, so a mark is always later than the rows it announces. Live
 * traffic marks each (project, hour) once per process; rows landing in an hour that ended
 * LATE_AFTER_MS ago (late or re-sent data, which a roll may have missed) mark it every time.
 * Marks go through the group-commit writer, so concurrent requests' marks share one insert.
 * Only hours within the mark window (markableHours) are marked, at most
 * MAX_MARKED_HOURS_PER_REQUEST of them, the latest first.
 */
import type { EndpointRecord } from '../core/records.js';
import { ROLLUP_MARK_ROWS, rowsOf, type RollupMark } from '../store/telemetry/rows.js';
import { HOUR_MS, LATE_AFTER_MS, markableHours } from '../store/telemetry/queries/rollups.js';
import type { GroupCommitWriter } from '../store/telemetry/writer.js';

const NANOS_PER_HOUR = 3_600_000_000_000n;

/**
 * Hours one request may mark (each mark costs a roll of its hour). A client sends every few
 * seconds, so a request spans an hour or two; 48 still covers one replaying two days it
 * buffered offline. Older hours past it are not marked (docs/ARCHITECTURE.md, rollup).
 */
export const MAX_MARKED_HOURS_PER_REQUEST = 48;

export class RollupMarks {
  /** Hours (epoch seconds) this process has marked, by `project:hour`, for hours not yet late. */
  private readonly marked = new Map<string, number>();

  constructor(
    private readonly writer: Pick<GroupCommitWriter, 'write'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Marks the hours (hoursOf) that a request's stored rows fell in. */
  async afterWrite(projectId: string, hours: readonly number[]): Promise<void> {
    if (hours.length === 0) return;
    const now = this.now();
    const window = markableHours(now);
    const due: RollupMark[] = [];
    for (const hour of hours.filter((h) => h >= window.first && h <= window.last).sort((a, b) => b - a)) {
      const key = `${projectId}:${hour}`;
      const late = hour * 1000 + HOUR_MS + LATE_AFTER_MS <= now;
      if (!late && this.marked.has(key)) continue;
      due.push({ tableName: 'endpoints', projectId, hour });
      if (!late) this.marked.set(key, hour);
      if (due.length === MAX_MARKED_HOURS_PER_REQUEST) break;
    }
    if (due.length === 0) return;
    await this.writer.write([rowsOf(ROLLUP_MARK_ROWS, due)]);
    // Hours that turned late are marked on every write from now on; forget them.
    for (const [key, hour] of this.marked) if (hour * 1000 + HOUR_MS + LATE_AFTER_MS <= now) this.marked.delete(key);
  }
}

/** The distinct hours (epoch seconds) of endpoint records: what a request's rows make the rollup redo. */
export function hoursOf(endpoints: readonly Pick<EndpointRecord, 'recordedAt'>[]): number[] {
  const hours = new Set<number>();
  for (const { recordedAt } of endpoints) hours.add(Number(recordedAt / NANOS_PER_HOUR) * 3600);
  return [...hours];
}
