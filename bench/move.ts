/**
 * `sightline move`'s telemetry copy (src/store/telemetry/copy.ts): rows per second from the
 * embedded chDB to a ClickHouse HTTP endpoint, and the memory it holds. The target is the test
 * suite's HTTP shim (chDB behind ClickHouse's HTTP protocol) in a child process, as no ClickHouse
 * server runs here, so the figure is the copy's own cost against that endpoint, not a server's.
 *
 * Data: 600,000 spans with five attributes and 300,000 logs over the last seven days, generated
 * in the engine. Baseline in the same run: the same rows read as RowBinary and inserted into the
 * same endpoint in one body per table, with no slicing and no verification (what the copy costs
 * beyond moving the bytes once).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChdb } from '../src/store/telemetry/chdb.js';
import { openClickHouseHttp } from '../src/store/telemetry/clickhouse-http.js';
import { copyTelemetry, insertableLayout } from '../src/store/telemetry/copy.js';
import type { TelemetryEngine } from '../src/store/telemetry/engine.js';
import { migrateTelemetry } from '../src/store/telemetry/migrate.js';
import { startShimProcess } from '../test/support/child-servers.js';
import { fmt, processMemory, report, rssMb, timed } from './support.js';

const SPANS = 600_000;
const LOGS = 300_000;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-move-'));
const shim = await startShimProcess();
const source = await openChdb({
  path: path.join(folder, 'chdb'),
  database: 'sightline',
});
try {
  await migrateTelemetry(source);
  const week = "toDateTime64(now(), 9, 'UTC') - toIntervalSecond(number % 604800)";
  await source.command(
    `INSERT INTO spans (project_id, trace_id, span_id, parent_span_id, name, kind, start_time, duration_ns, status_code, attributes)
     SELECT toUUID('5b3c0d6e-8f1a-4c2b-9d7e-1a2b3c4d5e6f'), generateUUIDv4(), generateUUIDv4(), generateUUIDv4(),
            concat('SELECT orders ', toString(number % 50)), 'client', ${week}, 1000000 + number % 900000, 200,
            map('db.system', 'postgresql', 'db.name', 'shop', 'net.peer.name', concat('db-', toString(number % 3)),
                'http.route', concat('/api/orders/', toString(number % 40)), 'user.id', toString(number % 10000))
       FROM numbers(${SPANS})`,
  );
  await source.command(
    `INSERT INTO logs (project_id, timestamp, observed_timestamp, severity_number, severity_text, body, service_name, attributes, dedup_key)
     SELECT toUUID('5b3c0d6e-8f1a-4c2b-9d7e-1a2b3c4d5e6f'), ${week}, ${week}, 9, 'INFO',
            concat('order ', toString(number), ' paid in ', toString(number % 997), ' ms'), 'shop',
            map('order.id', toString(number)), toString(number)
       FROM numbers(${LOGS})`,
  );
  const rows = SPANS + LOGS;
  const rssBefore = rssMb();

  const target = await openTarget(shim.url, 'sightline_moved');
  let peakDuringCopy = rssBefore;
  const sampler = setInterval(() => {
    peakDuringCopy = Math.max(peakDuringCopy, rssMb());
  }, 50);
  const copy = await timed(() => copyTelemetry(source, target));
  clearInterval(sampler);
  await target.close();
  const copied = copy.result.reduce((sum, table) => sum + table.rows, 0);
  if (copied !== rows) throw new Error(`copied ${copied} rows of ${rows}`);

  // Baseline, after the copy so its whole-table bodies do not raise the copy's peak.
  const baselineTarget = await openTarget(shim.url, 'sightline_baseline');
  const baseline = await timed(async () => {
    for (const table of ['spans', 'logs']) {
      const layout = await insertableLayout(source, table);
      const body = await source.selectRowBinary(`SELECT ${layout.columns.join(', ')} FROM ${table}`);
      await baselineTarget.insertRows(layout, body, { optimize_on_insert: 0 });
    }
  });
  await baselineTarget.close();

  report('sightline move: telemetry from chDB to a ClickHouse HTTP endpoint (the shim, a child process)', [
    ['data', `${fmt(SPANS)} spans (5 attributes), ${fmt(LOGS)} logs over 7 days`],
    [
      'baseline: each table once',
      `${fmt(rows / baseline.seconds)} rows/s (${fmt(baseline.seconds, 1)} s; one body per table, not verified)`,
    ],
    [
      'copy: sliced and verified',
      `${fmt(rows / copy.seconds)} rows/s (${fmt(copy.seconds, 1)} s; about 100,000 rows a slice, count and hash compared)`,
    ],
    ['ratio copy / baseline', fmt(baseline.seconds / copy.seconds, 2)],
    [
      'resident memory',
      `${rssBefore} MB before, ${peakDuringCopy} MB peak during the copy (sampled), ${processMemory()?.peak ?? '?'} MB peak of the process (with the baseline, which holds whole tables)`,
    ],
  ]);
} finally {
  await source.close();
  await shim.close();
  fs.rmSync(folder, { recursive: true, force: true });
}

async function openTarget(url: string, database: string): Promise<TelemetryEngine> {
  const target = await openClickHouseHttp({ url, database, requestTimeoutMs: 600_000 });
  await migrateTelemetry(target);
  return target;
}
