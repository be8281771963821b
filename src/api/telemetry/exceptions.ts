/** Issues: exception groups ranked by count (or recency, users, sessions) and one group's occurrences. */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../application/services.js';
import { ISSUE_STATUSES, type IssueStatus } from '../../core/issues.js';
import { findIssueStates, hashesWithStatus } from '../../store/meta/repositories/issues.js';
import {
  EXCEPTION_FILTERS,
  entityNames,
  exceptionGroups,
  exceptionOccurrences,
  occurrenceOf,
} from '../../store/telemetry/queries/exceptions.js';
import { isoOf, nullIfNil } from '../../store/telemetry/queries/convert.js';
import { bucketStarts, fillSeries } from '../../store/telemetry/queries/run.js';
import {
  bool,
  bucketSecondsOf,
  int,
  listBody,
  listOf,
  listQueryOf,
  nstr,
  obj,
  pageAnswer,
  readClockOf,
  projectOf,
  projectQuery,
  routeSchema,
  str,
  strMap,
  type ListBody,
  type ListSpec,
} from './conventions.js';

const GROUP_ORDER = ['count', 'lastSeen', 'firstSeen', 'sessionsAffected', 'usersAffected'] as const;
const GROUP_LIST: ListSpec = {
  order: GROUP_ORDER,
  fallback: { orderBy: 'count', direction: 'desc' },
  filters: EXCEPTION_FILTERS,
};
const OCCURRENCE_LIST: ListSpec = {
  order: ['recordedAt'],
  fallback: { orderBy: 'recordedAt', direction: 'desc' },
  filters: EXCEPTION_FILTERS,
};

const linkedSchema = {
  type: ['object', 'null'],
  required: ['kind', 'id', 'name'],
  properties: {
    kind: { type: 'string', enum: ['endpoint', 'task'] },
    id: str,
    name: {
      ...nstr,
      description:
        "the endpoint's or task's name; null when its call is not found (from a day before the range, and no earlier than the plan keeps)",
    },
  },
} as const;

const groupItem = obj({
  hash: str,
  title: str,
  stackTrace: str,
  isMessage: bool,
  count: int,
  sessionsAffected: int,
  usersAffected: int,
  firstSeen: nstr,
  lastSeen: nstr,
  sparkline: { type: 'array', items: int, description: 'occurrences per bucket (bucketSeconds), oldest first' },
  linked: linkedSchema,
  status: { type: 'string', enum: ISSUE_STATUSES },
  regressedAt: { ...nstr, description: 'when an occurrence last reopened the resolved issue' },
  regressedVersion: nstr,
  resolvedInVersion: {
    ...nstr,
    description: 'resolved "in the next version": occurrences of newer versions regress it',
  },
  ignoredUntil: nstr,
  ignoreOccurrences: { type: ['integer', 'null'], description: 'ignored until this many more occurrences' },
  statusChangedAt: nstr,
  statusChangedBy: {
    type: ['object', 'null'],
    required: ['id', 'name'],
    properties: { id: str, name: str },
    description: 'null when the service changed it (a regression) or nobody did',
  },
});

/** Most hashes a status filter passes to the telemetry query (the project's most recently changed). */
export const MAX_STATUS_FILTER_HASHES = 10_000;

const occurrenceItem = obj({
  recordedAt: nstr,
  stackTrace: str,
  rawStackTrace: str,
  isMessage: bool,
  traceId: nstr,
  isTask: bool,
  linked: linkedSchema,
  sessionId: nstr,
  sessionRecordingId: nstr,
  hasRecording: {
    ...bool,
    description:
      "whether GET /api/sessions/{sessionId}/recording answers: the session and a segment of it are within the plan's retention",
  },
  distributedTraceId: nstr,
  serverName: str,
  appVersion: str,
  attributes: strMap,
  source: str,
});

const HASH = '^[0-9a-f]{16}$';

