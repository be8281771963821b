/**
 * The telemetry store's shared suite: the same cases run against every TelemetryEngine
 * (chDB in-process, and ClickHouse over HTTP), in the manner of Hono's shared test cases.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { RESOURCE_LIMIT_CODES, TelemetryQueryError, type TelemetryEngine } from '../../src/store/telemetry/engine.js';
import { migrateTelemetry, readMigrations, TELEMETRY_MIGRATIONS_DIR } from '../../src/store/telemetry/migrate.js';
import {
  encodeRows,
  ENDPOINT_ROWS,
  layoutFormat,
  ROW_FORMATS,
  rowsOf,
  SESSION_ROWS,
  SPAN_ROWS,
} from '../../src/store/telemetry/rows.js';
import { GroupCommitWriter, WriteFailedError } from '../../src/store/telemetry/writer.js';
import { NIL_UUID, type EndpointRecord } from '../../src/core/records.js';

const PROJECT = '6f1c5b0e-1111-4000-8000-000000000001';
/** Rows older than the retention TTL are dropped on insert, so test data is recent. */
/** The tables rows are written to (each with its row format), sorted. */
const WRITTEN_TABLES = [
  'ai_traces',
  'endpoints',
  'exceptions',
  'logs',
  'metric_points',
  'profiles',
  'rollup_hours',
  'session_recordings',
  'sessions',
  'spans',
  'tasks',
];

const RECENT = (BigInt(Date.now()) - 3_600_000n) * 1_000_000n + 123_456_789n;

export function endpoint(overrides: Partial<EndpointRecord> = {}): EndpointRecord {
  return {
    projectId: PROJECT,
    id: '0b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f50',
    distributedTraceId: '0b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f50',
    parentSpanId: NIL_UUID,
    isRoot: true,
    recordedAt: RECENT,
    durationNs: 9007199254740993n,
    serverName: 'api-1',
    appVersion: '1.2.3',
    attributes: { 'user.id': '42', quote: 'it\'s "quoted"' },
    source: 'report',
    name: 'GET /users/:id',
    method: 'GET',
    route: '/users/:id',
    statusCode: 200,
    bodySize: 512,
    clientIp: '203.0.113.9',
    streaming: false,
    ...overrides,
  };
}

const NO_SUCH_TABLE = layoutFormat<{ a: number }>('no_such_table', { a: 'UInt8' });

/** A table of every column type the row formats use; its column names are its record's fields. */
const TIME = "DateTime64(9, 'UTC')";
const EVERY_TYPE = layoutFormat<EveryType>('every_type', {
  ...{
    k: 'UInt32',
    s: 'String',
    lc: 'LowCardinality(String)',
    fs: 'FixedString(16)',
    u: 'UUID',
    b: 'Bool',
    u8: 'UInt8',
    u16: 'UInt16',
    u32: 'UInt32',
  },
  ...{
    u64: 'UInt64',
    i64: 'Int64',
    f: 'Float64',
    d: 'Date',
    dt: "DateTime('UTC')",
    t: TIME,
    nt: `Nullable(${TIME})`,
    ni: 'Nullable(Int64)',
  },
  ...{
    m: 'Map(String, String)',
    ml: 'Map(LowCardinality(String), String)',
    a: `Array(Tuple(time ${TIME}, name String, attributes Map(String, String)))`,
  },
});

interface EveryType {
  k: number;
  s: string;
  lc: string;
  fs: string;
  u: string;
  b: boolean;
  u8: number;
  u16: number;
  u32: number;
  u64: number | bigint;
  i64: number | bigint;
  f: number;
  d: string;
  dt: number;
  t: bigint;
  nt: bigint | null;
  ni: bigint | null;
  m: Record<string, string>;
  ml: Record<string, string>;
  a: Array<{ time: bigint; name: string; attributes: Record<string, string> }>;
}

