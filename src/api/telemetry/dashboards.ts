/**
 * Saved dashboards (metadata store), shared by the project: every member reads them, a member
 * with the write role creates, changes and deletes any of them. Each route names its role.
 */
import type { FastifyInstance } from 'fastify';
import { notFound, unprocessable } from '../../http/errors.js';
import type { Services } from '../../application/services.js';
import {
  MAX_DASHBOARDS_PER_PROJECT,
  deleteDashboard,
  findDashboard,
  insertDashboard,
  listDashboards,
  updateDashboard,
  type Dashboard,
} from '../../store/meta/repositories/dashboards.js';
import { principalOf } from '../authenticate.js';
import { requireProjectRole } from '../project-scope.js';
import { nstr, obj, projectOf, projectQuery, routeSchema, str } from './conventions.js';

const MAX_DEFINITION_BYTES = 256 * 1024;
export const MAX_DEFINITION_DEPTH = 32;

const dashboardSchema = obj({
  id: str,
  name: str,
  definition: { type: 'object', additionalProperties: true },
  createdBy: nstr,
  createdAt: str,
  updatedAt: str,
});
const toDashboard = (d: Dashboard) => ({
  ...d,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});
const DASHBOARD_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    definition: {
      type: 'object',
      additionalProperties: true,
      description: `panels and layout, opaque to the service; at most ${MAX_DEFINITION_DEPTH} levels deep and 256 KB`,
    },
  },
} as const;
const ID_PARAM = { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } } as const;

export function savedDashboardRoutes(scope: FastifyInstance, services: Services): void {
  const reader = requireProjectRole(services, 'read-only');
  const writer = requireProjectRole(services, 'write');

  scope.get(
    '/api/dashboards',
    {
      onRequest: reader,
      schema: routeSchema('Dashboards', `Saved dashboards of the project (at most ${MAX_DASHBOARDS_PER_PROJECT})`, {
        querystring: projectQuery,
        response: obj({ dashboards: { type: 'array', items: dashboardSchema } }),
      }),
    },
    async (request) => ({ dashboards: (await listDashboards(services.meta, projectOf(request))).map(toDashboard) }),
  );

  scope.get<{ Params: { id: string } }>(
    '/api/dashboards/:id',
    {
      onRequest: reader,
      schema: routeSchema('Dashboards', 'One saved dashboard', {
        querystring: projectQuery,
        params: ID_PARAM,
        response: dashboardSchema,
      }),
    },
    async (request) => {
      const found = await findDashboard(services.meta, projectOf(request), request.params.id.toLowerCase());
      if (!found) throw notFound('no such dashboard in this project');
      return toDashboard(found);
    },
  );

  scope.post<{ Body: { name?: string; definition?: Record<string, unknown> } }>(
    '/api/dashboards',
    {
      onRequest: writer,
      schema: routeSchema(
        'Dashboards',
        `Save a dashboard (write role; 422 when the project holds ${MAX_DASHBOARDS_PER_PROJECT} already, or the definition is nested deeper than ${MAX_DEFINITION_DEPTH} levels or larger than 256 KB)`,
        {
          querystring: projectQuery,
          body: { ...DASHBOARD_BODY, required: ['name'] },
          response: dashboardSchema,
          status: 201,
        },
      ),
    },
    async (request, reply) => {
      const definition = request.body.definition ?? {};
      checkDefinition(definition);
      const name = (request.body.name ?? '').trim();
      if (name.length === 0) throw unprocessable('name must be 1 to 200 characters');
      const created = await services.meta.transaction((tx) =>
        insertDashboard(tx, {
          projectId: projectOf(request),
          name,
          definition,
          createdBy: principalOf(request).user.id,
        }),
      );
      if (!created)
        throw unprocessable(`a project holds at most ${MAX_DASHBOARDS_PER_PROJECT} dashboards: delete one first`);
      return reply.code(201).send(toDashboard(created));
    },
  );

  scope.put<{ Params: { id: string }; Body: { name?: string; definition?: Record<string, unknown> } }>(
    '/api/dashboards/:id',
    {
      onRequest: writer,
      schema: routeSchema('Dashboards', 'Rename or redefine a saved dashboard (write role)', {
        querystring: projectQuery,
        params: ID_PARAM,
        body: DASHBOARD_BODY,
        response: dashboardSchema,
      }),
    },
    async (request) => {
      if (request.body.definition) checkDefinition(request.body.definition);
      const name = request.body.name?.trim();
      if (name !== undefined && name.length === 0) throw unprocessable('name must be 1 to 200 characters');
      const updated = await updateDashboard(services.meta, projectOf(request), request.params.id.toLowerCase(), {
        name,
        definition: request.body.definition,
      });
      if (!updated) throw notFound('no such dashboard in this project');
      return toDashboard(updated);
    },
  );

  scope.delete<{ Params: { id: string } }>(
    '/api/dashboards/:id',
    {
      onRequest: writer,
      schema: routeSchema('Dashboards', 'Delete a saved dashboard (write role)', {
        querystring: projectQuery,
        params: ID_PARAM,
        response: obj({ deleted: { type: 'boolean' } }),
      }),
    },
    async (request) => {
      if (!(await deleteDashboard(services.meta, projectOf(request), request.params.id.toLowerCase())))
        throw notFound('no such dashboard in this project');
      return { deleted: true };
    },
  );
}

/** Depth first: a deeply nested value overflows the stack of JSON.stringify and PostgreSQL's jsonb parser. */
function checkDefinition(definition: Record<string, unknown>): void {
  if (nestingDepth(definition) > MAX_DEFINITION_DEPTH)
    throw unprocessable(`definition is nested deeper than ${MAX_DEFINITION_DEPTH} levels`);
  if (Buffer.byteLength(JSON.stringify(definition)) > MAX_DEFINITION_BYTES)
    throw unprocessable('definition is larger than 256 KB');
}

/** Levels of objects and arrays in a parsed JSON value (the value itself is level 1), without recursion. */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (depth > MAX_DEFINITION_DEPTH) return depth;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}
