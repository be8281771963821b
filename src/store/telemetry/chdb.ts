/**
 * Embedded telemetry engine: chDB (ClickHouse in-process). One data folder per process, as chDB
 * allows only one active session folder at a time; queries and inserts run off the event loop.
 *
 * A chDB connection runs one statement at a time, and the binding runs every statement with bound
 * parameters one at a time across the whole process. So statements go out with their parameters
 * rendered as literals (literals.ts) over a pool of connections to the same folder, and inserts
 * have a connection of their own: a slow read holds up neither other reads nor ingest.
 *
 * Inserts are RowBinary, which chDB's insert call does not take (text formats only), so each
 * batch is written to a file in a memory-backed folder and inserted with `INSERT ... SELECT FROM
 * file(...)`; chDB reads binary rows about four times faster than it parses JSONCompactEachRow.
 * The insert resolves once the rows are stored, as before; the file is removed after it either
 * way. A process killed between writing a file and its insert acknowledged none of its rows
 * (acks follow the insert), so the next start simply deletes what it finds in the folder.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { drainPending, Session } from 'chdb';
import { defaultInsertDir } from '../../config.js';
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

export interface ChdbOptions {
  path: string;
  database: string;
  /** Memory the whole engine may hold (max_server_memory_usage), MB; null: half of the machine's memory. */
  maxMemoryMb?: number | null;
  /** Size of each of the engine's index caches (marks, primary index, skipping-index marks), MB. Default 64. */
  cacheMb?: number;
  /** Memory-backed folder for the insert files (config TELEMETRY_INSERT_DIR). */
  insertDir?: string;
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

/** Insert files of this process that are between their write and their removal. */
const staging = new Set<string>();
let insertSequence = 0;

/**
 * The folder of one store's insert files, inside `insertDir`: named after the data folder and
 * database, as one process at a time owns a chDB folder. At open, every file in it that this
 * process is not inserting is a leftover of a process that died mid-insert, and is removed.
 */
function openInsertFolder(options: ChdbOptions): string {
  const key = createHash('sha256')
    .update(`${path.resolve(options.path)}\0${options.database}`)
    .digest('hex')
    .slice(0, 16);
  const folder = path.join(options.insertDir ?? defaultInsertDir(), `sightline-inserts-${key}`);
  fs.mkdirSync(folder, { recursive: true });
  for (const name of fs.readdirSync(folder)) {
    const file = path.join(folder, name);
    if (!staging.has(file)) fs.rmSync(file, { force: true, recursive: true });
  }
  return folder;
}

/** Statements (reads, DDL, ping) that run at once; more wait for a free connection. */
const QUERY_CONNECTIONS = 8;

export async function openChdb(options: ChdbOptions): Promise<TelemetryEngine> {
  fs.mkdirSync(options.path, { recursive: true });
  const configFile = path.join(options.path, 'sightline-server-config.xml');
  fs.writeFileSync(configFile, chdbServerConfig(options));
  // The first connection starts the process's engine with this configuration; the rest join it.
  const connectionArgs = [`--config-file=${configFile}`];
  const insertConnection = new Session(options.path, { connectionArgs });
  const database = checkIdentifier(options.database);
  insertConnection.query(`CREATE DATABASE IF NOT EXISTS ${database}`);
  // A connection keeps its current database, so every statement below runs unqualified.
  const connect = () => {
    const connection = new Session(options.path, { connectionArgs });
    connection.query(`USE ${database}`);
    return connection;
  };
  const pool = new ConnectionPool(Array.from({ length: QUERY_CONNECTIONS }, connect));
  const insertFolder = openInsertFolder(options);

  const engine: TelemetryEngine = {
    engine: 'chdb',
    database: options.database,
    async query<T>(
      sql: string,
      params: QueryParams = {},
      settings: Record<string, string | number> = {},
    ): Promise<T[]> {
      const statement = withSettings(renderParameters(sql, params), { ...READ_SETTINGS, ...settings });
      const result = await pool.use((connection) => connection.queryAsync(statement, { format: 'JSONEachRow' }));
      return parseJsonEachRow<T>(result.text());
    },
    async selectRowBinary(sql: string, params: QueryParams = {}): Promise<Buffer> {
      const statement = withSettings(renderParameters(sql, params), READ_SETTINGS);
      const result = await pool.use((connection) => connection.queryAsync(statement, { format: 'RowBinary' }));
      return Buffer.from(result.bytes());
    },
    async command(sql: string, params: QueryParams = {}): Promise<void> {
      const statement = renderParameters(sql, params);
      await pool.use((connection) => connection.queryAsync(statement, { format: 'Null' }));
    },
    async insertRows(layout: RowLayout, rows: Buffer, settings: Record<string, string | number> = {}): Promise<void> {
      const file = path.join(insertFolder, `${layout.table}-${process.pid}-${++insertSequence}.rowbinary`);
      staging.add(file);
      try {
        await fs.promises.writeFile(file, rows);
        const columns = layout.columns.map(checkIdentifier).join(', ');
        await insertConnection.queryAsync(
          withSettings(
            `INSERT INTO ${database}.${checkIdentifier(layout.table)} (${columns}) SELECT * FROM file(${quoteString(file)}, 'RowBinary', ${quoteString(layout.structure)})`,
            { ...INSERT_SETTINGS, ...settings },
          ),
          { format: 'Null' },
        );
      } finally {
        staging.delete(file);
        await fs.promises.rm(file, { force: true });
      }
    },
    async ping(): Promise<void> {
      await pool.use((connection) => connection.queryAsync('SELECT 1', { format: 'Null' }));
    },
    async close(): Promise<void> {
      pool.close();
      insertConnection.close();
      // close() defers behind statements still running (a request that came in as the service
      // stopped); the folder is free for another engine in this process only once they end.
      await drainPending();
      // Leave no empty folder behind in /dev/shm; one still in use (another open of this store) stays.
      await fs.promises.rmdir(insertFolder).catch(() => undefined);
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
