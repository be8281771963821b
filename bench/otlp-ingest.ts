/**
 * OTLP trace ingest end to end into chDB: `node --import tsx bench/otlp-ingest.ts`.
 *
 * The whole service (openServices + buildApps on a temporary data folder, embedded engines) and
 * the real route: `POST /api/otel/v1/traces` through `app.inject`, 16 and then 64 requests in flight,
 * each a gzipped protobuf export of 512 spans built by the OpenTelemetry SDK (bench/otlp-batches.ts:
 * HTTP requests of 8 spans, ~15 attributes each, an exception every 23rd request).
 * Every request goes through authentication, admission, gunzip, decode, classification, the
 * group-commit writer and a durable chDB insert before its 200.
 *
 * Reports, in the same run on the same batches:
 * - protobuf decode alone, on this thread, per second of wall clock and per CPU second;
 * - end to end, per second of wall clock and per CPU second of the whole process (chDB's insert
 *   threads, zlib and the GC helpers included): the "spans/s per core" figure, and the CPU per
 *   span of the main thread, of chDB's threads and of Node's other threads;
 * - the engine alone: the same requests' rows inserted straight into chDB, table after table as
 *   the writer does, with as many requests per insert as the writer reached end to end, and with
 *   every request in flight in one insert; nothing else runs, so this is about the most the
 *   embedded engine gives at that insert size (chDB runs one insert at a time per process);
 * - their ratios, and resident memory idle, under load (peak) and after.
 * BENCH_OTLP_REQUESTS, BENCH_OTLP_CONCURRENCY (a list: "16,64") and BENCH_OTLP_DECODE_ROUNDS change the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { classifyTraces } from '../src/core/classify/index.js';
import { loadConfig } from '../src/config.js';
import { decodeTraceRequest } from '../src/ingest/otlp/index.js';
import { usageMonth } from '../src/ingest/usage.js';
import type { TelemetryEngine } from '../src/store/telemetry/engine.js';
import { RowBinaryBuffer } from '../src/store/telemetry/rowbinary.js';
import { batchRows, type RowFormat } from '../src/store/telemetry/rows.js';
import { projectIngestUsage } from '../src/store/meta/repositories/ingest-usage.js';
import { buildApps } from '../src/server/app.js';
import { useServiceHeapGrowth } from '../src/server/garbage-collection.js';
import { openServices } from '../src/server/services.js';
import { buildBatches, SPANS_PER_BATCH, SPANS_PER_REQUEST } from './otlp-batches.js';
import { fmt, report, rssMb, threadCpuSeconds, type ThreadCpu } from './support.js';

const DISTINCT_BATCHES = 16;
/** Requests in flight, one run each: a few exporters, and a fleet's worth. */
const CONCURRENCIES = (process.env.BENCH_OTLP_CONCURRENCY ?? '16,64').split(',').map(Number);
const REQUESTS = Number(process.env.BENCH_OTLP_REQUESTS ?? 600);
const WARM_UP_REQUESTS = 40;
const DECODE_ROUNDS = Number(process.env.BENCH_OTLP_DECODE_ROUNDS ?? 5);
const DECODE_ROUND_MS = 1_000;

/** A full collection before reading idle memory, so start-up garbage (PGlite's initdb, argon2) is not counted. */
v8.setFlagsFromString('--expose_gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
const rssAfterCollection = (): number => {
  collectGarbage();
  return rssMb();
};

const cpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * Decode alone on this thread, the best of DECODE_ROUNDS one-second rounds (the first warms up),
 * in spans per second of wall clock and per CPU second of the process.
 */
function decodeRates(batches: readonly Uint8Array[]): { wall: number; cpu: number } {
  const best = { wall: 0, cpu: 0 };
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    let spans = 0;
    const started = performance.now();
    const cpuStarted = cpuSeconds();
    for (let i = 0; performance.now() - started < DECODE_ROUND_MS; i++) {
      decodeTraceRequest(batches[i % batches.length]!, 'protobuf');
      spans += SPANS_PER_BATCH;
    }
    if (round === 0) continue;
    best.wall = Math.max(best.wall, spans / ((performance.now() - started) / 1000));
    best.cpu = Math.max(best.cpu, spans / (cpuSeconds() - cpuStarted));
  }
  return best;
}

/**
 * The engine alone: `requests` requests' rows (decoded and classified beforehand), `perInsert`
 * requests at a time into each table one after the other, as the writer's flushes land (usage
 * goes to the metadata store, not to this engine). Only the inserts are timed (encoding each block is not), in spans per
 * second of that time. A project of its own, so the end-to-end figures are not touched.
 */
