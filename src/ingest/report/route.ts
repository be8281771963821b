/**
 * POST /api/report, the native report protocol: project token, admission, a body capped at
 * 64 MB after decompression, validation that keeps good records and counts bad ones, recording
 * events to the object store, every row through the group-commit writer, then `{}`.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { parseJson, useRawBodies } from '../../server/body-parsers.js';
import { badRequest } from '../../server/errors.js';
import { LIMITS } from '../../server/limits.js';
import type { Services } from '../../server/services.js';
import { batchRows, ingestUsageRow } from '../../store/telemetry/rows.js';
import { WriteFailedError } from '../writer.js';
import { admitted, projectOf, requireProject } from '../authenticate.js';
import { USAGE_COUNTER_TTL_MS, usageCounterKey, usageRecord } from '../usage.js';
import { parseReportPayload, type RecordingObject } from './payload.js';

const gzip = promisify(zlib.gzip);

export function reportRoute(scope: FastifyInstance, services: Services): void {
  useRawBodies(scope, { maxBytes: LIMITS.reportBytes, timeoutMs: services.config.bodyTimeoutMs });

  scope.post('/api/report', { onRequest: [requireProject(services), admitted(services)] }, async (request, reply) => {
    const project = projectOf(request);
    const body = request.rawBody ?? Buffer.alloc(0);
    if (body.length === 0) throw badRequest('body is empty: expected a report payload');
    const receivedAt = new Date();
    const parsed = parseReportPayload(parseJson(body), {
      projectId: project.id,
      remoteIp: request.ip,
      receivedAt: BigInt(receivedAt.getTime()) * 1_000_000n,
    });
    if (!parsed.ok) throw badRequest(parsed.error);

    if (parsed.skippedCount > 0) {
      services.metrics.skippedRecords.inc({ route: 'report' }, parsed.skippedCount);
      request.log.warn({ projectId: project.id, skipped: parsed.skippedCount, records: parsed.skipped }, 'report records skipped');
    }

    await storeRecordings(services, parsed.recordingObjects);
    const rows = batchRows(parsed.batch);
    rows.push(['ingest_usage', [ingestUsageRow(usageRecord(project, body.length, parsed.skippedCount, receivedAt))]]);
    await services.writer.write(rows);

    services.metrics.ingestBytes.inc({ route: 'report' }, body.length);
    await services.coord
      .incrBy(usageCounterKey(project.organizationId, receivedAt), body.length, USAGE_COUNTER_TTL_MS)
      .catch((error: unknown) => request.log.error({ err: error }, 'usage counter update failed'));
    return reply.send({});
  });
}

/** Recording events first: a stored row never points at a missing object. */
async function storeRecordings(services: Services, recordings: RecordingObject[]): Promise<void> {
  try {
    await Promise.all(
      recordings.map(async (recording) =>
        services.objects.put(recording.key, await gzip(recording.eventsJson), { contentType: 'application/json+gzip' }),
      ),
    );
  } catch (error) {
    throw new WriteFailedError('storing session recording events failed', true, { cause: error });
  }
}
