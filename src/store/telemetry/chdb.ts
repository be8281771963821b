/**
 * Embedded telemetry engine: chDB (ClickHouse in-process). One data folder per process, as chDB
 * allows only one active session folder at a time; queries and inserts run off the event loop.
 */
import fs from 'node:fs';
import { Session } from 'chdb';
import { clickhouseCodeOf, INSERT_SETTINGS, READ_SETTINGS, TelemetryQueryError, type QueryParams, type TelemetryEngine } from './engine.js';
import { columnsOf } from './rows.js';

export interface ChdbOptions {
  path: string;
  database: string;
}

export async function openChdb(options: ChdbOptions): Promise<TelemetryEngine> {
  fs.mkdirSync(options.path, { recursive: true });
  const session = new Session(options.path);
  const database = checkIdentifier(options.database);
  session.query(`CREATE DATABASE IF NOT EXISTS ${database}`);
  // The session keeps its current database, so every statement below runs unqualified.
  session.query(`USE ${database}`);

  const engine: TelemetryEngine = {
    engine: 'chdb',
    database: options.database,
    async query<T>(sql: string, params: QueryParams = {}, settings: Record<string, string | number> = {}): Promise<T[]> {
      const result = await session.queryBindAsync(withSettings(sql, { ...READ_SETTINGS, ...settings }), params, { format: 'JSONEachRow' });
      return parseJsonEachRow<T>(result.text());
    },
    async command(sql: string, params: QueryParams = {}): Promise<void> {
      await session.queryBindAsync(sql, params, { format: 'Null' });
    },
    async insertRows(table: string, rows: Buffer): Promise<void> {
      await session.insert({
        table: `${database}.${checkIdentifier(table)}`,
        columns: [...columnsOf(table)],
        values: rows,
        format: 'JSONCompactEachRow',
        settings: INSERT_SETTINGS,
      });
    },
    async ping(): Promise<void> {
      await session.queryAsync('SELECT 1', { format: 'Null' });
    },
    async close(): Promise<void> {
      session.close();
    },
  };
  return wrapErrors(engine);
}

/** Appends a SETTINGS clause (chDB has no per-query settings argument). */
function withSettings(sql: string, settings: Record<string, string | number>): string {
  const entries = Object.entries(settings);
  if (entries.length === 0) return sql;
  const clause = entries.map(([k, v]) => `${k} = ${typeof v === 'number' ? v : `'${v.replace(/'/g, "\\'")}'`}`).join(', ');
  return `${sql.trimEnd().replace(/;$/, '')}\nSETTINGS ${clause}`;
}

export function parseJsonEachRow<T>(text: string): T[] {
  const rows: T[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) rows.push(JSON.parse(text.slice(start, end)) as T);
    start = end + 1;
  }
  return rows;
}

/** Database and table names are identifiers we choose; refuse anything that would need quoting. */
export function checkIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid identifier: ${name}`);
  return name;
}

/** Maps every engine failure to TelemetryQueryError with ClickHouse's code. */
function wrapErrors(engine: TelemetryEngine): TelemetryEngine {
  const wrap =
    <A extends unknown[], R>(tag: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (error) {
        if (error instanceof TelemetryQueryError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        const code = engineErrorCode(error) ?? clickhouseCodeOf(message);
        throw new TelemetryQueryError(message, code ?? null, tag);
      }
    };
  return {
    engine: engine.engine,
    database: engine.database,
    query: wrap('query', engine.query.bind(engine)) as TelemetryEngine['query'],
    command: wrap('command', engine.command.bind(engine)),
    insertRows: wrap('insert', engine.insertRows.bind(engine)),
    ping: wrap('ping', engine.ping.bind(engine)),
    close: engine.close.bind(engine),
  };
}

/** chDB reports `clickhouseCode`; @clickhouse/client's ClickHouseError a numeric string `code`. */
function engineErrorCode(error: unknown): number | null {
  const { clickhouseCode, code } = error as { clickhouseCode?: unknown; code?: unknown };
  if (typeof clickhouseCode === 'number') return clickhouseCode;
  if (typeof code === 'string' && /^\d+$/.test(code)) return Number(code);
  return null;
}

export { wrapErrors };