async function engineAlone(
  engine: TelemetryEngine,
  batches: readonly Uint8Array[],
  requests: number,
  perInsert: number,
): Promise<number> {
  const projectId = randomUUID();
  const receivedAt = BigInt(Date.now()) * 1_000_000n;
  const tablesOf = batches.map((batch) =>
    batchRows(classifyTraces(decodeTraceRequest(batch, 'protobuf'), { projectId, receivedAt }).batch),
  );
  const out = new RowBinaryBuffer();
  let insertSeconds = 0;
  for (let first = 0; first < requests; first += perInsert) {
    const count = Math.min(perInsert, requests - first);
    const tables = new Map<string, [RowFormat<never>, unknown[]]>();
    for (let i = first; i < first + count; i++) {
      for (const [format, records] of tablesOf[i % tablesOf.length]!) {
        const table = tables.get(format.table) ?? [format, []];
        table[1].push(...records);
        tables.set(format.table, table);
      }
    }
    for (const [format, records] of tables.values()) {
      out.reset();
      format.encode(records as never[], out);
      const started = performance.now();
      await engine.insertRows(format, out.bytes());
      // Embedded chDB answers once the rows are staged on disk (staged-inserts.ts); a read inserts them.
      await engine.query('SELECT 1');
      insertSeconds += (performance.now() - started) / 1000;
    }
  }
  return (requests * SPANS_PER_BATCH) / insertSeconds;
}

interface EndToEnd {
  wallSeconds: number;
  cpu: number;
  threads: ThreadCpu;
  /** Requests' rows per insert into `spans`, on average. */
  requestsPerInsert: number;
}