export function exceptionRoutes(scope: FastifyInstance, services: Services): void {
  scope.post<{ Body: ListBody & { status?: IssueStatus } }>(
    '/api/exception-stack-traces',
    {
      schema: routeSchema(
        'Issues',
        'Exceptions grouped by stack-trace hash and ranked, with sparklines, the linked endpoint or task, and the issue status',
        {
          body: listBody(GROUP_ORDER, {
            status: {
              type: 'string',
              enum: ISSUE_STATUSES,
              description: `only issues in this status (open includes issues ingest has not registered yet); reads at most ${MAX_STATUS_FILTER_HASHES} resolved or ignored hashes`,
            },
          }),
          response: listOf(groupItem, { bucketSeconds: int, bucketStarts: { type: 'array', items: int } }),
        },
      ),
    },
    async (request) => {
      const projectId = projectOf(request);
      const body = request.body;
      const clock = readClockOf(request, services);
      const { range, pagination, sort, filters } = listQueryOf(body, clock, GROUP_LIST);
      const bucketSeconds = bucketSecondsOf(range);
      const status = body?.status;
      const hashes =
        status === undefined
          ? undefined
          : status === 'open'
            ? {
                exclude: await hashesWithStatus(
                  services.meta,
                  projectId,
                  ['resolved', 'ignored'],
                  MAX_STATUS_FILTER_HASHES,
                ),
              }
            : { include: await hashesWithStatus(services.meta, projectId, [status], MAX_STATUS_FILTER_HASHES) };
      const { rows, total } = await exceptionGroups(services.telemetry, projectId, {
        hashes,
        range,
        filters,
        search: body?.search,
        orderBy: sort.orderBy,
        direction: sort.direction,
        bucketSeconds,
        withLinked: { keptFromMs: clock.keptFromMs },
        ...pagination,
      });
      const perHash = new Map<string, Map<number, number>>();
      for (const row of rows) {
        const [keys, counts] = row.spark;
        perHash.set(row.hash, new Map(keys.map((t, index) => [t, counts[index] ?? 0])));
      }
      const states = await findIssueStates(
        services.meta,
        projectId,
        rows.map((row) => row.hash),
      );
      const items = rows.map((row) => {
        const traceId = nullIfNil(row.last_trace_id);
        const entity = row.linked;
        const state = states.get(row.hash);
        return {
          status: state?.status ?? 'open',
          regressedAt: state?.regressedAt?.toISOString() ?? null,
          regressedVersion: state?.regressedVersion ?? null,
          resolvedInVersion: state?.resolvedInVersion ?? null,
          ignoredUntil: state?.ignoredUntil?.toISOString() ?? null,
          ignoreOccurrences: state?.ignoreLimit ?? null,
          statusChangedAt: state?.statusChangedAt.toISOString() ?? null,
          statusChangedBy: state?.statusChangedBy
            ? { id: state.statusChangedBy, name: state.statusChangedByName ?? '' }
            : null,
          hash: row.hash,
          title: row.title,
          stackTrace: row.sample_trace,
          isMessage: Boolean(row.message_flag),
          count: row.count,
          sessionsAffected: row.sessions,
          usersAffected: row.users,
          firstSeen: isoOf(row.first_seen),
          lastSeen: isoOf(row.last_seen),
          sparkline: fillSeries(range, bucketSeconds, perHash.get(row.hash) ?? new Map()),
          linked: traceId
            ? {
                kind: entity?.kind ?? (row.last_is_task ? 'task' : 'endpoint'),
                id: traceId,
                name: entity?.name ?? null,
              }
            : null,
        };
      });
      return {
        ...pageAnswer(pagination, items, total),
        bucketSeconds,
        bucketStarts: bucketStarts(range, bucketSeconds),
      };
    },
  );

  scope.post<{ Params: { hash: string }; Body: ListBody }>(
    '/api/exception-stack-traces/:hash',
    {
      schema: routeSchema(
        'Issues',
        'Occurrences of one exception group: full and raw trace, attributes, linked trace, session and recording',
        {
          querystring: projectQuery,
          params: { type: 'object', required: ['hash'], properties: { hash: { type: 'string', pattern: HASH } } },
          body: listBody(['recordedAt']),
          response: listOf(occurrenceItem),
        },
      ),
    },
    async (request) => {
      const projectId = projectOf(request);
      const body = request.body;
      const clock = readClockOf(request, services);
      const { range, pagination, sort, filters } = listQueryOf(body, clock, OCCURRENCE_LIST);
      const { rows, total } = await exceptionOccurrences(services.telemetry, projectId, request.params.hash, {
        range,
        keptFromMs: clock.keptFromMs,
        filters,
        direction: sort.direction,
        ...pagination,
      });
      const linked = await entityNames(
        services.telemetry,
        projectId,
        rows.map((row) => row.trace_id),
        range,
        clock.keptFromMs,
      );
      const items = rows.map((row) => {
        const occurrence = occurrenceOf(row);
        const entity = occurrence.traceId ? linked.get(occurrence.traceId) : undefined;
        return {
          ...occurrence,
          linked: occurrence.traceId
            ? {
                kind: entity?.kind ?? (occurrence.isTask ? 'task' : 'endpoint'),
                id: occurrence.traceId,
                name: entity?.name ?? null,
              }
            : null,
        };
      });
      return pageAnswer(pagination, items, total);
    },
  );
}
