/**
 * How long each telemetry table keeps a row, as the engine has it now (its TTL read back from
 * `system.tables`, retainedTableTtlDays), for what the dashboard says of data past what is kept
 * (GET /api/billing/usage `tableRetentionDays`). Not the migrations' numbers: an operator may
 * change a TTL by hand (docs/OPERATIONS.md §6).
 *
 * Read once, then again when a read finds the answer older than TABLE_RETENTION_REFRESH_MS. A TTL
 * changes only when an operator alters a table (on the embedded engine, only while the service is
 * stopped, so the first read after start sees it), and a dashboard telling the old number for a
 * few minutes after that costs nothing; the usage read it rides on is made by most dashboard
 * pages, which would otherwise each ask the engine. Each process keeps its own answer.
 */
import type { TelemetryEngine } from '../store/telemetry/engine.js';
import { RETAINED_TABLES, retainedTableTtlDays, type RetainedTableName } from '../store/telemetry/queries/retention.js';

export const TABLE_RETENTION_REFRESH_MS = 5 * 60_000;

/** Days each retained table keeps a row; null where it has no TTL this can read (only plans bound it). */
export type TableRetentionDays = Record<RetainedTableName, number | null>;

export class TableRetention {
  private answer: { days: TableRetentionDays; readAtMs: number } | null = null;
  private reading: Promise<TableRetentionDays> | null = null;

  constructor(
    private readonly telemetry: TelemetryEngine,
    private readonly now: () => number,
  ) {}

  /** The tables' days, read from the engine when the last answer is older than the refresh interval. */
  async days(): Promise<TableRetentionDays> {
    if (this.answer && this.now() - this.answer.readAtMs < TABLE_RETENTION_REFRESH_MS) return this.answer.days;
    // Requests arriving while the engine is asked share its answer. A failed read is not kept: the next request asks again.
    this.reading ??= this.read().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async read(): Promise<TableRetentionDays> {
    const readAtMs = this.now();
    const ttlDays = await retainedTableTtlDays(this.telemetry);
    const days = Object.fromEntries(
      RETAINED_TABLES.map(({ table }) => [table, ttlDays.get(table) ?? null]),
    ) as TableRetentionDays;
    this.answer = { days, readAtMs };
    return days;
  }
}
