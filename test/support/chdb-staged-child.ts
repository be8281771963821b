/**
 * Child process of test/store/chdb-staged-inserts.test.ts: opens chDB on a data folder with a
 * staged batch that waits a minute for its insert, stores endpoint rows through the group-commit
 * writer (acknowledged: it prints `acked`), then waits to be killed, its rows still staged.
 * Run as `node --import tsx chdb-staged-child.ts <data folder> <rows>`.
 */
import { GroupCommitWriter } from '../../src/store/telemetry/writer.js';
import { openChdb } from '../../src/store/telemetry/chdb.js';
import { migrateTelemetry } from '../../src/store/telemetry/migrate.js';
import { ENDPOINT_ROWS, rowsOf } from '../../src/store/telemetry/rows.js';
import { endpoints } from './endpoint-records.js';

const [dataDir, rows] = process.argv.slice(2) as [string, string];

const engine = await openChdb({ path: dataDir, database: 'crash', stagedFlushMs: 60_000 });
await migrateTelemetry(engine);
const writer = new GroupCommitWriter(engine, { maxRows: 20_000, flushMs: 1 });
await Promise.all(
  Array.from({ length: 4 }, () => writer.write([rowsOf(ENDPOINT_ROWS, endpoints(Number(rows) / 4, 'GET /acked'))])),
);
process.stdout.write('acked\n');
setInterval(() => undefined, 1_000);
