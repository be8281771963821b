/**
 * Report payloads as a busy reference client sends them, shared by the report benchmarks: frames
 * of endpoint traces with 3 spans and ~10 attributes each, a few Go exceptions and the system
 * metrics; every trace and span id unique, every instant within the last minute, as a live
 * client's frames are. (Until 2026-11-27 they were an hour old: late data, for which every
 * request re-marks its hour for the rollup, one more insert per round than live traffic makes.)
 */
import { randomUUID } from 'node:crypto';

export const SPANS_PER_TRACE = 3;
export const TRACES_PER_FRAME = 250;
export const EXCEPTIONS_PER_FRAME = 6;

const ROUTES = [
  'GET /api/users/:id',
  'POST /api/orders',
  'GET /api/products',
  'PUT /api/cart/:id',
  'DELETE /api/sessions/:id',
];
const SPAN_NAMES = ['db.users.select', 'cache.redis.get', 'http.client.payments.post', 'db.orders.insert'];
const METRIC_NAMES = [
  'mem.used',
  'mem.total',
  'cpu.used_pcnt',
  'go.go_routines',
  'go.heap_objects',
  'go.num_gc',
  'go.gc_pause',
];
export const METRICS_PER_FRAME = METRIC_NAMES.length;

const base = Date.now() - 60_000;
const timestamp = (offsetMs: number, nanos: number): string =>
  new Date(base + offsetMs).toISOString().replace('Z', `${String(nanos % 1_000_000).padStart(6, '0')}Z`);

function goStackTrace(n: number): string {
  return [
    `*errors.errorString: order ${n} not found for customer ${randomUUID()}`,
    '(*OrderHandler).createOrder()',
    `    /home/build/src/shop/internal/api/orders.go:${50 + (n % 7)}`,
    '(*Context).Next()',
    '    /home/build/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go:174',
    '(*Engine).handleHTTPRequest()',
    '    /home/build/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/gin.go:620',
    'serverHandler.ServeHTTP()',
    '    /usr/local/go/src/net/http/server.go:3137',
    '',
  ].join('\n');
}

/** One payload of `frames` frames; `seed` makes its ids and instants its own. */
export function buildReportPayload(seed: number, frames: number): object {
  let n = seed * 10_000;
  const collectionFrames = Array.from({ length: frames }, (_, f) => {
    const traces = Array.from({ length: TRACES_PER_FRAME }, (_, t) => {
      n++;
      const offsetMs = seed * 50 + f * 5000 + t * 17;
      return {
        id: randomUUID(),
        endpoint: ROUTES[n % ROUTES.length],
        duration: 1_000_000 + (n % 50_000_000),
        recordedAt: timestamp(offsetMs, n),
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
          startTime: timestamp(offsetMs + s, n + s),
          duration: 100_000 + ((n * 7 + s) % 5_000_000),
        })),
      };
    });
    const stackTraces = Array.from({ length: EXCEPTIONS_PER_FRAME }, (_, e) => ({
      traceId: traces[e * 40]?.id ?? null,
      stackTrace: goStackTrace(n + e),
      recordedAt: timestamp(seed * 50 + f * 5000 + e * 40, e),
      isMessage: false,
      attributes: { 'user.id': String(e) },
    }));
    const metrics = METRIC_NAMES.map((name, m) => ({
      name,
      value: 100 + ((n + m) % 1000) / 7,
      recordedAt: timestamp(seed * 50 + f * 5000, m),
    }));
    return { stackTraces, metrics, traces };
  });
  return { collectionFrames, appVersion: '2.4.1', serverName: 'web-1' };
}
