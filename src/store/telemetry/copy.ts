/**
 * Copying every telemetry row from one engine to another (`sightline move`: the embedded chDB
 * onto a ClickHouse server). Rows travel as RowBinary, read with the source's column types and
 * inserted with the same columns, so every value arrives bit for bit; no JSON in between. A
 * table is read a slice at a time (days of its time column, a heavy day split further by a hash
 * of its rows), so memory stays bounded by the slice, not the table. Afterwards each table's
 * row count and an order-independent hash of all its rows (a sum, so duplicates count) are compared
 * on both sides.
 */
import { MOVE_MARK_TABLE } from '../move-mark.js';
import type { TelemetryEngine } from './engine.js';
import { RETAINED_TABLES } from './queries/retention.js';
import type { RowLayout } from './rows.js';

/** About how many rows one slice holds, unless the caller says otherwise. */
const ROWS_PER_SLICE = 100_000;

/** The column each table's rows are sliced by (its TTL's); the rest are copied whole. */
const TIME_COLUMNS: ReadonlyMap<string, string> = new Map([
  ...RETAINED_TABLES.map((t) => [t.table, t.timeColumn] as const),
  ['rollup_hours', 'hour'],
  ['ingest_usage', 'month'],
]);

export interface TableCopied {
  table: string;
  rows: number;
}

export interface CopyOptions {
  onProgress?: (event: { table: string; copied: number; total: number }) => void;
  rowsPerSlice?: number;
}

/** The tables to copy: the source's, but its migration and move bookkeeping, which the target has its own of. */
export async function telemetryTables(engine: TelemetryEngine): Promise<string[]> {
  const rows = await engine.query<{ name: string }>(
    "SELECT name FROM system.tables WHERE database = currentDatabase() AND name NOT IN ('schema_migrations', {mark:String}) AND NOT is_temporary ORDER BY name",
    { mark: MOVE_MARK_TABLE },
  );
  return rows.map((row) => row.name);
}

/** Tables of the target that hold rows (a move goes into an empty database only). */
export async function nonEmptyTables(engine: TelemetryEngine, tables: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of tables) {
    const rows = await engine.query<{ one: number }>(`SELECT 1 AS one FROM ${table} LIMIT 1`);
    if (rows.length > 0) found.push(table);
  }
  return found;
}

/** Deletes every row of `tables` (a move cut short is copied again from empty). */
export async function emptyTables(engine: TelemetryEngine, tables: readonly string[]): Promise<void> {
  for (const table of tables) await engine.command(`TRUNCATE TABLE ${table}`);
}

/** The columns an INSERT takes (not MATERIALIZED or ALIAS ones), as the rows' layout. */
export async function insertableLayout(engine: TelemetryEngine, table: string): Promise<RowLayout> {
  const columns = await engine.query<{ name: string; type: string }>(
    `SELECT name, type FROM system.columns
      WHERE database = currentDatabase() AND table = {table:String} AND default_kind NOT IN ('MATERIALIZED', 'ALIAS')
      ORDER BY position`,
    { table },
  );
  return {
    table,
    columns: columns.map((c) => c.name),
    types: columns.map((c) => c.type),
    structure: columns.map((c) => `${c.name} ${c.type}`).join(', '),
  };
}

interface Slice {
  where: string;
  params: Record<string, string | number>;
  /** Known from the day counts; null for a part of a split day. */
  rows: number | null;
}

/**
 * Slices covering every row once: runs of whole days (by toDate32 of the time column, the same
 * expression in the count and in the slice, so rows at any instant fall in exactly one), a day
 * above `rowsPerSlice` split into parts by a hash of the row.
 */
