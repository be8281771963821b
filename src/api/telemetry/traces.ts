/**
 * AI traces (ranked by total cost, totals per model and per day, detail with the stored
 * conversation), the span waterfall of one entity, and distributed traces across the projects
 * the caller can read.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../application/services.js';
import { notFound } from '../../http/errors.js';
import { listProjectsOfUser } from '../../store/meta/repositories/projects.js';
import {
  AI_FILTERS,
  AI_ORDER,
  aiTraceList,
  entitiesOfDistributedTrace,
  findAiTrace,
  findEntity,
  spansOf,
} from '../../store/telemetry/queries/entities.js';
import { principalOf, requireUser } from '../authenticate.js';
import {
  bool,
  errorResponses,
  int,
  keptFromOf,
  listBody,
  listOf,
  listQueryOf,
  nnum,
  nstr,
  num,
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

const aiItemProps = {
  id: str,
  name: str,
  recordedAt: nstr,
  durationMs: num,
  model: str,
  provider: str,
  operation: str,
  inputTokens: int,
  outputTokens: int,
  cachedTokens: int,
  reasoningTokens: int,
  inputCost: num,
  outputCost: num,
  totalCost: num,
  finishReason: str,
  toolCalls: int,
  isError: bool,
  distributedTraceId: nstr,
  conversationId: str,
};
const aiItem = obj(aiItemProps);

const spanItem = obj({
  spanId: str,
  parentSpanId: nstr,
  name: str,
  kind: str,
  startTime: nstr,
  durationMs: num,
  statusCode: int,
  attributes: strMap,
  events: { type: 'array', items: obj({ time: nstr, name: str, attributes: strMap }) },
});
const entityProps = {
  projectId: str,
  kind: { type: 'string', enum: ['endpoint', 'task', 'ai'] },
  id: str,
  name: str,
  recordedAt: nstr,
  durationMs: num,
  statusCode: int,
  isRoot: bool,
  parentSpanId: nstr,
  distributedTraceId: nstr,
  serverName: str,
  appVersion: str,
  clientIp: { type: 'string', description: "the caller's address (endpoints; empty for tasks and AI traces)" },
  attributes: strMap,
};
const entityWithSpans = obj({ ...entityProps, spans: { type: 'array', items: spanItem } });

const UUID_PARAM = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid' } },
} as const;

/** Project-scoped: AI traces and the waterfall. */
export function traceRoutes(scope: FastifyInstance, services: Services): void {
  const order = Object.keys(AI_ORDER);
  const aiList: ListSpec = { order, fallback: { orderBy: 'totalCost', direction: 'desc' }, filters: AI_FILTERS };
  scope.post<{ Body: ListBody }>(
    '/api/ai-traces',
    {
      schema: routeSchema('AI traces', 'LLM calls ranked by total cost (default), with totals per model and per day', {
        body: listBody(order),
        response: listOf(aiItem, {
          perModel: {
            type: 'array',
            items: obj({ model: str, provider: str, count: int, inputTokens: int, outputTokens: int, totalCost: num }),
          },
          perDay: { type: 'array', items: obj({ day: str, count: int, totalCost: num }) },
        }),
      }),
    },
    async (request) => {
      const body = request.body;
      const { range, pagination, sort, filters } = listQueryOf(body, readClockOf(request, services), aiList);
      const result = await aiTraceList(services.telemetry, projectOf(request), {
        range,
        filters,
        search: body?.search,
        orderBy: sort.orderBy,
        direction: sort.direction,
        ...pagination,
      });
      return {
        ...pageAnswer(pagination, result.items, result.total),
        perModel: result.perModel,
        perDay: result.perDay,
      };
    },
  );

  scope.get<{ Params: { id: string } }>(
    '/api/ai-traces/:id',
    {
      schema: routeSchema('AI traces', 'One LLM call with its attributes, spans and the stored conversation', {
        querystring: projectQuery,
        params: UUID_PARAM,
        response: obj({
          ...aiItemProps,
          attributes: strMap,
          conversation: { description: 'the stored conversation JSON, or null when none was stored' },
          spans: { type: 'array', items: spanItem },
        }),
      }),
    },
    async (request) => {
      const projectId = projectOf(request);
      const { keptFromMs } = readClockOf(request, services);
      const trace = await findAiTrace(services.telemetry, projectId, request.params.id.toLowerCase(), keptFromMs);
      if (!trace) throw notFound('no such AI trace in this project');
      const key = trace.conversationKey || `ai/${projectId}/${trace.id}.json`;
      // The key is taken from the row of the authorized project, never from the caller.
      const bytes = key.startsWith(`ai/${projectId}/`) ? await services.objects.get(key) : null;
      const spans = await spansOf(services.telemetry, projectId, trace.id, keptFromMs);
      const { conversationKey: _key, ...answer } = trace;
      return {
        ...answer,
        conversation: bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown) : null,
        spans,
      };
    },
  );

  scope.get<{ Params: { id: string } }>(
    '/api/traces/:id',
    {
      schema: routeSchema('Traces', 'The span waterfall of one endpoint, task or AI trace (by entity id)', {
        querystring: projectQuery,
        params: UUID_PARAM,
        response: entityWithSpans,
      }),
    },
    async (request) => {
      const projectId = projectOf(request);
      const id = request.params.id.toLowerCase();
      const { keptFromMs } = readClockOf(request, services);
      const entity = await findEntity(services.telemetry, projectId, id, keptFromMs);
      if (!entity) throw notFound('no such trace in this project');
      return { ...entity, spans: await spansOf(services.telemetry, projectId, id, keptFromMs) };
    },
  );
}

