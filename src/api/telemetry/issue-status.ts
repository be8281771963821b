/**
 * The issue workflow routes: set the status of one issue or of many (write role), and read an
 * issue's activity (every member). Rules of the statuses are in core/issues.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ISSUE_STATUSES, parseStatusChange, type StatusChange } from '../../core/issues.js';
import { unprocessable } from '../../http/errors.js';
import type { Services } from '../../application/services.js';
import { ISSUE_STATUS_CHANGED_CHANNEL } from '../../application/issue-detector.js';
import { issueActivity, setIssueStatus, type StoredIssueState } from '../../store/meta/repositories/issues.js';
import { latestAppVersions } from '../../store/telemetry/queries/exceptions.js';
import { principalOf } from '../authenticate.js';
import { requireProjectRole } from '../project-scope.js';
import { DAY_MS, int, nstr, obj, projectOf, projectQuery, readClockOf, routeSchema, str } from './conventions.js';

/** How far back "the next version" looks for an issue's latest app version. */
const VERSION_LOOKBACK_DAYS = 30;

const HASH = '^[0-9a-f]{16}$';
export const MAX_BULK_HASHES = 500;

const statusProperties = {
  status: { type: 'string', enum: ISSUE_STATUSES },
  inNextVersion: {
    type: 'boolean',
    description: 'resolved: only occurrences of an app version newer than the current one (or `version`) regress it',
  },
  version: {
    type: 'string',
    minLength: 1,
    maxLength: 128,
    description:
      'resolved in the next version: the version it is resolved in; default the app version of its latest occurrence in the last 30 days that the plan keeps (none: 422)',
  },
  until: { type: 'string', description: 'ignored: until this ISO 8601 time' },
  occurrences: {
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000_000,
    description: 'ignored: until this many more occurrences',
  },
} as const;

const stateSchema = obj({
  hash: str,
  status: { type: 'string', enum: ISSUE_STATUSES },
  resolvedInVersion: nstr,
  ignoredUntil: nstr,
  ignoreOccurrences: { type: ['integer', 'null'] },
  regressedAt: nstr,
  regressedVersion: nstr,
  statusChangedAt: str,
  statusChangedBy: nstr,
});

const toStateAnswer = (state: StoredIssueState) => ({
  hash: state.hash,
  status: state.status,
  resolvedInVersion: state.resolvedInVersion,
  ignoredUntil: state.ignoredUntil?.toISOString() ?? null,
  ignoreOccurrences: state.ignoreLimit,
  regressedAt: state.regressedAt?.toISOString() ?? null,
  regressedVersion: state.regressedVersion,
  statusChangedAt: state.statusChangedAt.toISOString(),
  statusChangedBy: state.statusChangedBy,
});

const activitySchema = obj({
  id: int,
  at: str,
  kind: { type: 'string', enum: ['new', 'status', 'regressed', 'reopened'] },
  fromStatus: nstr,
  toStatus: str,
  user: { type: ['object', 'null'], required: ['id', 'name'], properties: { id: str, name: nstr } },
  detail: { type: 'object', additionalProperties: true },
});

