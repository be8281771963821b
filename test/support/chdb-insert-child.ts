/**
 * Child process of test/store/chdb-insert-files.test.ts: opens chDB on a data folder, stores a
 * batch through the group-commit writer (acknowledged: it prints `acked`), then starts a large
 * insert and waits, so the parent can kill it with SIGKILL while that insert's file exists.
 * Run as `node --import tsx chdb-insert-child.ts <data folder> <insert folder>`.
 */
import { GroupCommitWriter } from '../../src/store/telemetry/writer.js';
import { openChdb } from '../../src/store/telemetry/chdb.js';
import { migrateTelemetry } from '../../src/store/telemetry/migrate.js';
import { ENDPOINT_ROWS, rowsOf } from '../../src/store/telemetry/rows.js';
import { endpoints } from './endpoint-records.js';

const [dataDir, insertDir] = process.argv.slice(2) as [string, string];

const engine = await openChdb({ path: dataDir, database: 'crash', insertDir });
await migrateTelemetry(engine);
const writer = new GroupCommitWriter(engine, { maxRows: 20_000, flushMs: 1 });
await writer.write([rowsOf(ENDPOINT_ROWS, endpoints(1_000, 'GET /acked'))]);
process.stdout.write('acked\n');
await writer.write([rowsOf(ENDPOINT_ROWS, endpoints(200_000, 'GET /in-flight'))]);
process.stdout.write('stored\n');
