/**
 * Throughput of the native report parse against its floor.
 *
 *   node --import tsx bench/report-parse.ts
 *
 * Builds realistic gzipped report payloads (the reference client's 12-frame send queue: traces
 * with 3 spans and ~10 attributes, a few exceptions, the system metrics) and measures
 *   (a) gunzip + JSON.parse                       - the floor any implementation pays
 *   (b) gunzip + JSON.parse + parseReportPayload  - our conversion on top
 * and the ratio b/a of their throughputs (goal: >= 40%).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parseReportPayload, type ReportContext } from '../src/ingest/report/payload.js';
import {
  buildReportPayload,
  EXCEPTIONS_PER_FRAME,
  METRICS_PER_FRAME,
  SPANS_PER_TRACE,
  TRACES_PER_FRAME,
} from './report-payloads.js';

const FRAMES = 12;
const PAYLOADS = 8;
const WARM_UP_MS = 1000;
const ROUNDS = 10;
const ROUND_MS = 400;

interface Throughput {
  payloadsPerSecond: number;
  bytesPerSecond: number;
}

/** Runs `work` over the payloads round-robin for `durationMs`. */
function runFor(durationMs: number, bodies: Buffer[], rawBytes: number[], work: (body: Buffer) => void): Throughput {
  let payloads = 0;
  let bytes = 0;
  let elapsed = 0;
  const start = performance.now();
  while (elapsed < durationMs) {
    const i = payloads % bodies.length;
    work(bodies[i] as Buffer);
    bytes += rawBytes[i] as number;
    payloads++;
    elapsed = performance.now() - start;
  }
  return { payloadsPerSecond: (payloads * 1000) / elapsed, bytesPerSecond: (bytes * 1000) / elapsed };
}

/**
 * Alternates the variants in short rounds and keeps each one's best round, so that load from
 * other processes, which only ever slows a round down, skews neither figure nor their ratio.
 */
function compare(bodies: Buffer[], rawBytes: number[], variants: ((body: Buffer) => void)[]): Throughput[] {
  const best = variants.map(() => ({ payloadsPerSecond: 0, bytesPerSecond: 0 }));
  for (const work of variants) runFor(WARM_UP_MS, bodies, rawBytes, work);
  for (let round = 0; round < ROUNDS; round++) {
    variants.forEach((work, v) => {
      const throughput = runFor(ROUND_MS, bodies, rawBytes, work);
      if (throughput.bytesPerSecond > (best[v] as Throughput).bytesPerSecond) best[v] = throughput;
    });
  }
  return best;
}

const ctx: ReportContext = {
  projectId: randomUUID(),
  remoteIp: '203.0.113.9',
  receivedAt: BigInt(Date.now()) * 1_000_000n,
};

const jsonTexts = Array.from({ length: PAYLOADS }, (_, i) => JSON.stringify(buildReportPayload(i, FRAMES)));
const bodies = jsonTexts.map((text) => gzipSync(text));
const rawBytes = jsonTexts.map((text) => Buffer.byteLength(text));

const [floor, full] = compare(bodies, rawBytes, [
  (body) => {
    JSON.parse(gunzipSync(body).toString('utf8'));
  },
  (body) => {
    const result = parseReportPayload(JSON.parse(gunzipSync(body).toString('utf8')), ctx);
    if (!result.ok || result.skippedCount > 0) throw new Error('benchmark payload did not parse cleanly');
  },
]) as [Throughput, Throughput];

const tracesPerPayload = FRAMES * TRACES_PER_FRAME;
const mb = (bytesPerSecond: number): string => (bytesPerSecond / 1e6).toFixed(1);
const perSecond = (payloadsPerSecond: number, perPayload: number): string =>
  Math.round(payloadsPerSecond * perPayload).toLocaleString('en-US');

console.log(
  `payload: ${FRAMES} frames, ${tracesPerPayload} traces, ${tracesPerPayload * SPANS_PER_TRACE} spans, ` +
    `${FRAMES * EXCEPTIONS_PER_FRAME} exceptions, ${FRAMES * METRICS_PER_FRAME} metrics; ` +
    `${((rawBytes[0] ?? 0) / 1e6).toFixed(2)} MB JSON, ${((bodies[0]?.length ?? 0) / 1e6).toFixed(2)} MB gzip`,
);
console.log(
  `(a) gunzip+JSON.parse:                    ${mb(floor.bytesPerSecond)} MB/s, ` +
    `${perSecond(floor.payloadsPerSecond, tracesPerPayload)} traces/s`,
);
console.log(
  `(b) gunzip+JSON.parse+parseReportPayload: ${mb(full.bytesPerSecond)} MB/s, ` +
    `${perSecond(full.payloadsPerSecond, tracesPerPayload)} traces/s, ` +
    `${perSecond(full.payloadsPerSecond, tracesPerPayload * SPANS_PER_TRACE)} spans/s`,
);
console.log(`ratio b/a: ${((100 * full.bytesPerSecond) / floor.bytesPerSecond).toFixed(0)}%`);
