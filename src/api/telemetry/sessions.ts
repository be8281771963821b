/**
 * Browser sessions: list (URL, user agent, time, has errors), detail with linked exceptions, and
 * the recording reassembled by segmentIndex, streamed from the object store one segment at a
 * time (never the whole recording in memory).
 */
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.js';
import { LIMITS } from '../../http/limits.js';
import type { Services } from '../../application/services.js';
import {
  SESSION_FILTERS,
  findSession,
  listSessions,
  recordingSegments,
  type RecordingSegment,
} from '../../store/telemetry/queries/sessions.js';
import {
  bool,
  int,
  listBody,
  listOf,
  listQueryOf,
  nnum,
  nstr,
  obj,
  readClockOf,
  projectOf,
  projectQuery,
  routeSchema,
  str,
  strMap,
  type ListBody,
  type ListSpec,
} from './conventions.js';

const sessionProps = {
  id: str,
  startedAt: nstr,
  endedAt: nstr,
  durationMs: nnum,
  clientIp: str,
  url: nstr,
  userAgent: nstr,
  attributes: strMap,
  distributedTraceId: nstr,
  errorCount: int,
  recordingSegments: int,
};

const SESSION_LIST: ListSpec = {
  order: ['startedAt'],
  fallback: { orderBy: 'startedAt', direction: 'desc' },
  filters: SESSION_FILTERS,
};

const ID_PARAM = { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } } as const;
const gunzip = promisify(zlib.gunzip);

export function sessionRoutes(scope: FastifyInstance, services: Services): void {
  scope.post<{ Body: ListBody & { hasErrors?: boolean } }>(
    '/api/sessions',
    {
      schema: routeSchema(
        'Sessions',
        'Browser sessions started in the range, newest first; filters url, path, userAgent, clientIp, durationMs, attributes.<key>',
        {
          body: listBody(['startedAt'], { hasErrors: { type: 'boolean' } }),
          response: listOf(obj(sessionProps)),
        },
      ),
    },
    async (request) => {
      const body = request.body;
      const clock = readClockOf(request, services);
      const { range, pagination, sort, filters } = listQueryOf(body, clock, SESSION_LIST);
      const result = await listSessions(services.telemetry, projectOf(request), {
        range,
        keptFromMs: clock.keptFromMs,
        filters,
        hasErrors: body?.hasErrors,
        direction: sort.direction,
        ...pagination,
      });
      return { items: result.items, page: pagination.page, pageSize: pagination.pageSize, hasMore: result.hasMore };
    },
  );

  scope.get<{ Params: { id: string } }>(
    '/api/sessions/:id',
    {
      schema: routeSchema('Sessions', 'One session with its attributes, linked exceptions and recording segments', {
        querystring: projectQuery,
        params: ID_PARAM,
        response: obj({
          ...sessionProps,
          exceptions: { type: 'array', items: obj({ hash: str, recordedAt: nstr, title: str, isMessage: bool }) },
          segments: {
            type: 'array',
            items: obj({ segmentIndex: int, startedAt: nstr, endedAt: nstr, eventCount: int, byteSize: int }),
          },
        }),
      }),
    },
    async (request) => {
      const found = await findSession(
        services.telemetry,
        projectOf(request),
        request.params.id.toLowerCase(),
        readClockOf(request, services).keptFromMs,
      );
      if (!found) throw notFound('no such session in this project');
      return found;
    },
  );

  scope.get<{ Params: { id: string } }>(
    '/api/sessions/:id/recording',
    {
      schema: {
        tags: ['Sessions'],
        summary:
          'The session recording: {"sessionId", "segments": [{segmentIndex, startedAt, endedAt, logs, actions, events}]} in segmentIndex order, streamed; a segment whose stored events cannot be read has events [] and unreadable: true. 404 when the session has no segment or is not found by GET /api/sessions/{id} (a session started before its plan keeps has no recording, however late its segments arrived)',
        security: [{ bearer: [] }],
        querystring: projectQuery,
        params: ID_PARAM,
        response: { 200: { description: 'application/json stream', type: 'string' } },
      },
    },
    async (request, reply) => {
      const projectId = projectOf(request);
      const sessionId = request.params.id.toLowerCase();
      const segments = await recordingSegments(
        services.telemetry,
        projectId,
        sessionId,
        readClockOf(request, services).keptFromMs,
      );
      if (segments.length === 0) throw notFound('no recording for this session');
      return reply
        .type('application/json')
        .send(Readable.from(recordingStream(services, projectId, sessionId, segments)));
    },
  );
}

async function* recordingStream(
  services: Services,
  projectId: string,
  sessionId: string,
  segments: RecordingSegment[],
): AsyncGenerator<Buffer | string> {
  yield `{"sessionId":${JSON.stringify(sessionId)},"segments":[`;
  let first = true;
  for (const segment of segments) {
    // The key comes from the row of the authorized project; recordings live under its prefix.
    if (!segment.objectKey.startsWith(`recordings/${projectId}/`)) continue;
    const head = {
      segmentIndex: segment.segmentIndex,
      exceptionId: segment.exceptionId,
      startedAt: segment.startedAt,
      endedAt: segment.endedAt,
      logs: safeJson(segment.logs),
      actions: safeJson(segment.actions),
    };
    const events = await segmentEvents(services, segment.objectKey);
    // A segment whose stored events cannot be read is answered empty and marked, so the rest of
    // the recording still parses (before: the answer was cut mid-way through the JSON).
    yield `${first ? '' : ','}${JSON.stringify(events ? head : { ...head, unreadable: true }).slice(0, -1)},"events":`;
    first = false;
    yield events ?? '[]';
    yield '}';
  }
  yield ']}';
}

/**
 * One segment's events JSON, unzipped whole before any of it is sent: a damaged object is found
 * before the answer commits to it. A segment is at most one report's events (LIMITS.reportBytes).
 * Null when the object is missing or is not the gzip the ingest wrote.
 */
async function segmentEvents(services: Services, key: string): Promise<Buffer | null> {
  const stored = await services.objects.get(key);
  if (!stored) return null;
  try {
    return await gunzip(stored, { maxOutputLength: LIMITS.reportBytes });
  } catch {
    return null;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return [];
  }
}
