/**
 * Group-commit writer on chDB against a bare chDB bulk insert of the same rows, in one run.
 * The writer gets the rows as many concurrent small requests (as ingest does); the baseline
 * inserts them in WRITER_MAX_ROWS-sized blocks with nothing in between.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';
import { NIL_UUID, type EndpointRecord } from '../src/core/records.js';
import { GroupCommitWriter } from '../src/store/telemetry/writer.js';
import { openChdb } from '../src/store/telemetry/chdb.js';
import { migrateTelemetry } from '../src/store/telemetry/migrate.js';
import { RowBinaryBuffer } from '../src/store/telemetry/rowbinary.js';
import { ENDPOINT_ROWS, rowsOf } from '../src/store/telemetry/rows.js';
import { fmt, report, rssMb, timed } from './support.js';

const ROWS = Number(process.env.BENCH_WRITER_ROWS ?? 300_000);
const ROWS_PER_REQUEST = 50;
const BLOCK = 20_000;
const CONCURRENT_REQUESTS = 64;

function makeRows(projectId: string): EndpointRecord[] {
  const now = BigInt(Date.now()) * 1_000_000n;
  return Array.from({ length: ROWS }, (_, i) => ({
    projectId,
    id: randomUUID(),
    distributedTraceId: randomUUID(),
    parentSpanId: NIL_UUID,
    isRoot: true,
    recordedAt: now - BigInt(i) * 1_000_000n,
    durationNs: BigInt(1_000_000 + (i % 5000) * 1000),
    serverName: `api-${i % 4}`,
    appVersion: '1.4.2',
    attributes: { 'http.user_agent': 'Mozilla/5.0', 'user.id': String(i % 1000), region: 'eu-west-1' },
    source: 'report',
    name: `GET /api/items/:id/${i % 20}`,
    method: 'GET',
    route: `/api/items/:id/${i % 20}`,
    statusCode: i % 50 === 0 ? 500 : 200,
    bodySize: 512 + (i % 100),
    clientIp: '203.0.113.7',
    streaming: false,
  }));
}

/** The former row format, for the baseline: a JSON array per row, bigints as quoted integers. */
function jsonCompactRows(records: readonly EndpointRecord[]): Buffer {
  const fields = ENDPOINT_ROWS.columns.map(
    (column) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof EndpointRecord,
  );
  const lines = records.map((record) =>
    JSON.stringify(fields.map((field) => (typeof record[field] === 'bigint' ? String(record[field]) : record[field]))),
  );
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-writer-'));
  const engine = await openChdb({ path: dir, database: 'bench' });
  await migrateTelemetry(engine);
  const idleRss = rssMb();

  // Baseline 1: the former format, JSONCompactEachRow through chDB's insert call (a second
  // connection to the same folder), encoding included.
  const jsonRows = makeRows(randomUUID());
  const json = { encode: 0, insert: 0 };
  const jsonSession = new Session(dir);
  const jsonBaseline = await timed(async () => {
    for (let i = 0; i < jsonRows.length; i += BLOCK) {
      const encodeStarted = performance.now();
      const values = jsonCompactRows(jsonRows.slice(i, i + BLOCK));
      const insertStarted = performance.now();
      await jsonSession.insert({
        table: 'bench.endpoints',
        columns: [...ENDPOINT_ROWS.columns],
        values,
        format: 'JSONCompactEachRow',
      });
      json.encode += insertStarted - encodeStarted;
      json.insert += performance.now() - insertStarted;
    }
  });
  jsonSession.close();

  // Baseline 2: RowBinary blocks straight into the engine, encoding included.
  const baselineRows = makeRows(randomUUID());
  const binary = { encode: 0, insert: 0 };
  const out = new RowBinaryBuffer();
  const baseline = await timed(async () => {
    for (let i = 0; i < baselineRows.length; i += BLOCK) {
      const encodeStarted = performance.now();
      out.reset();
      ENDPOINT_ROWS.encode(baselineRows.slice(i, i + BLOCK), out);
      const insertStarted = performance.now();
      await engine.insertRows(ENDPOINT_ROWS, out.bytes());
      binary.encode += insertStarted - encodeStarted;
      binary.insert += performance.now() - insertStarted;
    }
  });

  const writerRows = makeRows(randomUUID());
  let flushes = 0;
  const writer = new GroupCommitWriter(engine, { maxRows: BLOCK, flushMs: 25, onFlush: () => flushes++ });
  const grouped = await timed(async () => {
    let next = 0;
    // CONCURRENT_REQUESTS clients, each sending its next request as soon as the last was acknowledged.
    await Promise.all(
      Array.from({ length: CONCURRENT_REQUESTS }, async () => {
        for (;;) {
          const start = next;
          next += ROWS_PER_REQUEST;
          if (start >= writerRows.length) return;
          await writer.write([rowsOf(ENDPOINT_ROWS, writerRows.slice(start, start + ROWS_PER_REQUEST))]);
        }
      }),
    );
  });
  await writer.close();
  const afterRss = rssMb();
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });

  const baselineRate = ROWS / baseline.seconds;
  const writerRate = ROWS / grouped.seconds;
  const ms = (value: number): string => `${fmt(value)} ms`;
  report('group-commit writer on chDB', [
    ['rows', fmt(ROWS)],
    [
      'bulk insert, JSONCompactEachRow (former)',
      `${fmt(ROWS / jsonBaseline.seconds)} rows/s: encode ${ms(json.encode)}, insert ${ms(json.insert)} (${BLOCK}-row blocks)`,
    ],
    [
      'bare chDB bulk insert, RowBinary',
      `${fmt(baselineRate)} rows/s: encode ${ms(binary.encode)}, insert ${ms(binary.insert)} (${BLOCK}-row blocks)`,
    ],
    [
      'group-commit writer',
      `${fmt(writerRate)} rows/s (${CONCURRENT_REQUESTS} concurrent requests of ${ROWS_PER_REQUEST} rows, ${flushes} inserts)`,
    ],
    ['ratio writer / bare', fmt(writerRate / baselineRate, 2)],
    ['resident memory idle (chDB open)', `${idleRss} MB`],
    ['resident memory after the run', `${afterRss} MB`],
  ]);
}

await main();
