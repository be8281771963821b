/**
 * Projects: the reachable list, and the project-scoped routes (`?projectId=`): create (next to
 * an existing project, in its organization or another the caller can write to — or, without a
 * projectId, in the organization the body names — within the plan's project limit), update, delete, the Connection page's tokens and their rotation (ingest, upload, source map),
 * and whether the project has received data yet.
 */
import { limitMessage, limitReached } from '../../core/plans.js';
import {
  FRAMEWORKS,
  HIDDEN_TOKEN,
  backendUrlProblem,
  frameworkProblem,
  projectNameProblem,
} from '../../core/projects.js';
import { atLeast, effectiveRole, type Role } from '../../core/roles.js';
import { badRequest, forbidden, notFound, unprocessable } from '../../http/errors.js';
import type { TypedScope } from '../../http/schema-types.js';
import type { Services } from '../../application/services.js';
import { findMembership, lockOrganization } from '../../store/meta/repositories/organizations.js';
import {
  countProjects,
  deleteProject,
  findProject,
  insertProject,
  listProjectsOfUser,
  rotateIngestToken,
  rotateSourceMapToken,
  rotateUploadToken,
  updateProject,
  type Project,
} from '../../store/meta/repositories/projects.js';
import { dataStatus } from '../../store/telemetry/queries/data-status.js';
import { errorAnswer, roleSchema, statusAnswer } from '../answers.js';
import { projectQuery, readClockOf } from '../telemetry/conventions.js';
import { principalOf, requireUser } from '../authenticate.js';
import { planOf } from '../../application/billing/plan-of.js';
import { announceProjectChanges } from '../../application/project-changes.js';
import { projectEverIngestedIn } from '../../application/ingest-usage.js';
import { UUID } from '../../core/ids.js';
import { SUSPENDED, projectScopeOf, requireProjectRole } from '../project-scope.js';

/** A secret of the project as the caller may see it: read-only members see a placeholder. */
const visible = (secret: string, role: Role): string => (atLeast(role, 'write') ? secret : HIDDEN_TOKEN);

const toAnswer = (project: Project, role: Role) => ({
  id: project.id,
  name: project.name,
  framework: project.framework,
  organizationId: project.organizationId,
  backendUrl: project.backendUrl,
  role,
  token: visible(project.token, role),
});

/**
 * A framework in a request body: a string checked by the handler (frameworkProblem), so that a
 * refusal lists the accepted values, which ajv's enum message would not.
 */
const frameworkInput = {
  type: 'string',
  description: `one of ${FRAMEWORKS.join(', ')}; another value is refused (422)`,
} as const;

const projectAnswer = {
  type: 'object',
  required: ['id', 'name', 'framework', 'organizationId', 'backendUrl', 'role', 'token'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    framework: { type: 'string' },
    organizationId: { type: 'string', format: 'uuid' },
    backendUrl: { type: 'string', description: "where the project's backend answers (empty when not set)" },
    role: { ...roleSchema, description: "the caller's role in the project" },
    token: { type: 'string', description: 'the ingest token; a placeholder for read-only members' },
  },
} as const;

/** Refusals of a project-scoped route (project-scope.ts) and of its handler. */
const scopedErrors = { 400: errorAnswer, 403: errorAnswer, 404: errorAnswer } as const;

const listSchema = {
  summary: 'Every project the caller can reach, with their role in it',
  response: {
    200: {
      type: 'object',
      required: ['projects'],
      properties: { projects: { type: 'array', items: projectAnswer } },
    },
  },
} as const;

const createSchema = {
  summary:
    "Create a project next to the one of `projectId`, in its organization or in `organizationId` (write role there; within the plan's project limit). Without `projectId` the body's `organizationId` alone names where: a person without any project creates their first one so.",
  querystring: { type: 'object', properties: projectQuery.properties },
  body: {
    type: 'object',
    additionalProperties: false,
    properties: { name: { type: 'string' }, framework: frameworkInput, organizationId: { type: 'string' } },
  },
  response: { 201: projectAnswer, ...scopedErrors, 422: errorAnswer },
} as const;

const updateSchema = {
  summary: 'Rename the project, or change its framework or backend URL (write access)',
  querystring: projectQuery,
  body: {
    type: 'object',
    additionalProperties: false,
    properties: { name: { type: 'string' }, framework: frameworkInput, backendUrl: { type: 'string' } },
  },
  response: { 200: projectAnswer, ...scopedErrors, 422: errorAnswer },
} as const;

