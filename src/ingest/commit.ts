/**
 * The common tail of every ingest route: objects first (a stored row never points at a missing
 * object), then the request's rows in one group commit, its rollup marks, its usage row last,
 * then the monthly usage counter and the service metrics. Resolves only when everything is
 * stored.
 */
import type { FastifyRequest } from 'fastify';
import type { TelemetryBatch } from '../core/records.js';
import type { Services } from '../application/services.js';
import { batchRows } from '../store/telemetry/rows.js';
import type { IngestProject } from '../core/projects.js';
import { USAGE_COUNTER_TTL_MS, usageCounterKey, usageRecord } from './usage.js';
import { WriteFailedError } from '../store/telemetry/writer.js';
import { hoursOf } from '../application/rollup-marks.js';

export interface IngestObject {
  key: string;
  body: Uint8Array;
  contentType: string;
}

export interface IngestCommit {
  protocol: 'report' | 'otlp';
  project: IngestProject;
  request: FastifyRequest;
  /** Decompressed request bytes: what usage and the quota count. */
  bytes: number;
  receivedAt: Date;
  batch: TelemetryBatch;
  objects?: IngestObject[];
  skippedRecords?: number;
}

export function commitIngest(services: Services, commit: IngestCommit): Promise<void> {
  const objects = commit.objects ?? [];
  if (objects.length === 0) return commitRows(services, commit);
  return Promise.all(
    objects.map((object) => services.objects.put(object.key, object.body, { contentType: object.contentType })),
  ).then(
    () => commitRows(services, commit),
    (error: unknown) => {
      throw new WriteFailedError('storing ingest objects failed', true, { cause: error });
    },
  );
}

/**
 * Hands the rows to the writer and returns the rest of the commit, which never sees the batch.
 * Not an async function on purpose, nor are its callers once they call it: an awaiting async
 * function keeps its variables (here the batch) alive until it resumes, and records kept alive
 * while their insert runs were most of the garbage collector's work under load (writer.ts).
 */
function commitRows(services: Services, commit: IngestCommit): Promise<void> {
  const { batch } = commit;
  const stored = services.writer.write(batchRows(batch));
  return afterRowsStored(services, stored, {
    project: commit.project,
    protocol: commit.protocol,
    request: commit.request,
    bytes: commit.bytes,
    receivedAt: commit.receivedAt,
    skipped: commit.skippedRecords ?? 0,
    endpointHours: hoursOf(batch.endpoints),
    exceptions: batch.exceptions,
  });
}

interface AfterRows {
  project: IngestProject;
  protocol: IngestCommit['protocol'];
  request: FastifyRequest;
  bytes: number;
  receivedAt: Date;
  skipped: number;
  endpointHours: number[];
  exceptions: TelemetryBatch['exceptions'];
}

async function afterRowsStored(services: Services, stored: Promise<void>, after: AfterRows): Promise<void> {
  const { project, protocol, request, bytes, receivedAt, skipped } = after;
  await stored;
  // After the rows are stored; if marking fails (a WriteFailedError, 503), the client's retry
  // re-sends them (deduplicated) and marks again.
  await services.rollupMarks.afterWrite(project.id, after.endpointHours);
  // Once stored (an alert never names an occurrence that is not there); in the background.
  services.issues.afterWrite(project.id, after.exceptions);
  // Last: usage rows are summed, not deduplicated, so a request refused with 503 must leave
  // none, or the client's retry would count its bytes twice.
  try {
    await services.usage.record(usageRecord(project, bytes, skipped, receivedAt));
  } catch (error) {
    throw new WriteFailedError('recording ingest usage failed', true, { cause: error });
  }

  services.metrics.ingestBytes.inc({ protocol }, bytes);
  if (skipped > 0) services.metrics.skippedRecords.inc({ protocol }, skipped);
  await services.coord
    .incrBy(usageCounterKey(project.organizationId, receivedAt), bytes, USAGE_COUNTER_TTL_MS)
    .catch((error: unknown) => request.log.error({ err: error }, 'usage counter update failed'));
}

/** Nanoseconds since the epoch of a Date, for records. */
export function unixNanos(date: Date): bigint {
  return BigInt(date.getTime()) * 1_000_000n;
}
