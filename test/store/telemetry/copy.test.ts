/**
 * Copying telemetry between engines (what `sightline move` does with it): chDB in this process
 * into the ClickHouse HTTP shim in another (chDB holds one data folder per process). Rows with
 * awkward values (bytes that are not UTF-8, maps, instants before 1970 and after 2106, UInt64
 * above 2^53, re-sent duplicates) arrive equal; tables are read in slices (runs of days, a heavy
 * day split by a hash) and every row lands once; a target already holding rows is found.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChdb } from '../../../src/store/telemetry/chdb.js';
import { openClickHouseHttp } from '../../../src/store/telemetry/clickhouse-http.js';
import { copyTelemetry, nonEmptyTables, telemetryTables } from '../../../src/store/telemetry/copy.js';
import type { TelemetryEngine } from '../../../src/store/telemetry/engine.js';
import { migrateTelemetry } from '../../../src/store/telemetry/migrate.js';
import { startShimProcess, type ChildServer } from '../../support/child-servers.js';

const PROJECT = '5b3c0d6e-8f1a-4c2b-9d7e-1a2b3c4d5e6f';

describe('copying telemetry from chDB to a ClickHouse server', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-copy-'));
  let shim: ChildServer;
  let source: TelemetryEngine;
  let target: TelemetryEngine;

  beforeAll(async () => {
    shim = await startShimProcess();
    source = await openChdb({
      path: path.join(folder, 'chdb'),
      database: 'sightline',
    });
    await migrateTelemetry(source);
    target = await openClickHouseHttp({ url: shim.url, database: 'sightline_moved' });
    await migrateTelemetry(target);
    // As if the service had just stopped: nothing merged yet, so the re-sent duplicate below is
    // still two rows (the copy stops merges itself while it copies and compares).
    await source.command('SYSTEM STOP MERGES logs');
    const noon = "toDateTime64(toStartOfDay(now()), 9, 'UTC') + toIntervalHour(12)";
    // 250 logs on one day (more than a slice), 7 the day before, a re-sent duplicate, and values
    // at the edges of DateTime64(9) with bytes that are not UTF-8 in a map. (Not in the TTL's
    // column: the TTL takes a DateTime, past which such rows count as expired and go at a merge.)
    await source.command(
      `INSERT INTO logs (project_id, timestamp, body, attributes, dedup_key)
       SELECT {project:UUID}, ${noon} - toIntervalSecond(number), concat('line ', toString(number)), map('n', toString(number)), toString(number)
         FROM numbers(250)`,
      { project: PROJECT },
    );
    await source.command(
      `INSERT INTO logs (project_id, timestamp, body, dedup_key)
       SELECT {project:UUID}, ${noon} - toIntervalDay(1) - toIntervalSecond(number), 'yesterday', concat('y', toString(number)) FROM numbers(7)`,
      { project: PROJECT },
    );
    await source.command(
      `INSERT INTO logs (project_id, timestamp, observed_timestamp, body, attributes, dedup_key) VALUES
         ({project:UUID}, ${noon}, '1925-03-04 05:06:07.123456789', 'old', map('bytes', unhex('ff00fe')), 'old'),
         ({project:UUID}, ${noon}, '2250-01-01 00:00:00.000000001', 'far', map('', ''), 'far')`,
      { project: PROJECT },
    );
    // The re-sent one, in a request of its own (one insert collapses its own duplicates).
    await source.command(
      `INSERT INTO logs (project_id, timestamp, observed_timestamp, body, attributes, dedup_key) VALUES
         ({project:UUID}, ${noon}, '2250-01-01 00:00:00.000000001', 'far', map('', ''), 'far')`,
      { project: PROJECT },
    );
    await source.command(
      `INSERT INTO endpoints (project_id, id, recorded_at, name, body_size, duration_ns)
       VALUES ({project:UUID}, generateUUIDv4(), now64(9), 'GET /big', 18446744073709551615, -1)`,
      { project: PROJECT },
    );
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
    await shim?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('copies every row of every table, sliced, and finds them equal on the server', async () => {
    const progress: Array<{ table: string; copied: number; total: number }> = [];
    const copied = await copyTelemetry(source, target, { rowsPerSlice: 100, onProgress: (p) => progress.push(p) });
    const tables = await telemetryTables(source);
    expect(copied.map((t) => t.table)).toEqual(tables);
    expect(copied.find((t) => t.table === 'logs')).toEqual({ table: 'logs', rows: 260 });
    expect(copied.find((t) => t.table === 'endpoints')).toEqual({ table: 'endpoints', rows: 1 });
    // 250 of today in three hash slices, then the rest of the days: several steps, ending at the total.
    const logSteps = progress.filter((p) => p.table === 'logs');
    expect(logSteps.length).toBeGreaterThanOrEqual(5);
    expect(logSteps.at(-1)).toEqual({ table: 'logs', copied: 260, total: 260 });

    const read = (engine: TelemetryEngine) =>
      engine.query<Record<string, unknown>>(
        `SELECT DISTINCT toString(observed_timestamp) AS t, body, hex(attributes['bytes']) AS bytes, dedup_key FROM logs
          WHERE body IN ('old', 'far') ORDER BY t`,
      );
    expect(await read(target)).toEqual([
      { t: '1925-03-04 05:06:07.123456789', body: 'old', bytes: 'FF00FE', dedup_key: 'old' },
      { t: '2250-01-01 00:00:00.000000001', body: 'far', bytes: '', dedup_key: 'far' },
    ]);
    expect(await target.query('SELECT toString(body_size) AS size, duration_ns FROM endpoints')).toEqual([
      { size: '18446744073709551615', duration_ns: -1 },
    ]);
  });

  it('reports a target that already holds rows', async () => {
    expect(await nonEmptyTables(target, ['endpoints', 'logs', 'spans'])).toEqual(['endpoints', 'logs']);
  });
});