async function slicesOf(
  engine: TelemetryEngine,
  table: string,
  columns: string,
  rowsPerSlice: number,
): Promise<Slice[]> {
  const timeColumn = TIME_COLUMNS.get(table);
  if (timeColumn === undefined) return [{ where: '1', params: {}, rows: null }];
  const day = `toDate32(${timeColumn})`;
  const days = await engine.query<{ day: string; rows: number }>(
    `SELECT toString(${day}) AS day, count() AS rows FROM ${table} GROUP BY day ORDER BY day`,
  );
  const slices: Slice[] = [];
  let start: string | null = null;
  let end = '';
  let pending = 0;
  const flush = () => {
    if (start === null) return;
    slices.push({
      where: `${day} >= toDate32({from:String}) AND ${day} <= toDate32({to:String})`,
      params: { from: start, to: end },
      rows: pending,
    });
    start = null;
    pending = 0;
  };
  for (const { day: date, rows } of days) {
    if (rows > rowsPerSlice) {
      flush();
      const parts = Math.ceil(rows / rowsPerSlice);
      for (let part = 0; part < parts; part++)
        slices.push({
          where: `${day} = toDate32({day:String}) AND cityHash64(${columns}) % {parts:UInt32} = {part:UInt32}`,
          params: { day: date, parts, part },
          rows: null,
        });
      continue;
    }
    if (pending + rows > rowsPerSlice) flush();
    start ??= date;
    end = date;
    pending += rows;
  }
  flush();
  return slices;
}

async function fingerprint(engine: TelemetryEngine, table: string, columns: string) {
  const [row] = await engine.query<{ rows: number; hash: string }>(
    `SELECT count() AS rows, toString(sum(cityHash64(${columns}))) AS hash FROM ${table}`,
  );
  return row!;
}

/**
 * Copies every row of every table of `from` into the same tables of `to` (migrated, empty), then
 * checks each table's count and hash on both sides; throws naming the first that differs.
 */
export async function copyTelemetry(
  from: TelemetryEngine,
  to: TelemetryEngine,
  { onProgress = () => undefined, rowsPerSlice = ROWS_PER_SLICE }: CopyOptions = {},
): Promise<TableCopied[]> {
  const copied: TableCopied[] = [];
  for (const table of await telemetryTables(from)) {
    // Merges would change what is compared: Replacing tables collapse re-sent rows, TTLs drop
    // expired ones. Stopped on both sides for the table's copy and check, then resumed.
    await from.command(`SYSTEM STOP MERGES ${table}`);
    await to.command(`SYSTEM STOP MERGES ${table}`);
    try {
      copied.push(await copyTable(from, to, table, onProgress, rowsPerSlice));
    } finally {
      await to.command(`SYSTEM START MERGES ${table}`);
      await from.command(`SYSTEM START MERGES ${table}`);
    }
  }
  return copied;
}

async function copyTable(
  from: TelemetryEngine,
  to: TelemetryEngine,
  table: string,
  onProgress: NonNullable<CopyOptions['onProgress']>,
  rowsPerSlice: number,
): Promise<TableCopied> {
  const layout = await insertableLayout(from, table);
  const columns = layout.columns.join(', ');
  const expected = await fingerprint(from, table, columns);
  let done = 0;
  onProgress({ table, copied: 0, total: expected.rows });
  for (const slice of await slicesOf(from, table, columns, rowsPerSlice)) {
    const rows = await from.selectRowBinary(`SELECT ${columns} FROM ${table} WHERE ${slice.where}`, slice.params);
    if (rows.length === 0) continue;
    // Every row as it is: a Replacing table would otherwise collapse duplicates within a block.
    await to.insertRows(layout, rows, { optimize_on_insert: 0 });
    done +=
      slice.rows ??
      (
        await from.query<{ rows: number }>(`SELECT count() AS rows FROM ${table} WHERE ${slice.where}`, slice.params)
      )[0]!.rows;
    onProgress({ table, copied: done, total: expected.rows });
  }
  const arrived = await fingerprint(to, table, columns);
  if (arrived.rows !== expected.rows || arrived.hash !== expected.hash)
    throw new Error(
      `table ${table}: ${arrived.rows} rows arrived of ${expected.rows}${arrived.rows === expected.rows ? ', with different values' : ''}`,
    );
  return { table, rows: expected.rows };
}
