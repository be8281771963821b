/**
 * POST /api/report, the native report protocol: project token, admission, a body capped at
 * 64 MB after decompression, validation that keeps good records and counts bad ones,
 * symbolication for Flutter and iOS projects, recording events to the object store, every row
 * through the group-commit writer, then `{}`. CORS, for browser SDKs: ../cors.ts.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseJson, useRawBodies } from '../../http/body-parsers.js';
import { badRequest } from '../../http/errors.js';
import { LIMITS } from '../../http/limits.js';
import type { Services } from '../../application/services.js';
import { projectOf, type IngestGuards } from '../authenticate.js';
import { AdmissionGate } from '../../http/admission.js';
import { preflightRoute } from '../cors.js';
import type { IngestProject } from '../../core/projects.js';
import { commitIngest, unixNanos } from '../commit.js';
import { SYMBOLICATED_FRAMEWORKS, symbolicateExceptions } from '../../application/symbolication/index.js';
import { RETRACED_FRAMEWORKS, retraceExceptions } from '../../application/symbolication/android.js';
import { symbolicateJsExceptions } from '../../application/symbolication/sourcemaps.js';
import { parseReportPayload } from './payload.js';

const gzip = promisify(zlib.gzip);

/**
 * The parsed tree of an adversarial body near the 64 MB cap (millions of tiny objects) can take
 * several GB of heap, and it lives until the request's rows are stored. So requests with bodies
 * this large are handled one at a time, from parse to answer; smaller ones are not held up.
 */
export const LARGE_REPORT_BYTES = 16 * 1024 * 1024;

export function reportRoute(scope: FastifyInstance, services: Services, guards: IngestGuards): void {
  useRawBodies(scope, { maxBytes: LIMITS.reportBytes, timeoutMs: services.config.bodyTimeoutMs });
  const largeBodies = new AdmissionGate({
    name: 'ingest of large bodies',
    maxConcurrency: 1,
    queueWaitMs: services.config.ingest.queueWaitMs,
  });

  scope.post('/api/report', { onRequest: guards }, async (request, reply) => {
    const project = projectOf(request);
    const body = request.rawBody ?? Buffer.alloc(0);
    if (body.length === 0) throw badRequest('body is empty: expected a report payload');
    const release = body.length > LARGE_REPORT_BYTES ? await largeBodies.acquire() : null;
    try {
      await ingestReport(services, request, project, body);
    } finally {
      release?.();
    }
    return reply.send({});
  });
  preflightRoute(scope, '/api/report');
}

async function ingestReport(
  services: Services,
  request: FastifyRequest,
  project: IngestProject,
  body: Buffer,
): Promise<void> {
  const receivedAt = new Date();
  const parsed = parseReportPayload(parseJson(body), {
    projectId: project.id,
    remoteIp: request.ip,
    receivedAt: unixNanos(receivedAt),
  });
  if (!parsed.ok) throw badRequest(parsed.error);
  if (parsed.skippedCount > 0) {
    request.log.warn(
      { projectId: project.id, skipped: parsed.skippedCount, records: parsed.skipped },
      'report records skipped',
    );
  }
  if (SYMBOLICATED_FRAMEWORKS.has(project.framework) && parsed.batch.exceptions.length > 0) {
    await symbolicateExceptions(parsed.batch.exceptions, project.id, services.symbolTables);
  }
  if (RETRACED_FRAMEWORKS.has(project.framework) && parsed.batch.exceptions.length > 0) {
    await retraceExceptions(parsed.batch.exceptions, project.id, services.meta, services.symbolTables);
  }
  // JavaScript source maps: any project, chosen by the shape of each trace.
  await symbolicateJsExceptions(parsed.batch.exceptions, project.id, services.sourceMaps);
  const objects = await Promise.all(
    parsed.recordingObjects.map(async (recording) => ({
      key: recording.key,
      body: await gzip(recording.eventsJson),
      contentType: 'application/json+gzip',
    })),
  );
  // Returned, not awaited: this frame, which holds the parsed records, ends here instead of
  // keeping them alive while their insert runs (ingest/commit.ts).
  return commitIngest(services, {
    protocol: 'report',
    project,
    request,
    bytes: body.length,
    receivedAt,
    batch: parsed.batch,
    objects,
    skippedRecords: parsed.skippedCount,
  });
}