/** Inserts the writer has made into `spans` so far, and the rows they held. */
async function spanInserts(
  services: Awaited<ReturnType<typeof openServices>>,
): Promise<{ inserts: number; rows: number }> {
  const { values: flushes } = await services.metrics.writerFlushSeconds.get();
  const { values: rows } = await services.metrics.writerRows.get();
  return {
    inserts: flushes.find((v) => v.metricName?.endsWith('_count') && v.labels.table === 'spans')?.value ?? 0,
    rows: rows.find((v) => v.labels.table === 'spans' && v.labels.outcome === 'stored')?.value ?? 0,
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-otlp-'));
  const services = await openServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REGISTRATION: 'open' }));
  const { app } = await buildApps(services);
  useServiceHeapGrowth(); // as serve() does once the service is ready
  try {
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'bench@example.com', password: 'correct horse battery', name: 'Bench' },
    });
    const { project } = registered.json() as { project: { id: string; token: string } };

    // Idle: every store open and migrated, the apps built, one user registered, nothing sent.
    collectGarbage();
    const idleRss = rssMb();
    const protobuf = buildBatches(DISTINCT_BATCHES);
    const gzipped = protobuf.map((batch) => gzipSync(batch));
    const decode = decodeRates(protobuf);

    const send = async (i: number): Promise<void> => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/otel/v1/traces',
        headers: {
          authorization: `Bearer ${project.token}`,
          'content-type': 'application/x-protobuf',
          'content-encoding': 'gzip',
        },
        payload: gzipped[i % gzipped.length]!,
      });
      if (response.statusCode !== 200) throw new Error(`export answered ${response.statusCode}: ${response.body}`);
    };
    /** `count` requests, `concurrency` in flight: each client sends its next one when the last is acknowledged. */
    const run = async (count: number, concurrency: number): Promise<void> => {
      let next = 0;
      const client = async () => {
        while (next < count) await send(next++);
      };
      await Promise.all(Array.from({ length: concurrency }, client));
    };

    const spanRowsPerRequest = SPANS_PER_BATCH - SPANS_PER_BATCH / SPANS_PER_REQUEST;
    let peakRss = rssMb();
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 100);
    const runs: Array<{ concurrency: number } & EndToEnd> = [];
    for (const concurrency of CONCURRENCIES) {
      await run(WARM_UP_REQUESTS, concurrency);
      const insertsBefore = await spanInserts(services);
      const threadsBefore = threadCpuSeconds();
      const cpuBefore = cpuSeconds();
      const started = performance.now();
      await run(REQUESTS, concurrency);
      // Until every row is in the table: embedded chDB answers once rows are staged on disk, and a read inserts them.
      await services.telemetry.query('SELECT 1');
      const wallSeconds = (performance.now() - started) / 1000;
      const cpu = cpuSeconds() - cpuBefore;
      const threadsAfter = threadCpuSeconds();
      const insertsAfter = await spanInserts(services);
      runs.push({
        concurrency,
        wallSeconds,
        cpu,
        threads: {
          main: threadsAfter.main - threadsBefore.main,
          engine: threadsAfter.engine - threadsBefore.engine,
          nodeHelpers: threadsAfter.nodeHelpers - threadsBefore.nodeHelpers,
        },
        requestsPerInsert:
          (insertsAfter.rows - insertsBefore.rows) /
          spanRowsPerRequest /
          (insertsAfter.inserts - insertsBefore.inserts),
      });
    }
    clearInterval(sampler);
    peakRss = Math.max(peakRss, rssMb());

    // Every acknowledged request is counted in usage; the distinct spans are those of the batches.
    const [spanCount] = await services.telemetry.query<{ spans: number }>(
      'SELECT uniqExact(span_id) AS spans FROM spans WHERE project_id = {project:UUID}',
      { project: project.id },
    );
    const usage = await projectIngestUsage(services.meta, project.id, usageMonth(new Date()));
    const stored = { requests: usage?.requests ?? 0, spans: spanCount?.spans ?? 0 };
    const expected = {
      requests: CONCURRENCIES.length * (REQUESTS + WARM_UP_REQUESTS),
      spans: DISTINCT_BATCHES * spanRowsPerRequest,
    };
    const spans = REQUESTS * SPANS_PER_BATCH;
    const perSpan = (seconds: number) => `${fmt((seconds * 1e6) / spans, 1)} µs`;

    report('OTLP trace ingest end to end into chDB (bench/otlp-ingest.ts)', [
      [
        'batch',
        `${SPANS_PER_BATCH} spans, ${fmt(protobuf[0]!.length)} bytes protobuf, ${fmt(gzipped[0]!.length)} bytes gzip`,
      ],
      [
        'requests',
        `${fmt(REQUESTS)} after ${WARM_UP_REQUESTS} warm-up, for each of ${CONCURRENCIES.join(' and ')} in flight, app.inject`,
      ],
      [
        '(a) protobuf decode alone',
        `${fmt(decode.wall)} spans/s wall clock, ${fmt(decode.cpu)} spans per CPU-s (one thread)`,
      ],
      ['stored', `${fmt(stored?.requests ?? 0)} requests in usage, ${fmt(stored?.spans ?? 0)} distinct span rows`],
      ['resident memory idle', `${idleRss} MB`],
      ['resident memory under load', `${peakRss} MB peak`],
      ['resident memory after', `${rssAfterCollection()} MB (after a full collection)`],
    ]);
    if (stored?.requests !== expected.requests || stored.spans !== expected.spans)
      throw new Error(`stored ${JSON.stringify(stored)}, expected ${JSON.stringify(expected)}`);

    for (const { concurrency, wallSeconds, cpu, threads, requestsPerInsert } of runs) {
      const endToEnd = spans / wallSeconds;
      const writerSized = Math.max(1, Math.round(requestsPerInsert));
      const alone = await engineAlone(services.telemetry, protobuf, REQUESTS, writerSized);
      const aloneInFlight = await engineAlone(services.telemetry, protobuf, REQUESTS, concurrency);
      report(`${concurrency} requests in flight`, [
        [
          '(b) end to end',
          `${fmt(endToEnd)} spans/s wall clock (${fmt(wallSeconds, 2)} s), ${fmt(spans / cpu)} spans per CPU-s (whole process, ${fmt(cpu, 2)} CPU-s, ${fmt(cpu / wallSeconds, 2)} cores)`,
        ],
        [
          'ratio (b)/(a)',
          `${(endToEnd / decode.wall).toFixed(2)} wall clock, ${(spans / cpu / decode.cpu).toFixed(2)} per CPU-s`,
        ],
        [
          'CPU per span by thread',
          `main ${perSpan(threads.main)}, chDB's threads ${perSpan(threads.engine)}, Node's other threads ${perSpan(threads.nodeHelpers)}`,
        ],
        ['writer', `${fmt(requestsPerInsert, 1)} requests per insert on average (spans table)`],
        [
          `(c) engine alone, ${writerSized} per insert`,
          `${fmt(alone)} spans/s of insert time (the writer's insert size)`,
        ],
        [
          `(d) engine alone, ${concurrency} per insert`,
          `${fmt(aloneInFlight)} spans/s of insert time (every request in flight in one insert)`,
        ],
        ['ratio (b)/(c), (b)/(d)', `${(endToEnd / alone).toFixed(2)}, ${(endToEnd / aloneInFlight).toFixed(2)}`],
      ]);
    }
  } finally {
    await app.close();
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
