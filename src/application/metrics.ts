/**
 * The service's own metrics, in Prometheus text format at GET /metrics. Labels never carry
 * project or organization ids, so the endpoint shows no tenant data; it still tells traffic
 * volumes and versions, so it exists only when METRICS_TOKEN is set, and answers only that token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FlushEvent } from '../store/telemetry/writer.js';
import { bearerToken } from '../http/bearer.js';
import { unauthorized } from '../http/errors.js';
import { isBrowserNavigation, sendAppPage } from '../server/web.js';

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly ingestRequests = new Counter({
    name: 'sightline_ingest_requests_total',
    help: 'Ingest requests by route and answer status.',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  readonly skippedRecords = new Counter({
    name: 'sightline_ingest_skipped_records_total',
    help: 'Records of an accepted ingest request that broke the schema and were not stored.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly ingestBytes = new Counter({
    name: 'sightline_ingest_bytes_total',
    help: 'Decompressed bytes of accepted ingest requests.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly writerRows = new Counter({
    name: 'sightline_writer_rows_total',
    help: 'Rows inserted by the group-commit writer.',
    labelNames: ['table', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly writerFlushSeconds = new Histogram({
    name: 'sightline_writer_flush_seconds',
    help: 'Duration of one group-commit insert.',
    labelNames: ['table'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'sightline_' });
  }

  recordFlush = (event: FlushEvent): void => {
    this.writerRows.inc({ table: event.table, outcome: event.error === undefined ? 'stored' : 'failed' }, event.rows);
    this.writerFlushSeconds.observe({ table: event.table }, event.durationMs / 1000);
  };
}

/**
 * GET /metrics for the holder of `token` (401 with an empty body for anyone else). On the
 * listener that serves the dashboard (`webRoot` given), /metrics is also the dashboard's metrics
 * page: a browser opening it by URL (no Authorization, asks for HTML) gets the app instead.
 */
export function metricsRoute(instance: FastifyInstance, metrics: ServiceMetrics, token: string, webRoot: string | null): void {
  const expected = digestOf(token);
  instance.get('/metrics', async (request, reply) => {
    if (webRoot !== null && isBrowserNavigation(request)) return sendAppPage(reply, webRoot);
    const presented = bearerToken(request.headers.authorization);
    // Digests have one length, so the comparison takes the same time whatever was presented.
    if (presented === null || !timingSafeEqual(digestOf(presented), expected)) throw unauthorized();
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

const digestOf = (value: string): Buffer => createHash('sha256').update(value).digest();
