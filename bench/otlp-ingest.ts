/**
 * OTLP trace ingest end to end into chDB: `node --import tsx bench/otlp-ingest.ts`.
 *
 * The whole service (openServices + buildApps on a temporary data folder, embedded engines) and
 * the real route: `POST /api/otel/v1/traces` through `app.inject`, CONCURRENCY requests in flight,
 * each a gzipped protobuf export of 512 spans built by the OpenTelemetry SDK (bench/otlp-batches.ts:
 * HTTP requests of 8 spans, ~15 attributes each, an exception every 23rd request).
 * Every request goes through authentication, admission, gunzip, decode, classification, the
 * group-commit writer and a durable chDB insert before its 200.
 *
 * Reports, in the same run on the same batches:
 * - protobuf decode alone, on this thread, per second of wall clock and per CPU second;
 * - end to end, per second of wall clock and per CPU second of the whole process (chDB's insert
 *   threads, zlib and the GC helpers included): the "spans/s per core" figure;
 * - their ratios, and resident memory idle, under load (peak) and after.
 * BENCH_OTLP_REQUESTS, BENCH_OTLP_CONCURRENCY and BENCH_OTLP_DECODE_ROUNDS change the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { decodeTraceRequest } from '../src/ingest/otlp/index.js';
import { buildApps } from '../src/server/app.js';
import { openServices } from '../src/server/services.js';
import { buildBatches, SPANS_PER_BATCH, SPANS_PER_REQUEST } from './otlp-batches.js';
import { fmt, report, rssMb } from './support.js';

const DISTINCT_BATCHES = 16;
const CONCURRENCY = Number(process.env.BENCH_OTLP_CONCURRENCY ?? 16);
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

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-otlp-'));
  const services = await openServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REGISTRATION: 'open' }));
  const { app } = await buildApps(services);
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
    /** `count` requests, CONCURRENCY in flight: each client sends its next one when the last is acknowledged. */
    const run = async (count: number): Promise<void> => {
      let next = 0;
      const client = async () => {
        while (next < count) await send(next++);
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, client));
    };

    await run(WARM_UP_REQUESTS);
    let peakRss = rssMb();
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 100);
    const cpuBefore = cpuSeconds();
    const started = performance.now();
    await run(REQUESTS);
    const wallSeconds = (performance.now() - started) / 1000;
    const cpu = cpuSeconds() - cpuBefore;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, rssMb());

    const spans = REQUESTS * SPANS_PER_BATCH;
    const endToEnd = spans / wallSeconds;
    // Every acknowledged request is counted in usage; the distinct spans are those of the batches.
    const [stored] = await services.telemetry.query<{ requests: number; spans: number }>(
      `SELECT (SELECT sum(requests) FROM ingest_usage WHERE project_id = {project:UUID}) AS requests,
              (SELECT uniqExact(span_id) FROM spans WHERE project_id = {project:UUID}) AS spans`,
      { project: project.id },
    );
    const expected = {
      requests: REQUESTS + WARM_UP_REQUESTS,
      spans: DISTINCT_BATCHES * (SPANS_PER_BATCH - SPANS_PER_BATCH / SPANS_PER_REQUEST),
    };

    report('OTLP trace ingest end to end into chDB (bench/otlp-ingest.ts)', [
      [
        'batch',
        `${SPANS_PER_BATCH} spans, ${fmt(protobuf[0]!.length)} bytes protobuf, ${fmt(gzipped[0]!.length)} bytes gzip`,
      ],
      ['requests', `${fmt(REQUESTS)} after ${WARM_UP_REQUESTS} warm-up, ${CONCURRENCY} in flight, app.inject`],
      [
        '(a) protobuf decode alone',
        `${fmt(decode.wall)} spans/s wall clock, ${fmt(decode.cpu)} spans per CPU-s (one thread)`,
      ],
      [
        '(b) end to end',
        `${fmt(endToEnd)} spans/s wall clock (${fmt(wallSeconds, 2)} s), ${fmt(spans / cpu)} spans per CPU-s (whole process, ${fmt(cpu, 2)} CPU-s)`,
      ],
      [
        'ratio (b)/(a)',
        `${(endToEnd / decode.wall).toFixed(2)} wall clock, ${(spans / cpu / decode.cpu).toFixed(2)} per CPU-s`,
      ],
      ['stored', `${fmt(stored?.requests ?? 0)} requests in usage, ${fmt(stored?.spans ?? 0)} distinct span rows`],
      ['resident memory idle', `${idleRss} MB`],
      ['resident memory under load', `${peakRss} MB peak`],
      ['resident memory after', `${rssAfterCollection()} MB (after a full collection)`],
    ]);
    if (stored?.requests !== expected.requests || stored.spans !== expected.spans)
      throw new Error(`stored ${JSON.stringify(stored)}, expected ${JSON.stringify(expected)}`);
  } finally {
    await app.close();
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
