/**
 * OTLP trace ingest throughput, pure part: `node --import tsx bench/otlp.ts`.
 *
 * Export batches as the OpenTelemetry JS SDK makes them (bench/otlp-batches.ts), gzipped as an
 * OTLP/HTTP exporter sends them. Prints spans per CPU second for
 *   (a) protobuf decode alone, and
 *   (b) gunzip + decode + classify into a TelemetryBatch,
 * their ratio, the main thread's CPU per span by stage (decode, classification, RowBinary row
 * encoding) and resident memory. Rates are per CPU second of this process (GC threads included),
 * so they are per-core figures that other load on the machine does not deflate.
 *
 * V8's allocation-site pretenuring is off in this process: the bench keeps every stage's input
 * alive (decoded requests, classified batches), V8 then allocates the decoder's and classifier's
 * objects straight into the old generation, and decode and classification measured 2.5-6x what
 * they cost with it off (PERFORMANCE.md, "One full run at 100,000 spans/s"). The service keeps
 * V8's defaults (the flag did not speed it up); bench/otlp-ingest.ts measures it that way.
 */
import v8 from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import { classifyTraces } from '../src/core/classify/index.js';
import { decodeTraceRequest } from '../src/ingest/otlp/index.js';
import { RowBinaryBuffer } from '../src/store/telemetry/rowbinary.js';
import { batchRows } from '../src/store/telemetry/rows.js';
import { buildBatches, SPANS_PER_BATCH } from './otlp-batches.js';

v8.setFlagsFromString('--no-allocation-site-pretenuring');

const DISTINCT_BATCHES = 8;
const ROUND_MS = 1_000;
const ROUNDS = 5;

/** CPU time of this process in milliseconds: unlike wall time, not inflated by other load. */
function cpuMillis(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Spans per CPU second of `work`, run over the batches round-robin for ROUND_MS of CPU time. */
function spansPerCpuSecond<T>(batches: readonly T[], work: (batch: T) => unknown): number {
  let processed = 0;
  const start = cpuMillis();
  for (let i = 0; cpuMillis() - start < ROUND_MS; i++) {
    work(batches[i % batches.length]!);
    processed += SPANS_PER_BATCH;
  }
  return processed / ((cpuMillis() - start) / 1000);
}

/**
 * The best of ROUNDS interleaved rounds of each measurement: the round least disturbed by other
 * processes on the machine is the closest to the code's own speed. The first round warms up.
 */
function bestOfRounds<Name extends string>(measurements: Record<Name, () => number>): Record<Name, number> {
  const names = Object.keys(measurements) as Name[];
  const best = Object.fromEntries(names.map((name) => [name, 0])) as Record<Name, number>;
  for (let round = 0; round <= ROUNDS; round++) {
    for (const name of names) {
      const rate = measurements[name]();
      if (round > 0) best[name] = Math.max(best[name], rate);
    }
  }
  return best;
}

const formatRate = (rate: number): string => `${Math.round(rate).toLocaleString('en-US')} spans per CPU second`;
const microsPerSpan = (rate: number): string => `${(1e6 / rate).toFixed(2)} µs CPU per span`;
const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const protobufBatches = buildBatches(DISTINCT_BATCHES);
const gzippedBatches = protobufBatches.map((batch) => gzipSync(batch));
const averageBytes = (list: Uint8Array[]) =>
  Math.round(list.reduce((sum, batch) => sum + batch.length, 0) / list.length);
console.log(
  `batch: ${SPANS_PER_BATCH} spans, ${averageBytes(protobufBatches)} bytes protobuf, ${averageBytes(gzippedBatches)} bytes gzipped`,
);
console.log(`rss before: ${megabytes(process.memoryUsage().rss)}`);

const receivedAt = BigInt(Date.now()) * 1_000_000n;
const projectId = '6f1d2c3b-4a59-4e87-9a0b-1c2d3e4f5a6b';
const context = { projectId, receivedAt };
const decodedBatches = protobufBatches.map((batch) => decodeTraceRequest(batch, 'protobuf'));
const classifiedBatches = decodedBatches.map((request) => classifyTraces(request, context).batch);
// The writer's reused buffer, as on the ingest path.
const out = new RowBinaryBuffer();
const encodeRows = (batch: (typeof classifiedBatches)[number]) => {
  out.reset();
  for (const [format, records] of batchRows(batch)) format.encode(records as readonly never[], out);
};

const rates = bestOfRounds({
  decode: () => spansPerCpuSecond(protobufBatches, (batch) => decodeTraceRequest(batch, 'protobuf')),
  endToEnd: () =>
    spansPerCpuSecond(gzippedBatches, (batch) =>
      classifyTraces(decodeTraceRequest(gunzipSync(batch), 'protobuf'), context),
    ),
  gunzip: () => spansPerCpuSecond(gzippedBatches, (batch) => gunzipSync(batch)),
  classify: () => spansPerCpuSecond(decodedBatches, (request) => classifyTraces(request, context)),
  encode: () => spansPerCpuSecond(classifiedBatches, encodeRows),
});

console.log(`(a) decode:                     ${formatRate(rates.decode)}`);
console.log(`(b) gunzip + decode + classify: ${formatRate(rates.endToEnd)}`);
console.log(`ratio (b)/(a):                  ${(rates.endToEnd / rates.decode).toFixed(2)}`);
console.log('main thread by stage (best round each, garbage collection included):');
console.log(`  gunzip:                       ${microsPerSpan(rates.gunzip)}`);
console.log(`  protobuf decode:              ${microsPerSpan(rates.decode)}`);
console.log(`  classification:               ${microsPerSpan(rates.classify)}`);
console.log(`  RowBinary row encoding:       ${microsPerSpan(rates.encode)}`);
console.log(`rss after: ${megabytes(process.memoryUsage().rss)}`);
