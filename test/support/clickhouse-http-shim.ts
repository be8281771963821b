/**
 * A ClickHouse HTTP interface in front of chDB, for tests of the clickhouse-http engine.
 *
 * No modern ClickHouse server can be installed on these machines, so this speaks the parts of
 * ClickHouse's HTTP protocol that `@clickhouse/client` uses and executes every statement with
 * real ClickHouse (chDB, the same engine code as the server). What it verifies: the client's
 * real wire traffic (URL parameters, `param_*` binding, settings, request bodies, streamed
 * inserts, error bodies and codes) and real ClickHouse execution of our SQL. What it cannot
 * verify: server-only behaviour (users and grants, replication and Distributed tables,
 * async_insert, HTTP compression negotiation beyond gzip, server-side session state).
 *
 * Semantics follow the server: the statement is the `query` URL parameter followed by the
 * request body; URL parameters other than the protocol's own are settings. A binary insert
 * (`INSERT INTO t (columns) FORMAT RowBinary` with the rows as the body) is read as the server
 * reads it, with the named columns' types from `system.columns`: the body goes to a file that
 * chDB's file() reads with that structure.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Session } from 'chdb';
import { listenOnLoopback } from './loopback.js';

const PROTOCOL_PARAMS = new Set([
  'query',
  'query_id',
  'database',
  'session_id',
  'role',
  'default_format',
  'user',
  'password',
]);

export interface ClickHouseShim {
  url: string;
  /** Statements executed, for tests that assert on traffic. */
  statements: string[];
  close(): Promise<void>;
}