/**
 * Distributed traces cross projects: no `?projectId=`; the query is bounded to the projects the
 * caller can read (listProjectsOfUser), so an id of another tenant's trace answers 404.
 */
export function distributedTraceRoutes(scope: FastifyInstance, services: Services): void {
  scope.addHook('onRequest', requireUser(services));
  scope.get<{ Params: { id: string } }>(
    '/api/distributed-traces/:id',
    {
      schema: {
        tags: ['Traces'],
        summary:
          'Every endpoint, task and AI trace sharing a distributed trace id, across the projects the caller can read, with span waterfalls',
        security: [{ bearer: [] }],
        params: UUID_PARAM,
        response: {
          200: obj({ id: str, entities: { type: 'array', items: entityWithSpans }, startedAt: nstr, durationMs: nnum }),
          401: errorResponses[401],
          404: {
            description: "no entity of a readable project, within its plan's retention, carries this id",
            type: 'object',
            properties: { error: str },
          },
        },
      },
    },
    async (request) => {
      const projects = await listProjectsOfUser(
        services.meta,
        principalOf(request).user.id,
        services.config.billing.catalogue.defaultPlan,
      );
      const now = services.now();
      // Each project from its own plan's retention on, as its range-taking reads are.
      const readable = projects.map((row) => ({
        projectId: row.project.id,
        keptFromMs: keptFromOf(now, row.retentionDays),
      }));
      const keptFromByProject = new Map(readable.map((row) => [row.projectId, row.keptFromMs]));
      const id = request.params.id.toLowerCase();
      const entities = await entitiesOfDistributedTrace(services.telemetry, readable, id);
      if (entities.length === 0) throw notFound('no such distributed trace in your projects');
      const withSpans = await Promise.all(
        entities.map(async (entity) => ({
          ...entity,
          spans: await spansOf(
            services.telemetry,
            entity.projectId,
            entity.id,
            keptFromByProject.get(entity.projectId)!,
          ),
        })),
      );
      const starts = entities
        .map((e) => (e.recordedAt ? Date.parse(e.recordedAt) : NaN))
        .filter((t) => !Number.isNaN(t));
      const ends = entities
        .map((e) => (e.recordedAt ? Date.parse(e.recordedAt) + e.durationMs : NaN))
        .filter((t) => !Number.isNaN(t));
      return {
        id,
        entities: withSpans,
        startedAt: starts.length ? new Date(Math.min(...starts)).toISOString() : null,
        durationMs: starts.length ? Math.max(...ends) - Math.min(...starts) : null,
      };
    },
  );
}
