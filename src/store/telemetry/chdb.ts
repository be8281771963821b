/**
 * Embedded telemetry engine: chDB (ClickHouse in-process). One data folder per process, as chDB
 * allows only one active session folder at a time; queries and inserts run off the event loop.
 *
 * A chDB connection runs one statement at a time, and the binding runs every statement with bound
 * parameters one at a time across the whole process. So statements go out with their parameters
 * rendered as literals (literals.ts) over a pool of connections to the same folder, and each
 * table's inserts have a connection of their own: a slow read holds up neither other reads nor
 * ingest.
 *
 * Inserts are RowBinary, which chDB's insert call does not take (text formats only), so rows are
 * written to files and inserted with `INSERT ... SELECT FROM file(...)`; chDB reads binary rows
 * about four times faster than it parses JSONCompactEachRow. The files are staged inserts
 * (staged-inserts.ts): an insertRows resolves once its file is on disk in the data folder, and
 * many go into the table in one insert; every statement first inserts what is staged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { drainPending, Session } from 'chdb';
import {
  clickhouseCodeOf,
  INSERT_SETTINGS,
  READ_SETTINGS,
  TelemetryQueryError,
  type QueryParams,
  type TelemetryEngine,
} from './engine.js';
import { quoteString, renderParameters } from './literals.js';
import type { RowLayout } from './rows.js';
import { type BatchTarget, StagedInserts } from './staged-inserts.js';

/** Where a chDB folder's staged inserts wait for their insert (staged-inserts.ts). */
export const STAGED_FOLDER = 'sightline-staged';

interface StagedTarget extends BatchTarget {
  columns: string[];
  structure: string;
  settings: Record<string, string | number>;
}

export interface ChdbOptions {
  path: string;
  database: string;
  /** Memory the whole engine may hold (max_server_memory_usage), MB; null: half of the machine's memory. */
  maxMemoryMb?: number | null;
  /** Size of each of the engine's index caches (marks, primary index, skipping-index marks), MB. Default 64. */
  cacheMb?: number;
  /** How long a staged batch waits for company before its insert (default STAGED_FLUSH_MS). */
  stagedFlushMs?: number;
  /** A staged batch's insert failed (it is kept and tried again) or one of its files was set aside. */
  onStagedError?: (error: unknown, what: { table: string; batch: string; setAside?: string }) => void;
  /** The one folder BACKUP and RESTORE may write and read (`sightline backup`, src/server/backup.ts); none when unset. */
  backupDir?: string;
}

export const DEFAULT_CHDB_CACHE_MB = 64;

/**
 * Server configuration for a small machine, given to chDB as a config file (these are server
 * settings: a SET cannot change them). ClickHouse sizes for a server of its own: its index caches
 * may each grow to 5 GB and the engine to 90% of RAM, while here it shares one process with
 * PGlite and the service. Past max_server_memory_usage a statement fails (MEMORY_LIMIT_EXCEEDED)
 * instead of the process being killed.
 */
export function chdbServerConfig(options: Pick<ChdbOptions, 'maxMemoryMb' | 'cacheMb' | 'backupDir'>): string {
  const mb = (n: number) => String(n * 1024 * 1024);
  const cache = mb(options.cacheMb ?? DEFAULT_CHDB_CACHE_MB);
  const memory =
    options.maxMemoryMb == null
      ? '<max_server_memory_usage>0</max_server_memory_usage>\n  <max_server_memory_usage_to_ram_ratio>0.5</max_server_memory_usage_to_ram_ratio>'
      : `<max_server_memory_usage>${mb(options.maxMemoryMb)}</max_server_memory_usage>`;
  return `<clickhouse>
  <!-- Written by Sightline at every start from CHDB_MAX_MEMORY_MB and CHDB_CACHE_MB; edits are overwritten. -->
  ${memory}
  <mark_cache_size>${cache}</mark_cache_size>
  <primary_index_cache_size>${cache}</primary_index_cache_size>
  <index_mark_cache_size>${cache}</index_mark_cache_size>
  <uncompressed_cache_size>0</uncompressed_cache_size>
  <index_uncompressed_cache_size>0</index_uncompressed_cache_size>
  <compiled_expression_cache_size>${mb(16)}</compiled_expression_cache_size>
  <query_condition_cache_size>${mb(16)}</query_condition_cache_size>${
    // BACKUP ... TO File() is refused outside allowed_path; a trailing slash, or it is taken as a file prefix.
    options.backupDir === undefined
      ? ''
      : `\n  <backups><allowed_path>${xmlText(path.resolve(options.backupDir))}/</allowed_path></backups>`
  }
</clickhouse>
`;
}

