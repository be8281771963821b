/**
 * The telemetry store's shared suite: the same cases run against every TelemetryEngine
 * (chDB in-process, and ClickHouse over HTTP), in the manner of Hono's shared test cases.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_LIMIT_CODES, TelemetryQueryError, type TelemetryEngine } from '../../src/store/telemetry/engine.js';
import { migrateTelemetry, readMigrations, TELEMETRY_MIGRATIONS_DIR } from '../../src/store/telemetry/migrate.js';
import { columnsOf, endpointRow, sessionRow, spanRow } from '../../src/store/telemetry/rows.js';
import { GroupCommitWriter, WriteFailedError } from '../../src/store/telemetry/writer.js';
import { NIL_UUID, type EndpointRecord } from '../../src/core/records.js';

const PROJECT = '6f1c5b0e-1111-4000-8000-000000000001';
/** Rows older than the retention TTL are dropped on insert, so test data is recent. */
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
    attributes: { 'user.id': '42', quote: "it's \"quoted\"" },
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

async function catalog(engine: TelemetryEngine): Promise<unknown[]> {
  return engine.query(
    `SELECT table, name, type, position FROM system.columns WHERE database = currentDatabase() ORDER BY table, position`,
  );
}

export function telemetryEngineContract(name: string, open: () => Promise<TelemetryEngine & { dispose?: () => Promise<void> }>): void {
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
      expect(tables.map((t) => t.name).sort()).toEqual(
        ['ai_traces', 'endpoint_hourly', 'endpoints', 'exceptions', 'ingest_usage', 'logs', 'metric_points', 'profiles', 'rollup_hours', 'session_recordings', 'sessions', 'spans', 'tasks'],
      );
      for (const table of tables) {
        expect(table.sorting_key, table.name).toMatch(/^project_id,/);
        expect(table.engine_full, table.name).toMatch(/TTL /);
      }
    });

    it('every row format fills columns of its table: all of them, but for those a default fills', async () => {
      const columns = await engine.query<{ table: string; name: string; default_kind: string }>(
        "SELECT table, name, default_kind FROM system.columns WHERE database = currentDatabase() AND table != 'schema_migrations' ORDER BY table, position",
      );
      const written = ['endpoints', 'tasks', 'ai_traces', 'spans', 'exceptions', 'metric_points', 'logs', 'sessions', 'session_recordings', 'profiles', 'ingest_usage', 'rollup_hours'];
      for (const table of written) {
        const ofTable = columns.filter((column) => column.table === table);
        const required = ofTable.filter((column) => column.default_kind === '').map((column) => column.name);
        const filled = columnsOf(table);
        expect(filled.filter((name) => !ofTable.some((column) => column.name === name)), `${table}: unknown columns`).toEqual([]);
        expect(required.filter((name) => !filled.includes(name)), `${table}: columns left empty`).toEqual([]);
      }
    });

    it('round-trips a row: nanoseconds, int64 beyond 2^53, maps and quotes', async () => {
      await engine.insertRows('endpoints', Buffer.from(`${endpointRow(endpoint())}\n`));
      const rows = await engine.query<Record<string, unknown>>(
        `SELECT toString(toUnixTimestamp64Nano(recorded_at)) AS at, toString(duration_ns) AS duration, attributes, status_code, is_root
         FROM endpoints FINAL WHERE project_id = {project:UUID} AND id = {id:UUID}`,
        { project: PROJECT, id: endpoint().id },
      );
      expect(rows).toEqual([
        { at: RECENT.toString(), duration: '9007199254740993', attributes: endpoint().attributes, status_code: 200, is_root: true },
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
      for (const [column, value] of [['id', wanted!.id], ['distributed_trace_id', wanted!.dt]] as const) {
        const plan = (
          await engine.query<{ explain: string }>(`EXPLAIN indexes = 1 SELECT id FROM endpoints FINAL WHERE project_id = {project:UUID} AND ${column} = {value:UUID}`, { project, value })
        ).map((row) => row.explain.trim());
        const skip = plan.indexOf(`Name: ${column}_set`);
        expect(skip, plan.join('\n')).toBeGreaterThan(0);
        const granules = plan.slice(skip).find((line) => line.startsWith('Granules:'))!.match(/Granules: (\d+)\/(\d+)/)!;
        expect(Number(granules[2]), plan.join('\n')).toBeGreaterThanOrEqual(3);
        expect(Number(granules[1]), plan.join('\n')).toBe(1);
        const found = await engine.query<{ n: number }>(`SELECT count() AS n FROM endpoints FINAL WHERE project_id = {project:UUID} AND ${column} = {value:UUID}`, { project, value });
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
      await engine.insertRows('spans', Buffer.from(`${spanRow(span)}\n`));
      const rows = await engine.query<Record<string, unknown>>(
        `SELECT name, status_code, attributes, arrayMap(e -> (toString(toUnixTimestamp64Nano(e.1)), e.2, e.3), events) AS events
           FROM spans FINAL WHERE project_id = {project:UUID} AND trace_id = {trace:UUID}`,
        { project: PROJECT, trace: span.traceId },
      );
      expect(rows).toEqual([{ name: 'db "query"', status_code: 2, attributes: span.attributes, events: [[(RECENT + 1n).toString(), 'exception', { 'exception.message': 'boom\n' }]] }]);
    });

    it('deduplicates a re-sent record by its id', async () => {
      const again = endpoint({ id: '1b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f51' });
      await engine.insertRows('endpoints', Buffer.from(`${endpointRow(again)}\n`));
      await engine.insertRows('endpoints', Buffer.from(`${endpointRow(again)}\n`));
      const rows = await engine.query<{ n: number }>('SELECT count() AS n FROM endpoints FINAL WHERE id = {id:UUID}', { id: again.id });
      expect(rows[0]?.n).toBe(1);
    });

    it('keeps the latest write of an upserted session', async () => {
      const id = '2b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f52';
      const startedAt = BigInt(Date.now()) * 1_000_000n;
      const base = { projectId: PROJECT, id, startedAt, clientIp: '1.1.1.1', distributedTraceId: NIL_UUID };
      await engine.insertRows('sessions', Buffer.from(`${sessionRow({ ...base, endedAt: null, durationNs: null, attributes: { v: 'open' }, updatedAt: startedAt + 10n })}\n`));
      await engine.insertRows('sessions', Buffer.from(`${sessionRow({ ...base, endedAt: startedAt + 5n, durationNs: 5n, attributes: { v: 'closed' }, updatedAt: startedAt + 20n })}\n`));
      const rows = await engine.query<{ v: string; duration: number }>(
        `SELECT attributes['v'] AS v, duration_ns AS duration FROM sessions FINAL WHERE id = {id:UUID}`,
        { id },
      );
      expect(rows).toEqual([{ v: 'closed', duration: 5 }]);
    });

    it('keeps a parameter one value (values never become SQL)', async () => {
      const hostile = "x' OR 1=1 --";
      const rows = await engine.query<{ v: string; a: string[] }>('SELECT {v:String} AS v, {a:Array(String)} AS a', { v: hostile, a: [hostile, 'b'] });
      expect(rows).toEqual([{ v: hostile, a: [hostile, 'b'] }]);
    });

    it('maps a failed statement to TelemetryQueryError with the ClickHouse code', async () => {
      const error = await engine.query('SELECT no_such_column FROM endpoints').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TelemetryQueryError);
      expect((error as TelemetryQueryError).code).toBe(47);
    });

    it('reports a resource limit as a resource-limit code, not a generic failure', async () => {
      const error = await engine.query('SELECT count() FROM numbers(10000000)', {}, { max_rows_to_read: 1000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TelemetryQueryError);
      expect(RESOURCE_LIMIT_CODES.has((error as TelemetryQueryError).code ?? -1)).toBe(true);
    });

    it('takes concurrent writes through the group-commit writer as fewer, larger inserts', async () => {
      const flushes: number[] = [];
      const writer = new GroupCommitWriter(engine, { maxRows: 10_000, flushMs: 20, onFlush: (e) => flushes.push(e.rows) });
      const records = Array.from({ length: 200 }, (_, i) => endpoint({ id: `3b7f3a52-2d1c-4f6e-9a77-${String(i).padStart(12, '0')}`, name: 'POST /batch' }));
      await Promise.all(records.map((r) => writer.write([['endpoints', [endpointRow(r)]]])));
      await writer.close();
      const rows = await engine.query<{ n: number }>(`SELECT count() AS n FROM endpoints FINAL WHERE name = 'POST /batch'`);
      expect(rows[0]?.n).toBe(200);
      expect(flushes.reduce((a, b) => a + b, 0)).toBe(200);
      expect(flushes.length).toBeLessThan(200);
    });

    it('refuses a row with a column the table does not have', async () => {
      const row = JSON.stringify({ ...JSON.parse(endpointRow(endpoint())), no_such_column: 1 });
      await expect(engine.insertRows('endpoints', Buffer.from(`${row}\n`))).rejects.toBeInstanceOf(TelemetryQueryError);
    });

    it('rejects every request of a failed insert with WriteFailedError, and nothing else', async () => {
      const writer = new GroupCommitWriter(engine, { maxRows: 10_000, flushMs: 5 });
      const good = endpoint({ id: '4b7f3a52-2d1c-4f6e-9a77-5c1e2b3d4f54', name: 'GET /still-fine' });
      const outcomes = await Promise.allSettled([
        writer.write([['no_such_table', ['{"a":1}']]]),
        writer.write([['no_such_table', ['{"a":2}']]]),
        writer.write([['endpoints', [endpointRow(good)]]]),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
      for (const outcome of outcomes.slice(0, 2)) {
        const reason = (outcome as PromiseRejectedResult).reason as WriteFailedError;
        expect(reason).toBeInstanceOf(WriteFailedError);
        expect(reason.cause).toBeInstanceOf(TelemetryQueryError);
      }
      await writer.close();
      await expect(writer.write([['endpoints', [endpointRow(good)]]])).rejects.toThrow(/shutting down/);
      const rows = await engine.query<{ n: number }>('SELECT count() AS n FROM endpoints FINAL WHERE id = {id:UUID}', { id: good.id });
      expect(rows[0]?.n).toBe(1);
    });

    it('answers ping', async () => {
      await expect(engine.ping()).resolves.toBeUndefined();
    });
  });
}
