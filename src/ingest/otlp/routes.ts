/**
 * OTLP/HTTP routes under /api/otel: traces, metrics, logs and (experimental) profiles, with
 * CORS so browser exporters work (../cors.ts). Protobuf when Content-Type is
 * application/x-protobuf, OTLP/JSON otherwise; bodies capped at 10 MB after decompression;
 * answers in the request's encoding, with partial_success when records were rejected rather than
 * classified away.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { classifyTraces } from '../../core/classify/index.js';
import { emptyBatch, type TelemetryBatch } from '../../core/records.js';
import { useRawBodies } from '../../http/body-parsers.js';
import { badRequest } from '../../http/errors.js';
import { JSON_ERROR, useErrorBodies } from '../../http/error-handler.js';
import { LIMITS } from '../../http/limits.js';
import type { Services } from '../../application/services.js';
import { projectOf, type IngestGuards } from '../authenticate.js';
import { preflightRoute } from '../cors.js';
import { commitIngest, unixNanos, type IngestObject } from '../commit.js';
import { symbolicateJsExceptions } from '../../application/symbolication/sourcemaps.js';
import {
  convertLogs,
  convertMetrics,
  decodeLogsRequest,
  decodeMetricsRequest,
  decodeTraceRequest,
  encodeErrorStatus,
  encodeExportResponse,
  inspectProfilesRequest,
  otlpEncodingOf,
  OtlpDecodeError,
  type OtlpEncoding,
  type OtlpSignal,
} from './index.js';
import type { Rejections } from '../../core/classify/index.js';
import { RETRACED_FRAMEWORKS, retraceExceptions } from '../../application/symbolication/android.js';

const PROTOBUF = 'application/x-protobuf';

interface Converted {
  batch: TelemetryBatch;
  rejected?: Rejections;
  objects?: IngestObject[];
}

type Converter = (body: Buffer, encoding: OtlpEncoding, context: { projectId: string; receivedAt: Date }) => Converted;

const CONVERTERS: Record<OtlpSignal, { path: string; convert: Converter }> = {
  traces: {
    path: '/api/otel/v1/traces',
    convert(body, encoding, { projectId, receivedAt }) {
      const classified = classifyTraces(decodeTraceRequest(body, encoding), {
        projectId,
        receivedAt: unixNanos(receivedAt),
      });
      const objects = classified.conversations.map((c) => ({
        key: c.key,
        body: Buffer.from(c.json),
        contentType: 'application/json',
      }));
      return { batch: classified.batch, rejected: classified.rejected, objects };
    },
  },
  metrics: {
    path: '/api/otel/v1/metrics',
    convert(body, encoding, { projectId, receivedAt }) {
      const converted = convertMetrics(decodeMetricsRequest(body, encoding), {
        projectId,
        receivedAt: unixNanos(receivedAt),
      });
      return { batch: { ...emptyBatch(), metricPoints: converted.points }, rejected: converted.rejected };
    },
  },
  logs: {
    path: '/api/otel/v1/logs',
    convert(body, encoding, { projectId, receivedAt }) {
      return {
        batch: {
          ...emptyBatch(),
          logs: convertLogs(decodeLogsRequest(body, encoding), { projectId, receivedAt: unixNanos(receivedAt) }),
        },
      };
    },
  },
  // Profiles are kept as received (the format is still experimental): the raw body in the
  // object store and a row with its time, service and sample count.
  profiles: {
    path: '/api/otel/v1development/profiles',
    convert(body, encoding, { projectId, receivedAt }) {
      const summary = inspectProfilesRequest(body, encoding);
      const day = receivedAt.toISOString().slice(0, 10);
      const key = `profiles/${projectId}/${day}/${unixNanos(receivedAt)}-${randomBytes(4).toString('hex')}.${encoding === 'protobuf' ? 'pb' : 'json'}`;
      const contentType = encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json';
      const profile = {
        projectId,
        receivedAt: unixNanos(receivedAt),
        serviceName: summary.serviceNames.join(','),
        objectKey: key,
        byteSize: body.length,
        sampleCount: summary.sampleCount,
        contentType,
      };
      return { batch: { ...emptyBatch(), profiles: [profile] }, objects: [{ key, body, contentType }] };
    },
  },
};

export function otlpRoutes(scope: FastifyInstance, services: Services, guards: IngestGuards): void {
  useRawBodies(scope, { maxBytes: LIMITS.otlpBytes, timeoutMs: services.config.bodyTimeoutMs });
  // OTLP/HTTP: a protobuf exporter's failed export is answered with a protobuf Status, which the
  // Collector and the Java SDK decode to log the reason; JSON exporters print the body as it is,
  // so they keep the service's JSON error.
  useErrorBodies(scope, (request, answer) =>
    otlpEncodingOf(request.headers['content-type']) === 'protobuf'
      ? { body: Buffer.from(encodeErrorStatus(answer.statusCode, answer.message)), contentType: PROTOBUF }
      : JSON_ERROR(request, answer),
  );
  for (const [signal, { path, convert }] of Object.entries(CONVERTERS) as Array<
    [OtlpSignal, (typeof CONVERTERS)[OtlpSignal]]
  >) {
    scope.post(path, { onRequest: guards, schema: exportDocs(signal) }, (request, reply) =>
      exportSignal(services, signal, convert, request, reply),
    );
    preflightRoute(scope, path);
  }
}

/** The OpenAPI entry of an export route (no body schema: bodies are protobuf or OTLP/JSON). */
function exportDocs(signal: OtlpSignal) {
  return {
    summary: `OTLP/HTTP export of ${signal}`,
    description:
      'Authorization: Bearer <project token>. Content-Type application/x-protobuf, any other type is read as ' +
      'OTLP/JSON; Content-Encoding gzip optional; at most 10 MB after decompression. 200: an Export response ' +
      "in the request's encoding, with partial_success when records were rejected. A failed export (400, 408, " +
      '413, 429, 500, 503; 503 with Retry-After) is answered with a google.rpc.Status message to a protobuf ' +
      'request and with {"error": "..."} to a JSON one; 401 has an empty body.',
  };
}