/** Every UTF-16 unit that is not half a surrogate pair, then every astral plane's first character. */
const EVERY_CHARACTER =
  Array.from({ length: 0x10000 }, (_, c) => (c >= 0xd800 && c <= 0xdfff ? '' : String.fromCharCode(c))).join('') +
  Array.from({ length: 16 }, (_, plane) => String.fromCodePoint((plane + 1) * 0x10000)).join('');

const everyTypeRecords: EveryType[] = [
  {
    ...{
      k: 1,
      s: '',
      lc: '',
      fs: '',
      u: '00000000-0000-0000-0000-000000000000',
      b: false,
      u8: 0,
      u16: 0,
      u32: 0,
      u64: 0,
      i64: 0,
      f: 0,
      d: '1970-01-01',
    },
    ...{ dt: 0, t: -2_208_988_800_000_000_000n, nt: null, ni: null, m: {}, ml: {}, a: [] },
  },
  {
    ...{
      k: 2,
      s: EVERY_CHARACTER,
      lc: 'é\n\t\0"\'\\',
      fs: '0123456789abcdef',
      u: 'FFFFFFFF-ffff-4fff-bfff-ffffffffffff',
      b: true,
      u8: 255,
      u16: 65_535,
    },
    ...{
      u32: 4_294_967_295,
      u64: 2n ** 64n - 1n,
      i64: -(2n ** 63n),
      f: -0,
      d: '2149-06-06',
      dt: 4_294_967_295,
      t: 2n ** 63n - 1n,
    },
    ...{
      nt: -1n,
      ni: 2n ** 63n - 1n,
      m: { '': '', 'a\u0000b': 'x'.repeat(300), '🙂': 'ünïcödé' },
      ml: { k: 'v', '\n': '\r' },
    },
    a: [
      { time: 0n, name: '', attributes: {} },
      { time: 999_999_999_999_999_999n, name: 'exception "x"', attributes: { 'exception.message': 'boom\n' } },
    ],
  },
  {
    ...{
      k: 3,
      s: 'ascii only',
      lc: 'x'.repeat(127),
      fs: 'short',
      u: '0b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f50',
      b: true,
      u8: 7,
      u16: 300,
      u32: 70_000,
    },
    ...{
      u64: 2 ** 53 + 2,
      i64: -5,
      f: 1.5e-300,
      d: '2026-11-01',
      dt: 1_764_000_000,
      t: RECENT,
      nt: 1_000_000_000_000_000_000n,
      ni: -(2n ** 63n),
    },
    ...{
      m: { [EVERY_CHARACTER.slice(0, 20_000)]: EVERY_CHARACTER.slice(40_000) },
      ml: {},
      a: [{ time: RECENT, name: 'n', attributes: { x: 'y' } }],
    },
  },
];

const hex = (value: string): string => Buffer.from(value).toString('hex').toUpperCase();
const hexPairsOf = (map: Record<string, string>): string[][] =>
  Object.entries(map).map(([key, value]) => [hex(key), hex(value)]);

/** What the read-back query gives for a record, computed from the record on the JavaScript side. */
function expectedEveryType(r: EveryType): Record<string, unknown> {
  const float = Buffer.alloc(8);
  float.writeDoubleLE(r.f);
  return {
    ...{
      k: r.k,
      s: hex(r.s),
      lc: hex(r.lc),
      fs: hex(r.fs).padEnd(32, '0'),
      u: r.u.toLowerCase(),
      b: r.b,
      u8: String(r.u8),
      u16: String(r.u16),
      u32: String(r.u32),
    },
    ...{
      u64: String(r.u64),
      i64: String(r.i64),
      f: float.toString('hex').toUpperCase(),
      d: r.d,
      dt: String(r.dt),
      t: String(r.t),
    },
    ...{
      nt: r.nt === null ? null : String(r.nt),
      ni: r.ni === null ? null : String(r.ni),
      m: hexPairsOf(r.m),
      ml: hexPairsOf(r.ml),
    },
    a: r.a.map((e) => [String(e.time), hex(e.name), hexPairsOf(e.attributes)]),
  };
}