const deleteSchema = {
  description:
    "Deletes the project (write access). Its ingest token stops at once; its telemetry and stored objects (recordings, profiles, AI conversations, symbol files) are removed in the background within a few minutes. The organization's month of ingest usage is kept for billing.",
  querystring: projectQuery,
  response: { 200: statusAnswer('deleted'), ...scopedErrors },
} as const;

const connectionSchema = {
  summary: "The project's tokens for the Connection page (placeholders for read-only members)",
  querystring: projectQuery,
  response: {
    200: {
      type: 'object',
      required: ['projectId', 'token', 'uploadToken', 'sourceMapToken'],
      properties: {
        projectId: { type: 'string', format: 'uuid' },
        token: { type: 'string', description: 'ingest token' },
        uploadToken: { type: 'string', description: 'debug-symbol upload token' },
        sourceMapToken: { type: 'string', description: 'source-map upload token' },
      },
    },
    ...scopedErrors,
  },
} as const;

/** A rotation route: the new secret under `field`. */
const rotationSchema = <const Field extends string>(field: Field, description: string) =>
  ({
    description,
    querystring: projectQuery,
    response: {
      200: {
        type: 'object',
        required: [field],
        properties: { [field]: { type: 'string' } } as Record<Field, { readonly type: 'string' }>,
      },
      ...scopedErrors,
    },
  }) as const;