async function exportSignal(
  services: Services,
  signal: OtlpSignal,
  convert: Converter,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const project = projectOf(request);
  const encoding = otlpEncodingOf(request.headers['content-type']);
  const body = request.rawBody ?? Buffer.alloc(0);
  const receivedAt = new Date();
  let converted: Converted;
  try {
    converted = convert(body, encoding, { projectId: project.id, receivedAt });
  } catch (error) {
    if (error instanceof OtlpDecodeError) throw badRequest(error.message);
    throw error;
  }
  if (RETRACED_FRAMEWORKS.has(project.framework) && converted.batch.exceptions.length > 0) {
    await retraceExceptions(converted.batch.exceptions, project.id, services.meta, services.symbolTables);
  }
  // Exception events of browser and Node SDKs: JavaScript source maps, as on the report route.
  await symbolicateJsExceptions(converted.batch.exceptions, project.id, services.sourceMaps);
  const rejections = converted.rejected;
  const rejected = rejections?.count ?? 0;
  if (rejected > 0)
    request.log.info(
      { projectId: project.id, signal, rejected, reasons: rejections?.messages },
      'OTLP records rejected',
    );
  const stored = commitIngest(services, {
    protocol: 'otlp',
    project,
    request,
    bytes: body.length,
    receivedAt,
    batch: converted.batch,
    objects: converted.objects,
    skippedRecords: rejected,
  });
  // Returned, not awaited: this function's frame, which holds the records, ends here instead of
  // keeping them alive while their insert runs (ingest/commit.ts).
  return answerOnceStored(stored, reply, encodeExportResponse(signal, encoding, rejections));
}

async function answerOnceStored(
  stored: Promise<void>,
  reply: FastifyReply,
  response: ReturnType<typeof encodeExportResponse>,
) {
  await stored;
  return reply.type(response.contentType).send(Buffer.from(response.body));
}