async function catalog(engine: TelemetryEngine): Promise<unknown[]> {
  return engine.query(
    `SELECT table, name, type, position FROM system.columns WHERE database = currentDatabase() ORDER BY table, position`,
  );
}

export function telemetryEngineContract(
  name: string,
  open: () => Promise<TelemetryEngine & { dispose?: () => Promise<void> }>,
): void {
  describe(`telemetry store: ${name}`, () => {
    let engine: TelemetryEngine & { dispose?: () => Promise<void> };

    beforeAll(async () => {
      engine = await open();
    });
    afterAll(async () => {
      await engine?.close();
      await engine?.dispose?.();
    });

    it('reports its engine name', () => {
      expect(engine.engine).toBe(name);
    });

    it('migrates a fresh database, and a second run changes nothing', async () => {
      const first = await migrateTelemetry(engine);
      expect(first.applied.length).toBe(readMigrations(TELEMETRY_MIGRATIONS_DIR).length);
      const before = await catalog(engine);
      const second = await migrateTelemetry(engine);
      expect(second.applied).toEqual([]);
      expect(second.alreadyApplied).toBe(first.applied.length);
      expect(await catalog(engine)).toEqual(before);
      const recorded = await engine.query<{ n: number }>('SELECT count() AS n FROM schema_migrations FINAL');
      expect(recorded[0]?.n).toBe(first.applied.length);
    });

    it('refuses a landed migration whose text changed', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-migrations-'));
      onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
      for (const file of fs.readdirSync(TELEMETRY_MIGRATIONS_DIR)) {
        fs.copyFileSync(path.join(TELEMETRY_MIGRATIONS_DIR, file), path.join(dir, file));
      }
      const first = fs.readdirSync(dir).sort()[0]!;
      fs.appendFileSync(path.join(dir, first), '\n-- edited after landing\n');
      await expect(migrateTelemetry(engine, dir)).rejects.toThrow(/changed after it was applied/);
    });

    it('starts every telemetry sort key with project_id and gives every table a TTL', async () => {
      const tables = await engine.query<{ name: string; sorting_key: string; engine_full: string }>(
        `SELECT name, sorting_key, engine_full FROM system.tables WHERE database = currentDatabase() AND name != 'schema_migrations'`,
      );
      // The written tables, the hourly rollup of endpoints (a job fills it from endpoints), and
      // the usage earlier versions wrote here (now in the metadata store; still read).
      expect(tables.map((t) => t.name).sort()).toEqual([...WRITTEN_TABLES, 'endpoint_hourly', 'ingest_usage'].sort());
      for (const table of tables) {
        expect(table.sorting_key, table.name).toMatch(/^project_id,/);
        expect(table.engine_full, table.name).toMatch(/TTL /);
      }
    });

    it('every row format fills columns of its table: all of them, but for those a default fills', async () => {
      const columns = await engine.query<{ table: string; name: string; default_kind: string }>(
        "SELECT table, name, default_kind FROM system.columns WHERE database = currentDatabase() AND table != 'schema_migrations' ORDER BY table, position",
      );
      expect(ROW_FORMATS.map((format) => format.table).sort()).toEqual(WRITTEN_TABLES);
      for (const { table, columns: filled } of ROW_FORMATS) {
        const ofTable = columns.filter((column) => column.table === table);
        const required = ofTable.filter((column) => column.default_kind === '').map((column) => column.name);
        expect(
          filled.filter((name) => !ofTable.some((column) => column.name === name)),
          `${table}: unknown columns`,
        ).toEqual([]);
        expect(
          required.filter((name) => !filled.includes(name)),
          `${table}: columns left empty`,
        ).toEqual([]);
      }
    });

    it('declares every row format column with the type the migrated table has (the encoder is generated from it)', async () => {
      const columns = await engine.query<{ table: string; name: string; type: string }>(
        "SELECT table, name, type FROM system.columns WHERE database = currentDatabase() AND table != 'schema_migrations'",
      );
      for (const format of ROW_FORMATS) {
        const declared = format.structure;
        const migrated = format.columns
          .map((column) => `${column} ${columns.find((c) => c.table === format.table && c.name === column)?.type}`)
          .join(', ');
        expect(declared, format.table).toBe(migrated);
      }
    });

    it('round-trips every column type through RowBinary: any string, maps, arrays, nullables, the whole DateTime64(9) range, 64-bit integers', async () => {
      await engine.command(
        `CREATE TABLE IF NOT EXISTS every_type (k UInt32, ${EVERY_TYPE.structure.replace(/^k UInt32, /, '')}) ENGINE = MergeTree ORDER BY k`,
      );
      await engine.insertRows(EVERY_TYPE, encodeRows(EVERY_TYPE, everyTypeRecords.slice(0, 2)));
      // The same through the group-commit writer, as ingest writes.
      const writer = new GroupCommitWriter(engine, { maxRows: 10_000, flushMs: 1 });
      await writer.write([rowsOf(EVERY_TYPE, everyTypeRecords.slice(2))]);
      await writer.close();
      const hexPairs = (m: string) =>
        `arrayMap((key, value) -> (hex(key), hex(value)), mapKeys(${m}), mapValues(${m}))`;
      const rows = await engine.query<Record<string, unknown>>(
        `SELECT k, hex(s) AS s, hex(lc) AS lc, hex(fs) AS fs, toString(u) AS u, b, toString(u8) AS u8, toString(u16) AS u16, toString(u32) AS u32,
                toString(u64) AS u64, toString(i64) AS i64, hex(f) AS f, toString(d) AS d, toString(toUnixTimestamp(dt)) AS dt,
                toString(toUnixTimestamp64Nano(t)) AS t, if(isNull(nt), NULL, toString(toUnixTimestamp64Nano(assumeNotNull(nt)))) AS nt, toString(ni) AS ni,
                ${hexPairs('m')} AS m, ${hexPairs('ml')} AS ml,
                arrayMap(e -> (toString(toUnixTimestamp64Nano(e.time)), hex(e.name), ${hexPairs('e.attributes')}), a) AS a
           FROM every_type ORDER BY k`,
      );
      expect(rows).toEqual(everyTypeRecords.map(expectedEveryType));
    });

    it('stores one insert whose rows span more than 100 monthly partitions (a group commit of replayed or mis-clocked records)', async () => {
      const MONTH_NS = 30n * 86_400n * 1_000_000_000n;
      const records = Array.from({ length: 150 }, (_, i) =>
        endpoint({
          id: `7d1e0c4a-0000-4000-8000-${String(i).padStart(12, '0')}`,
          recordedAt: RECENT + BigInt(i) * MONTH_NS,
        }),
      );
      await engine.insertRows(ENDPOINT_ROWS, encodeRows(ENDPOINT_ROWS, records));
      const [stored] = await engine.query<{ rows: number; months: number }>(
        `SELECT count() AS rows, uniqExact(toYYYYMM(recorded_at)) AS months FROM endpoints
         WHERE project_id = {project:UUID} AND startsWith(toString(id), '7d1e0c4a-')`,
        { project: PROJECT },
      );
      expect(stored).toEqual({ rows: 150, months: expect.any(Number) });
      expect(stored!.months).toBeGreaterThan(100);
    });

    it('round-trips a row: nanoseconds, int64 beyond 2^53, maps and quotes', async () => {
      await engine.insertRows(ENDPOINT_ROWS, encodeRows(ENDPOINT_ROWS, [endpoint()]));
      const rows = await engine.query<Record<string, unknown>>(
        `SELECT toString(toUnixTimestamp64Nano(recorded_at)) AS at, toString(duration_ns) AS duration, attributes, status_code, is_root
         FROM endpoints FINAL WHERE project_id = {project:UUID} AND id = {id:UUID}`,
        { project: PROJECT, id: endpoint().id },
      );
      expect(rows).toEqual([
        {
          at: RECENT.toString(),
          duration: '9007199254740993',
          attributes: endpoint().attributes,
          status_code: 200,
          is_root: true,
        },
      ]);
    });

    it('looks an entity up by id or distributed trace id through its skip index, not every granule of the project', async () => {
      const project = '6f1c5b0e-1111-4000-8000-0000000000aa';
      // 30,000 calls of 1,000 names in one hour: the sort key (project, hour, name, id) cannot
      // narrow an id to a granule, so only the bloom filter of migration 0003 can.
      await engine.command(
        `INSERT INTO endpoints (project_id, id, distributed_trace_id, recorded_at, name)
         SELECT toUUID({project:String}), reinterpretAsUUID(reinterpretAsFixedString(cityHash64(number, 1)) || reinterpretAsFixedString(cityHash64(number, 2))),
                reinterpretAsUUID(reinterpretAsFixedString(cityHash64(number, 3)) || reinterpretAsFixedString(cityHash64(number, 4))),
                now64(9, 'UTC') - INTERVAL 1 HOUR, concat('GET /r', toString(number % 1000))
           FROM numbers(30000)`,
        { project },
      );
      const [wanted] = await engine.query<{ id: string; dt: string }>(
        'SELECT toString(id) AS id, toString(distributed_trace_id) AS dt FROM endpoints WHERE project_id = {project:UUID} ORDER BY name, id LIMIT 1 OFFSET 12345',
        { project },
      );
      for (const [column, value] of [
        ['id', wanted!.id],
        ['distributed_trace_id', wanted!.dt],
      ] as const) {
        const plan = (
          await engine.query<{ explain: string }>(
            `EXPLAIN indexes = 1 SELECT id FROM endpoints FINAL WHERE project_id = {project:UUID} AND ${column} = {value:UUID}`,
            { project, value },
          )
        ).map((row) => row.explain.trim());
        const skip = plan.indexOf(`Name: ${column}_set`);
        expect(skip, plan.join('\n')).toBeGreaterThan(0);
        const granules = plan
          .slice(skip)
          .find((line) => line.startsWith('Granules:'))!
          .match(/Granules: (\d+)\/(\d+)/)!;
        expect(Number(granules[2]), plan.join('\n')).toBeGreaterThanOrEqual(3);
        expect(Number(granules[1]), plan.join('\n')).toBe(1);
        const found = await engine.query<{ n: number }>(
          `SELECT count() AS n FROM endpoints FINAL WHERE project_id = {project:UUID} AND ${column} = {value:UUID}`,
          { project, value },
        );
        expect(found[0]?.n).toBe(1);
      }
    });

    it('round-trips a span with its events (a named tuple in an array)', async () => {
      const span = {
        projectId: PROJECT,
        traceId: '3b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f53',
        spanId: '00000000-0000-0000-a000-000000000001',
        parentSpanId: '00000000-0000-0000-0000-000000000000',
        name: 'db "query"',
        kind: 'CLIENT' as const,
        startTime: RECENT,
        durationNs: 5n,
        statusCode: 2,
        attributes: { 'db.system': 'postgresql' },
        events: [{ time: RECENT + 1n, name: 'exception', attributes: { 'exception.message': 'boom\n' } }],
      };
      await engine.insertRows(SPAN_ROWS, encodeRows(SPAN_ROWS, [span]));
      const rows = await engine.query<Record<string, unknown>>(
        `SELECT name, status_code, attributes, arrayMap(e -> (toString(toUnixTimestamp64Nano(e.1)), e.2, e.3), events) AS events
           FROM spans FINAL WHERE project_id = {project:UUID} AND trace_id = {trace:UUID}`,
        { project: PROJECT, trace: span.traceId },
      );
      expect(rows).toEqual([
        {
          name: 'db "query"',
          status_code: 2,
          attributes: span.attributes,
          events: [[(RECENT + 1n).toString(), 'exception', { 'exception.message': 'boom\n' }]],
        },
      ]);
    });

    it('deduplicates a re-sent record by its id', async () => {
      const again = endpoint({ id: '1b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f51' });
      await engine.insertRows(ENDPOINT_ROWS, encodeRows(ENDPOINT_ROWS, [again]));
      await engine.insertRows(ENDPOINT_ROWS, encodeRows(ENDPOINT_ROWS, [again]));
      const rows = await engine.query<{ n: number }>('SELECT count() AS n FROM endpoints FINAL WHERE id = {id:UUID}', {
        id: again.id,
      });
      expect(rows[0]?.n).toBe(1);
    });

    it('keeps the latest write of an upserted session', async () => {
      const id = '2b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f52';
      const startedAt = BigInt(Date.now()) * 1_000_000n;
      const base = { projectId: PROJECT, id, startedAt, clientIp: '1.1.1.1', distributedTraceId: NIL_UUID };
      await engine.insertRows(
        SESSION_ROWS,
        encodeRows(SESSION_ROWS, [
          { ...base, endedAt: null, durationNs: null, attributes: { v: 'open' }, updatedAt: startedAt + 10n },
        ]),
      );
      await engine.insertRows(
        SESSION_ROWS,
        encodeRows(SESSION_ROWS, [
          { ...base, endedAt: startedAt + 5n, durationNs: 5n, attributes: { v: 'closed' }, updatedAt: startedAt + 20n },
        ]),
      );
      const rows = await engine.query<{ v: string; duration: number }>(
        `SELECT attributes['v'] AS v, duration_ns AS duration FROM sessions FINAL WHERE id = {id:UUID}`,
        { id },
      );
      expect(rows).toEqual([{ v: 'closed', duration: 5 }]);
    });

    it('keeps a parameter one value (values never become SQL)', async () => {
      const hostile = "x' OR 1=1 --";
      const rows = await engine.query<{ v: string; a: string[] }>('SELECT {v:String} AS v, {a:Array(String)} AS a', {
        v: hostile,
        a: [hostile, 'b'],
      });
      expect(rows).toEqual([{ v: hostile, a: [hostile, 'b'] }]);
    });

    it('maps a failed statement to TelemetryQueryError with the ClickHouse code', async () => {
      const error = await engine.query('SELECT no_such_column FROM endpoints').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TelemetryQueryError);
      expect((error as TelemetryQueryError).code).toBe(47);
    });

    it('reports a resource limit as a resource-limit code, not a generic failure', async () => {
      const error = await engine
        .query('SELECT count() FROM numbers(10000000)', {}, { max_rows_to_read: 1000 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TelemetryQueryError);
      expect(RESOURCE_LIMIT_CODES.has((error as TelemetryQueryError).code ?? -1)).toBe(true);
    });

    it('takes concurrent writes through the group-commit writer as fewer, larger inserts', async () => {
      const flushes: number[] = [];
      const writer = new GroupCommitWriter(engine, {
        maxRows: 10_000,
        flushMs: 20,
        onFlush: (e) => flushes.push(e.rows),
      });
      const records = Array.from({ length: 200 }, (_, i) =>
        endpoint({ id: `3b7f3a52-2d1c-4f6e-9a77-${String(i).padStart(12, '0')}`, name: 'POST /batch' }),
      );
      await Promise.all(records.map((r) => writer.write([rowsOf(ENDPOINT_ROWS, [r])])));
      await writer.close();
      const rows = await engine.query<{ n: number }>(
        `SELECT count() AS n FROM endpoints FINAL WHERE name = 'POST /batch'`,
      );
      expect(rows[0]?.n).toBe(200);
      expect(flushes.reduce((a, b) => a + b, 0)).toBe(200);
      expect(flushes.length).toBeLessThan(200);
    });

    it('refuses a row with a column the table does not have', async () => {
      const format = layoutFormat<EndpointRecord & { noSuchColumn: number }>('endpoints', {
        ...Object.fromEntries(ENDPOINT_ROWS.columns.map((column, i) => [column, ENDPOINT_ROWS.types[i]!])),
        no_such_column: 'UInt8',
      });
      expect(format.columns.length).toBe(ENDPOINT_ROWS.columns.length + 1);
      await expect(
        engine.insertRows(format, encodeRows(format, [{ ...endpoint(), noSuchColumn: 1 }])),
      ).rejects.toBeInstanceOf(TelemetryQueryError);
    });

    it('refuses a request with a record its column types refuse, alone: none of its rows in any table, others stored', async () => {
      const writer = new GroupCommitWriter(engine, { maxRows: 10_000, flushMs: 5 });
      const good = endpoint({ id: '5b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f55', name: 'GET /good' });
      const sameInsert = endpoint({ id: '5b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f56', name: 'GET /same-insert' });
      const session = {
        projectId: PROJECT,
        id: '5b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f57',
        startedAt: RECENT,
        endedAt: null,
        durationNs: null,
        clientIp: '',
        attributes: {},
        distributedTraceId: NIL_UUID,
        updatedAt: RECENT,
      };
      const outcomes = await Promise.allSettled([
        // Its session row is encoded before the refused endpoint: it must not be stored either.
        writer.write([
          rowsOf(SESSION_ROWS, [session]),
          rowsOf(ENDPOINT_ROWS, [
            endpoint({ id: '5b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f58', name: 'GET /refused' }),
            endpoint({ id: 'not a uuid' }),
          ]),
        ]),
        writer.write([rowsOf(ENDPOINT_ROWS, [sameInsert])]),
        writer.write([rowsOf(ENDPOINT_ROWS, [good])]),
      ]);
      await writer.close();
      expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: expect.any(WriteFailedError) });
      const refusal = (outcomes[0] as PromiseRejectedResult).reason as WriteFailedError;
      expect(refusal.cause).toBeInstanceOf(RangeError);
      expect(refusal.retryable).toBe(false);
      expect(refusal.message).toMatch(/endpoints record/);
      expect(outcomes.slice(1)).toEqual([
        { status: 'fulfilled', value: undefined },
        { status: 'fulfilled', value: undefined },
      ]);
      const endpoints = await engine.query<{ name: string }>(
        `SELECT name FROM endpoints FINAL WHERE name IN ('GET /good', 'GET /same-insert', 'GET /refused') ORDER BY name`,
      );
      expect(endpoints.map((r) => r.name)).toEqual(['GET /good', 'GET /same-insert']);
      const sessions = await engine.query<{ n: number }>(
        'SELECT count() AS n FROM sessions FINAL WHERE id = {id:UUID}',
        {
          id: session.id,
        },
      );
      expect(sessions[0]?.n).toBe(0);
    });

    it('rejects every request of a failed insert with WriteFailedError, and nothing else', async () => {
      const writer = new GroupCommitWriter(engine, { maxRows: 10_000, flushMs: 5 });
      const good = endpoint({ id: '4b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f54', name: 'GET /still-fine' });
      const outcomes = await Promise.allSettled([
        writer.write([rowsOf(NO_SUCH_TABLE, [{ a: 1 }])]),
        writer.write([rowsOf(NO_SUCH_TABLE, [{ a: 2 }])]),
        writer.write([rowsOf(ENDPOINT_ROWS, [good])]),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
      for (const outcome of outcomes.slice(0, 2)) {
        const reason = (outcome as PromiseRejectedResult).reason as WriteFailedError;
        expect(reason).toBeInstanceOf(WriteFailedError);
        expect(reason.cause).toBeInstanceOf(TelemetryQueryError);
      }
      await writer.close();
      await expect(writer.write([rowsOf(ENDPOINT_ROWS, [good])])).rejects.toThrow(/shutting down/);
      const rows = await engine.query<{ n: number }>('SELECT count() AS n FROM endpoints FINAL WHERE id = {id:UUID}', {
        id: good.id,
      });
      expect(rows[0]?.n).toBe(1);
    });

    it('answers ping', async () => {
      await expect(engine.ping()).resolves.toBeUndefined();
    });
  });
}
