/**
 * The service's own metrics (served in Prometheus text format by server/metrics-route.ts). Labels
 * never carry project or organization ids, so the endpoint shows no tenant data. A label name
 * means one thing in every series: `route` is the route's path, `protocol` the ingest protocol
 * (`report` or `otlp`).
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FlushEvent } from '../store/telemetry/writer.js';

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
    help: 'Records of an accepted ingest request that broke the schema and were not stored, by protocol.',
    labelNames: ['protocol'] as const,
    registers: [this.registry],
  });
  readonly ingestBytes = new Counter({
    name: 'sightline_ingest_bytes_total',
    help: 'Decompressed bytes of accepted ingest requests, by protocol.',
    labelNames: ['protocol'] as const,
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