export function issueStatusRoutes(scope: FastifyInstance, services: Services): void {
  const reader = requireProjectRole(services, 'read-only');
  const writer = requireProjectRole(services, 'write');

  async function apply(request: FastifyRequest, hashes: string[], body: Record<string, unknown>) {
    const change = parseStatusChange(body, services.now());
    if ('error' in change) throw unprocessable(change.error);
    const projectId = projectOf(request);
    const versions = await versionsFor(services, request, hashes, change);
    const states = await services.meta.transaction((tx) =>
      setIssueStatus(tx, projectId, hashes, change, principalOf(request).user.id, new Date(services.now()), versions),
    );
    // Every process drops its cached "open" hashes of the project, so the next occurrence of a
    // resolved or ignored issue is looked at.
    services.issues.forgetProject(projectId);
    await services.coord
      .publish(ISSUE_STATUS_CHANGED_CHANNEL, projectId)
      .catch((error: unknown) => request.log.warn({ err: error }, 'announcing an issue status change failed'));
    return states.map(toStateAnswer);
  }

  scope.put<{ Params: { hash: string }; Body: Record<string, unknown> }>(
    '/api/exception-stack-traces/:hash/status',
    {
      onRequest: writer,
      schema: routeSchema(
        'Issues',
        'Set the status of one issue: open, resolved (optionally in the next version) or ignored (for ever, until a time, or until N more occurrences); write role',
        {
          querystring: projectQuery,
          params: { type: 'object', required: ['hash'], properties: { hash: { type: 'string', pattern: HASH } } },
          body: { type: 'object', additionalProperties: false, required: ['status'], properties: statusProperties },
          response: stateSchema,
        },
      ),
    },
    async (request) => (await apply(request, [request.params.hash], request.body))[0],
  );

  scope.put<{ Body: Record<string, unknown> & { hashes: string[] } }>(
    '/api/exception-stack-traces/status',
    {
      onRequest: writer,
      schema: routeSchema('Issues', `Set the status of up to ${MAX_BULK_HASHES} issues at once; write role`, {
        querystring: projectQuery,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['hashes', 'status'],
          properties: {
            hashes: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_BULK_HASHES,
              uniqueItems: true,
              items: { type: 'string', pattern: HASH },
            },
            ...statusProperties,
          },
        },
        response: obj({ items: { type: 'array', items: stateSchema } }),
      }),
    },
    async (request) => {
      const { hashes, ...rest } = request.body;
      return { items: await apply(request, hashes, rest) };
    },
  );

  scope.get<{ Params: { hash: string }; Querystring: { limit?: number } }>(
    '/api/exception-stack-traces/:hash/activity',
    {
      onRequest: reader,
      schema: routeSchema(
        'Issues',
        'Activity of one issue, newest first: first seen, status changes (who, conditions), regressions and reopenings',
        {
          querystring: {
            ...projectQuery,
            properties: {
              ...projectQuery.properties,
              limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
            },
          },
          params: { type: 'object', required: ['hash'], properties: { hash: { type: 'string', pattern: HASH } } },
          response: obj({ items: { type: 'array', items: activitySchema } }),
        },
      ),
    },
    async (request) => {
      const entries = await issueActivity(
        services.meta,
        projectOf(request),
        request.params.hash,
        request.query.limit ?? 100,
      );
      return {
        items: entries.map((entry) => ({
          id: entry.id,
          at: entry.at.toISOString(),
          kind: entry.kind,
          fromStatus: entry.fromStatus,
          toStatus: entry.toStatus,
          user: entry.userId ? { id: entry.userId, name: entry.userName } : null,
          detail: entry.detail,
        })),
      };
    },
  );
}

/**
 * "Resolved in the next version" without a version: the version of each issue's latest occurrence
 * in the last 30 days, and no earlier than the plan keeps (an expired occurrence is not read).
 */
async function versionsFor(
  services: Services,
  request: FastifyRequest,
  hashes: string[],
  change: StatusChange,
): Promise<Map<string, string | null>> {
  if (change.status !== 'resolved' || !change.inNextVersion || change.version !== undefined) return new Map();
  const clock = readClockOf(request, services);
  const fromMs = Math.max(clock.now - VERSION_LOOKBACK_DAYS * DAY_MS, clock.keptFromMs);
  const found = await latestAppVersions(services.telemetry, projectOf(request), hashes, {
    fromMs,
    toMs: clock.now + DAY_MS,
  });
  const missing = hashes.filter((hash) => !found.has(hash));
  if (missing.length > 0) {
    const days = Math.round((clock.now - fromMs) / DAY_MS);
    throw unprocessable(
      `no occurrence with an app version in the last ${days} days for ${missing.slice(0, 5).join(', ')}: give version`,
    );
  }
  return found;
}