export function projectRoutes(scope: TypedScope, services: Services): void {
  scope.addHook('onRequest', requireUser(services));
  const now = () => new Date(services.now());

  scope.get('/api/projects', { schema: listSchema }, async (request) => {
    const rows = await listProjectsOfUser(
      services.meta,
      principalOf(request).user.id,
      services.config.billing.catalogue.defaultPlan,
    );
    return {
      projects: rows.map((row) => toAnswer(row.project, effectiveRole(row.organizationRole, row.overrideRole))),
    };
  });

  const nextToProject = requireProjectRole(services, 'read-only');
  scope.post(
    '/api/projects',
    {
      schema: createSchema,
      // The spec's form names an existing project; a person who has none (their organization's last
      // one deleted, or a new organization) names the organization in the body instead.
      onRequest: async (request) => {
        if ((request.query as Record<string, unknown>).projectId !== undefined) await nextToProject(request);
      },
    },
    async (request, reply) => {
      const { user } = principalOf(request);
      const organizationId = request.body?.organizationId ?? request.projectScope?.organizationId;
      if (organizationId === undefined)
        throw badRequest('name the organization (organizationId in the body) or a project next to it (projectId)');
      if (!UUID.test(organizationId)) throw badRequest('organizationId must be an organization id (UUID)');
      // The role first: someone who may not create a project learns nothing from validation.
      const membership = await findMembership(services.meta, organizationId, user.id);
      if (!membership) throw forbidden();
      if (membership.organization.suspended) throw forbidden(SUSPENDED);
      if (!atLeast(membership.role, 'write'))
        throw forbidden('creating a project needs the write role in the organization');
      const name = request.body?.name ?? '';
      const framework = request.body?.framework ?? '';
      const problem = projectNameProblem(name) ?? frameworkProblem(framework);
      if (problem !== null) throw unprocessable(problem);
      const project = await services.meta.transaction(async (tx) => {
        await lockOrganization(tx, organizationId);
        const plan = await planOf(services, tx, organizationId);
        if (limitReached(plan, 'projects', await countProjects(tx, organizationId)))
          throw unprocessable(limitMessage(plan, 'projects'));
        return insertProject(tx, { organizationId, name: name.trim(), framework });
      });
      return reply.code(201).send(toAnswer(project, membership.role));
    },
  );

  scope.put(
    '/api/projects',
    { schema: updateSchema, onRequest: requireProjectRole(services, 'write') },
    async (request) => {
      const { projectId, role } = projectScopeOf(request);
      const { name, framework, backendUrl } = request.body ?? {};
      const problem =
        (name === undefined ? null : projectNameProblem(name)) ??
        (framework === undefined ? null : frameworkProblem(framework)) ??
        (backendUrl === undefined ? null : backendUrlProblem(backendUrl));
      if (problem !== null) throw unprocessable(problem);
      const project = await updateProject(
        services.meta,
        projectId,
        { name: name?.trim(), framework, backendUrl },
        now(),
      );
      if (!project) throw notFound('the project no longer exists');
      return toAnswer(project, role);
    },
  );

  scope.delete(
    '/api/projects',
    { schema: deleteSchema, onRequest: requireProjectRole(services, 'write') },
    async (request) => {
      const { projectId } = projectScopeOf(request);
      if (!(await deleteProject(services.meta, projectId, now()))) throw notFound('the project no longer exists');
      // Its ingest token stops at once here and, through the coordination store, on other processes.
      await announceProjectChanges(services, [projectId]);
      // Its telemetry and objects go a few minutes later, in the background (application/jobs/project-purge-job.ts).
      return { status: 'deleted' as const };
    },
  );

  scope.get(
    '/api/projects/connection',
    { schema: connectionSchema, onRequest: requireProjectRole(services, 'read-only') },
    async (request) => {
      const { projectId, role } = projectScopeOf(request);
      const project = await findProject(services.meta, projectId);
      if (!project) throw notFound('the project no longer exists');
      return {
        projectId,
        token: visible(project.token, role),
        uploadToken: visible(project.uploadToken, role),
        sourceMapToken: visible(project.sourceMapToken, role),
      };
    },
  );

  scope.get(
    '/api/projects/data-status',
    {
      schema: {
        summary:
          "Whether the project has received telemetry: the newest event of the last 24 hours, and whether it holds any at all; both read only what the organization's plan keeps",
        security: [{ bearer: [] }],
        querystring: {
          type: 'object',
          required: ['projectId'],
          properties: { projectId: { type: 'string', format: 'uuid' } },
        },
        response: {
          200: {
            type: 'object',
            required: ['lastEventAt', 'hasData', 'expiredData'],
            properties: {
              lastEventAt: {
                type: ['string', 'null'],
                format: 'date-time',
                description:
                  'time of the newest event of the last 24 hours (as its client stamped it); null when there is none',
              },
              hasData: {
                type: 'boolean',
                description:
                  "whether the project holds any event its plan still keeps, older ones included; false when all of them are past the plan's retention",
              },
              expiredData: {
                type: 'boolean',
                description:
                  "true when the project has no event its plan still keeps (hasData false) but received data before: all of it is past the plan's retention; false when it never received any",
              },
            },
          },
          400: errorAnswer,
          403: errorAnswer,
        },
      },
      onRequest: requireProjectRole(services, 'read-only'),
    },
    async (request) => {
      const { now, keptFromMs } = readClockOf(request, services);
      const { projectId } = projectScopeOf(request);
      const status = await dataStatus(services.telemetry, projectId, now, keptFromMs);
      return {
        lastEventAt: status.lastEventMs === null ? null : new Date(status.lastEventMs).toISOString(),
        hasData: status.hasData,
        // Usage is kept whatever the plan: it tells a project whose data all expired from a new one.
        expiredData: !status.hasData && (await projectEverIngestedIn(services, projectId)),
      };
    },
  );

  scope.post(
    '/api/projects/token',
    {
      schema: rotationSchema(
        'token',
        'Rotates the ingest token (write access): the previous token stops at once on every process; reports sent with it get 401.',
      ),
      onRequest: requireProjectRole(services, 'write'),
    },
    async (request) => {
      const { projectId } = projectScopeOf(request);
      const token = await rotateIngestToken(services.meta, projectId, now());
      if (token === null) throw notFound('the project no longer exists');
      await announceProjectChanges(services, [projectId]);
      return { token };
    },
  );

  scope.post(
    '/api/projects/source-map-token',
    {
      schema: rotationSchema(
        'sourceMapToken',
        'Rotates the source-map upload token (write access); the previous token stops at once.',
      ),
      onRequest: requireProjectRole(services, 'write'),
    },
    async (request) => {
      const sourceMapToken = await rotateSourceMapToken(services.meta, projectScopeOf(request).projectId, now());
      if (sourceMapToken === null) throw notFound('the project no longer exists');
      return { sourceMapToken };
    },
  );

  scope.post(
    '/api/projects/upload-token',
    {
      schema: rotationSchema(
        'uploadToken',
        'Rotates the debug-symbol upload token (write access); the previous token stops at once.',
      ),
      onRequest: requireProjectRole(services, 'write'),
    },
    async (request) => {
      const uploadToken = await rotateUploadToken(services.meta, projectScopeOf(request).projectId, now());
      if (uploadToken === null) throw notFound('the project no longer exists');
      return { uploadToken };
    },
  );
}