function xmlText(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A staged batch is inserted this long after its first write, or once it holds STAGED_BATCH_BYTES. */
export const STAGED_FLUSH_MS = 1000;
const STAGED_BATCH_BYTES = 16 * 1024 * 1024;

/** Statements (reads, DDL, ping) that run at once; more wait for a free connection. */
const QUERY_CONNECTIONS = 8;

export async function openChdb(options: ChdbOptions): Promise<TelemetryEngine> {
  // file() would read these as patterns in the staged batches' paths, match nothing, and insert nothing.
  if (/[*?{}]/.test(path.resolve(options.path)))
    throw new Error(
      `chDB folder ${options.path}: its path may not contain * ? { or } (staged inserts read files by pattern)`,
    );
  fs.mkdirSync(options.path, { recursive: true });
  const configFile = path.join(options.path, 'sightline-server-config.xml');
  fs.writeFileSync(configFile, chdbServerConfig(options));
  // The first connection starts the process's engine with this configuration; the rest join it.
  const connectionArgs = [`--config-file=${configFile}`];
  const firstConnection = new Session(options.path, { connectionArgs });
  const database = checkIdentifier(options.database);
  firstConnection.query(`CREATE DATABASE IF NOT EXISTS ${database}`);
  // A connection keeps its current database, so every statement below runs unqualified.
  const connect = () => {
    const connection = new Session(options.path, { connectionArgs });
    connection.query(`USE ${database}`);
    return connection;
  };
  const pool = new ConnectionPool(Array.from({ length: QUERY_CONNECTIONS }, connect));
  // A connection runs one statement at a time: one per table, so a read that waits for the
  // staged rows of several tables waits for the longest insert, not for their sum.
  const insertConnections = new Map<string, Session>();
  const insertFiles = async (target: BatchTarget, files: string, token: string): Promise<void> => {
    const { table, columns, structure, settings } = target as StagedTarget;
    let connection = insertConnections.get(table);
    if (!connection) {
      connection = connect();
      insertConnections.set(table, connection);
    }
    await connection.queryAsync(
      withSettings(
        `INSERT INTO ${database}.${checkIdentifier(table)} (${columns.map(checkIdentifier).join(', ')}) SELECT * FROM file(${quoteString(files)}, 'RowBinary', ${quoteString(structure)})`,
        // One thread reads the files in name order, so a batch inserted again splits into the same blocks.
        { ...INSERT_SETTINGS, ...settings, insert_deduplication_token: token, max_threads: 1 },
      ),
      { format: 'Null' },
    );
  };
  const staged = await StagedInserts.open({
    folder: path.join(options.path, STAGED_FOLDER),
    insert: insertFiles,
    flushMs: options.stagedFlushMs ?? STAGED_FLUSH_MS,
    maxBatchBytes: STAGED_BATCH_BYTES,
    onError: options.onStagedError,
  });

  /**
   * A staged write is answered before its insert runs, so a layout the table does not take
   * (no such table or column, another type) is refused at the write instead: checked once per
   * layout, and again after any statement through `command` (DDL may have changed the table).
   */
  const checkedLayouts = new Map<string, Promise<void>>();
  const checkLayout = async (layout: RowLayout): Promise<void> => {
    const table = checkIdentifier(layout.table);
    const result = await pool.use((connection) =>
      connection.queryAsync(
        `SELECT name, type FROM system.columns WHERE database = ${quoteString(options.database)} AND table = ${quoteString(table)}`,
        { format: 'JSONEachRow' },
      ),
    );
    const types = new Map(parseJsonEachRow<{ name: string; type: string }>(result.text()).map((c) => [c.name, c.type]));
    if (types.size === 0) throw new Error(`Code: 60. Table ${database}.${table} does not exist. (UNKNOWN_TABLE)`);
    layout.columns.forEach((column, i) => {
      const type = types.get(column);
      if (type === undefined)
        throw new Error(`Code: 16. No such column ${column} in table ${database}.${table}. (NO_SUCH_COLUMN_IN_TABLE)`);
      if (type !== layout.types[i])
        throw new Error(
          `Code: 53. Column ${column} of ${database}.${table} is ${type}, not ${layout.types[i]}. (TYPE_MISMATCH)`,
        );
    });
  };

  const engine: TelemetryEngine = {
    engine: 'chdb',
    database: options.database,
    async query<T>(
      sql: string,
      params: QueryParams = {},
      settings: Record<string, string | number> = {},
    ): Promise<T[]> {
      const statement = withSettings(renderParameters(sql, params), { ...READ_SETTINGS, ...settings });
      await staged.settle();
      const result = await pool.use((connection) => connection.queryAsync(statement, { format: 'JSONEachRow' }));
      return parseJsonEachRow<T>(result.text());
    },
    async selectRowBinary(sql: string, params: QueryParams = {}): Promise<Buffer> {
      const statement = withSettings(renderParameters(sql, params), READ_SETTINGS);
      await staged.settle();
      const result = await pool.use((connection) => connection.queryAsync(statement, { format: 'RowBinary' }));
      return Buffer.from(result.bytes());
    },
    async command(sql: string, params: QueryParams = {}): Promise<void> {
      const statement = renderParameters(sql, params);
      await staged.settle();
      try {
        await pool.use((connection) => connection.queryAsync(statement, { format: 'Null' }));
      } finally {
        // The statement may have changed a table (DDL): check layouts again, retry failing inserts now.
        checkedLayouts.clear();
        staged.retryNow();
      }
    },
    async insertRows(layout: RowLayout, rows: Buffer, settings: Record<string, string | number> = {}): Promise<void> {
      const target: StagedTarget = {
        table: layout.table,
        columns: [...layout.columns],
        structure: layout.structure,
        settings,
      };
      const key = `${layout.table}\0${layout.structure}\0${JSON.stringify(settings)}`;
      let check = checkedLayouts.get(key);
      if (!check) {
        check = checkLayout(layout);
        checkedLayouts.set(key, check);
        check.catch(() => checkedLayouts.delete(key));
      }
      await check;
      await staged.write(key, target, rows);
    },
    async ping(): Promise<void> {
      await pool.use((connection) => connection.queryAsync('SELECT 1', { format: 'Null' }));
    },
    async close(): Promise<void> {
      await staged.close();
      pool.close();
      firstConnection.close();
      for (const connection of insertConnections.values()) connection.close();
      // close() defers behind statements still running (a request that came in as the service
      // stopped); the folder is free for another engine in this process only once they end.
      await drainPending();
    },
  };
  return wrapErrors(engine);
}

/** Hands each statement an idle connection, or queues it (first come, first served) for one. */
class ConnectionPool {
  private readonly idle: Session[];
  private readonly waiting: Array<(connection: Session) => void> = [];
  constructor(private readonly connections: readonly Session[]) {
    this.idle = [...connections];
  }

  async use<T>(run: (connection: Session) => Promise<T>): Promise<T> {
    const connection = this.idle.pop() ?? (await new Promise<Session>((resolve) => this.waiting.push(resolve)));
    try {
      return await run(connection);
    } finally {
      const next = this.waiting.shift();
      if (next) next(connection);
      else this.idle.push(connection);
    }
  }

  close(): void {
    // chDB defers closing a connection until the statements running on it finish.
    for (const connection of this.connections) connection.close();
  }
}

/** Appends a SETTINGS clause (chDB has no per-query settings argument). */
function withSettings(sql: string, settings: Record<string, string | number>): string {
  const entries = Object.entries(settings);
  if (entries.length === 0) return sql;
  const clause = entries.map(([k, v]) => `${k} = ${typeof v === 'number' ? v : quoteString(v)}`).join(', ');
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
    selectRowBinary: wrap('query', engine.selectRowBinary.bind(engine)),
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
