/**
 * The telemetry store's engine interface: ClickHouse SQL, two implementations (chDB in-process,
 * ClickHouse server over HTTP). Values travel as `{name:Type}` parameters, never interpolated by
 * the caller: the server engine binds them server-side, chDB renders them as typed literals
 * (literals.ts).
 */
import type { RowLayout } from './rows.js';

export type TelemetryEngineName = 'chdb' | 'clickhouse-http';

export type QueryParams = Record<
  string,
  string | number | boolean | bigint | null | readonly unknown[] | Record<string, unknown>
>;

export interface TelemetryEngine {
  readonly engine: TelemetryEngineName;
  readonly database: string;
  /** Runs a SELECT and returns its rows (JSONEachRow; 64-bit integers as JSON numbers). */
  query<T>(sql: string, params?: QueryParams, settings?: Record<string, string | number>): Promise<T[]>;
  /** Runs a SELECT and returns its rows as RowBinary, typed exactly (moving data between engines). */
  selectRowBinary(sql: string, params?: QueryParams): Promise<Buffer>;
  /** Runs a statement that returns nothing (DDL, ALTER, OPTIMIZE). */
  command(sql: string, params?: QueryParams): Promise<void>;
  /**
   * Inserts RowBinary rows of a row format (rows.ts) into its table; resolves once they are stored.
   * `settings` add to INSERT_SETTINGS for this insert.
   */
  insertRows(layout: RowLayout, rows: Buffer, settings?: Record<string, string | number>): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Settings every read runs with, on both engines, so results have one shape. */
export const READ_SETTINGS = {
  output_format_json_quote_64bit_integers: 0,
  output_format_json_quote_decimals: 0,
} as const;

/**
 * Settings every insert runs with, on both engines. One group commit carries many requests' rows,
 * and a client may send records spread over years (a replay, a wrong clock): ClickHouse refuses a
 * block that spans more than 100 monthly partitions (max_partitions_per_insert_block), which
 * failed the whole insert and every request in it with 503. Past that limit it now only logs.
 */
export const INSERT_SETTINGS = { throw_on_max_partitions_per_insert_block: 0 } as const;

/** A failed statement, with ClickHouse's error code and name when the engine reported them. */
export class TelemetryQueryError extends Error {
  override name = 'TelemetryQueryError';
  constructor(
    message: string,
    readonly code: number | null,
    readonly tag: string,
  ) {
    super(message);
  }
}

/** ClickHouse error codes that mean "the query asked for too much", answered 4xx, not 500. */
export const RESOURCE_LIMIT_CODES = new Set([
  158, // TOO_MANY_ROWS
  159, // TIMEOUT_EXCEEDED
  160, // TOO_SLOW
  241, // MEMORY_LIMIT_EXCEEDED
  307, // TOO_MANY_BYTES
  396, // TOO_MANY_ROWS_OR_BYTES
]);

export function clickhouseCodeOf(message: string): number | null {
  const match = /Code: (\d+)/.exec(message);
  return match ? Number(match[1]) : null;
}