export async function startClickHouseShim(session: Session): Promise<ClickHouseShim> {
  const statements: string[] = [];
  let currentDatabase = 'default';
  // chDB keeps one current database per session: requests run one at a time.
  let queue: Promise<unknown> = Promise.resolve();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      queue = queue.then(() => handle(req, Buffer.concat(chunks), res)).catch(() => undefined);
    });
  });

  async function handle(req: http.IncomingMessage, rawBody: Buffer, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://shim');
    if (url.pathname === '/ping') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('Ok.\n');
      return;
    }
    const body = req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(rawBody) : rawBody;
    const params: Record<string, string> = {};
    const settings: Record<string, string> = {};
    for (const [key, value] of url.searchParams) {
      if (key.startsWith('param_')) params[key.slice('param_'.length)] = value;
      else if (!PROTOCOL_PARAMS.has(key)) settings[key] = value;
    }
    const queryParam = url.searchParams.get('query') ?? '';
    const binaryInsert = /^\s*INSERT INTO (\w+) \(([\w, ]+)\) FORMAT (RowBinary)\s*$/i.exec(queryParam);
    if (binaryInsert) {
      await insertBinary(url.searchParams.get('database') ?? 'default', binaryInsert, body, settings, res);
      return;
    }
    const bound = bindParams(
      withSettings(queryParam ? `${queryParam}\n${body.toString('utf8')}` : body.toString('utf8'), settings),
      params,
    );
    const sql = bound.sql;
    statements.push(sql);
    try {
      const database = url.searchParams.get('database') ?? 'default';
      if (database !== currentDatabase) {
        session.query(`USE \`${database}\``);
        currentDatabase = database;
      }
      const result = await session.queryBindAsync(sql, bound.params, { format: 'TabSeparated' });
      const output = Buffer.from(result.bytes());
      const gzip =
        settings.enable_http_compression === '1' && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      res.writeHead(200, {
        'Content-Type': 'text/plain; charset=UTF-8',
        'X-ClickHouse-Summary': JSON.stringify({
          read_rows: String(result.rowsRead),
          read_bytes: String(result.bytesRead),
        }),
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
      });
      res.end(gzip ? zlib.gzipSync(output) : output);
    } catch (error) {
      answerError(res, error);
    }
  }

  function answerError(res: http.ServerResponse, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const code =
      (error as { clickhouseCode?: number }).clickhouseCode ?? Number(/Code: (\d+)/.exec(message)?.[1] ?? 1001);
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Exception-Code': String(code) });
    res.end(message.startsWith('Code:') ? message : `Code: ${code}. DB::Exception: ${message}`);
  }

  async function insertBinary(
    database: string,
    [, table, columnList, format]: RegExpExecArray,
    body: Buffer,
    settings: Record<string, string>,
    res: http.ServerResponse,
  ): Promise<void> {
    const columns = columnList!.split(',').map((column) => column.trim());
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-shim-insert-')), 'rows');
    try {
      const described = await session.queryBindAsync(
        'SELECT name, type FROM system.columns WHERE database = {db:String} AND table = {table:String}',
        { db: database, table: table! },
        { format: 'JSONEachRow' },
      );
      const types = new Map(
        described
          .text()
          .split('\n')
          .filter(Boolean)
          .map((line) => {
            const { name, type } = JSON.parse(line) as { name: string; type: string };
            return [name, type] as const;
          }),
      );
      const structure = columns.map((column) => `${column} ${types.get(column) ?? 'unknown column'}`).join(', ');
      fs.writeFileSync(file, body);
      // The URL's settings apply to the insert, as on the server (a SETTINGS clause after its columns).
      const assignments = Object.entries(settings).map(
        ([key, value]) => `${key} = ${/^-?\d+$/.test(value) ? value : `'${value.replace(/'/g, "\\'")}'`}`,
      );
      const clause = assignments.length > 0 ? ` SETTINGS ${assignments.join(', ')}` : '';
      const sql = `INSERT INTO \`${database}\`.${table} (${columns.join(', ')})${clause} SELECT * FROM file('${file}', '${format}', '${structure.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}')`;
      statements.push(sql);
      await session.queryAsync(sql, { format: 'Null' });
      res
        .writeHead(200, {
          'Content-Type': 'text/plain; charset=UTF-8',
          'X-ClickHouse-Summary': JSON.stringify({ written_rows: '0' }),
        })
        .end();
    } catch (error) {
      answerError(res, error);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }

  const { url } = await listenOnLoopback(server);
  return {
    url,
    statements,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** URL settings become a SETTINGS clause: before a SELECT's trailing FORMAT, or an INSERT's FORMAT. */
function withSettings(sql: string, settings: Record<string, string>): string {
  const entries = Object.entries(settings);
  if (entries.length === 0) return sql;
  const clause = `SETTINGS ${entries.map(([k, v]) => `${k} = ${/^-?\d+(\.\d+)?$/.test(v) ? v : `'${v.replace(/'/g, "\\'")}'`}`).join(', ')}`;
  if (/^\s*INSERT\b/i.test(sql)) return sql.replace(/\sFORMAT\s+\w+/i, (format) => ` ${clause}${format}`);
  if (!/^\s*(SELECT|WITH)\b/i.test(sql)) return sql;
  const format = /\s+FORMAT\s+\w+\s*$/i.exec(sql);
  return format ? `${sql.slice(0, format.index)}\n${clause}${format[0]}` : `${sql}\n${clause}`;
}

/**
 * The server parses each `param_*` text with its declared type's escaped-format reader. chDB's
 * binder takes JS values and escapes strings itself, so: a scalar's text is unescaped once
 * (chDB escapes it again); a composite's text (Array, Map, Tuple) is passed as a String and
 * parsed by CAST, which reads the same quoted literal syntax the client produced.
 */
function bindParams(sql: string, httpParams: Record<string, string>): { sql: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const rewritten = sql.replace(
    /\{(\w+):((?:[^{}()]|\([^()]*(?:\([^()]*\)[^()]*)*\))+)\}/g,
    (placeholder, name: string, type: string) => {
      const text = httpParams[name];
      if (text === undefined) return placeholder;
      if (/^\s*(Array|Map|Tuple|Nested)\s*\(/.test(type)) {
        params[name] = text;
        return `CAST({${name}:String} AS ${type})`;
      }
      params[name] = unescapeTsv(text);
      return placeholder;
    },
  );
  return { sql: rewritten, params };
}

function unescapeTsv(value: string): string {
  const escapes: Record<string, string> = { b: '\b', f: '\f', r: '\r', n: '\n', t: '\t', '0': '\0' };
  return value.replace(/\\(.)/gs, (_, c: string) => escapes[c] ?? c);
}
