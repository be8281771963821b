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

const FRAMES = 12;
const TRACES_PER_FRAME = 250;
const SPANS_PER_TRACE = 3;
const EXCEPTIONS_PER_FRAME = 6;
const PAYLOADS = 8;
const WARM_UP_MS = 1000;
const ROUNDS = 10;
const ROUND_MS = 400;

const ROUTES = ['GET /api/users/:id', 'POST /api/orders', 'GET /api/products', 'PUT /api/cart/:id', 'DELETE /api/sessions/:id'];
const SPAN_NAMES = ['db.users.select', 'cache.redis.get', 'http.client.payments.post', 'db.orders.insert'];
const METRIC_NAMES = ['mem.used', 'mem.total', 'cpu.used_pcnt', 'go.go_routines', 'go.heap_objects', 'go.num_gc', 'go.gc_pause'];

const base = Date.parse('2024-05-01T10:00:00Z');
const timestamp = (offsetMs: number, nanos: number): string =>
  new Date(base + offsetMs).toISOString().replace('Z', `${String(nanos).padStart(6, '0')}Z`);

function goStackTrace(n: number): string {
  return [
    `*errors.errorString: order ${n} not found for customer ${randomUUID()}`,
    '(*OrderHandler).createOrder()',
    `    /home/build/src/shop/internal/api/orders.go:${50 + (n % 7)}`,
    '(*Context).Next()',
    '    /home/build/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go:174',
    '(*Engine).handleHTTPRequest()',
    '    /home/build/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/gin.go:620',
    '(*Engine).ServeHTTP()',
    '    /home/build/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/gin.go:576',
    'serverHandler.ServeHTTP()',
    '    /usr/local/go/src/net/http/server.go:3137',
    '(*conn).serve()',
    '    /usr/local/go/src/net/http/server.go:2039',
    '',
  ].join('\n');
}

function buildPayload(seed: number): object {
  let n = seed * 1_000_000;
  const frames = Array.from({ length: FRAMES }, (_, f) => {
    const traces = Array.from({ length: TRACES_PER_FRAME }, (_, t) => {
      n++;
      const offsetMs = f * 5000 + t * 17;
      return {
        id: randomUUID(),
        endpoint: ROUTES[n % ROUTES.length],
        duration: 1_000_000 + (n % 50_000_000),
        recordedAt: timestamp(offsetMs, n % 1_000_000),
        statusCode: n % 50 === 0 ? 500 : 200,
        bodySize: 200 + (n % 20_000),
        clientIP: `10.0.${n % 256}.${(n >> 8) % 256}`,
        attributes: {
          'user.id': String(n % 5000),
          'tenant.id': `tenant-${n % 40}`,
          region: 'eu-central-1',
          'http.user_agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Safari/605.1.15',
          'request.id': randomUUID(),
          plan: n % 3 === 0 ? 'pro' : 'free',
          'feature.flags': 'checkout-v2,search-beta',
          locale: 'de-DE',
          'cart.items': String(n % 12),
          'deploy.id': 'deploy-2024-05-01-3',
        },
        spans: Array.from({ length: SPANS_PER_TRACE }, (_, s) => ({
          id: randomUUID(),
          name: SPAN_NAMES[(n + s) % SPAN_NAMES.length],
          startTime: timestamp(offsetMs + s, (n + s) % 1_000_000),
          duration: 100_000 + ((n * 7 + s) % 5_000_000),
        })),
      };
    });
    const stackTraces = Array.from({ length: EXCEPTIONS_PER_FRAME }, (_, e) => ({
      traceId: traces[e * 40]?.id ?? null,
      stackTrace: goStackTrace(n + e),
      recordedAt: timestamp(f * 5000 + e * 40, e),
      isMessage: false,
      attributes: { 'user.id': String(e) },
    }));
    const metrics = METRIC_NAMES.map((name, m) => ({
      name,
      value: 100 + ((n + m) % 1000) / 7,
      recordedAt: timestamp(f * 5000, 0),
    }));
    return { stackTraces, metrics, traces };
  });
  return { collectionFrames: frames, appVersion: '2.4.1', serverName: 'web-1' };
}

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

const jsonTexts = Array.from({ length: PAYLOADS }, (_, i) => JSON.stringify(buildPayload(i)));
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
    `${FRAMES * EXCEPTIONS_PER_FRAME} exceptions, ${FRAMES * METRIC_NAMES.length} metrics; ` +
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
