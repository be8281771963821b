/**
 * The project scope of the spec: a route acting on one project takes it from `?projectId=`
 * (never a path segment). `requireProjectRole` runs as an onRequest hook after requireUser and
 * before the body is read; it answers 400 for a missing or unparseable projectId, 403
 * `Access denied` when the caller has no access (the project's existence is not revealed), 403
 * for a suspended organization or a role below the route's minimum. The authorized scope it
 * leaves on the request is what every metadata change and telemetry query of the route is built
 * from — never the raw parameter.
 */
import type { FastifyRequest } from 'fastify';
import { UUID } from '../core/ids.js';
import { atLeast, effectiveRole, type Role } from '../core/roles.js';
import { badRequest, forbidden } from '../http/errors.js';
import type { Services } from '../application/services.js';
import { findProjectAccess } from '../store/meta/repositories/projects.js';
import { principalOf } from './authenticate.js';

export interface ProjectScope {
  readonly projectId: string;
  readonly organizationId: string;
  /** The caller's effective role on the project. */
  readonly role: Role;
  /** Days of telemetry the organization's plan keeps: reads start no earlier (telemetry/conventions.ts). */
  readonly retentionDays: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    projectScope: ProjectScope | null;
  }
}

export const SUSPENDED = 'the organization is suspended';

export function requireProjectRole(services: Services, minimum: Role) {
  return async (request: FastifyRequest): Promise<void> => {
    const projectId = (request.query as Record<string, unknown>).projectId;
    if (typeof projectId !== 'string' || !UUID.test(projectId))
      throw badRequest('projectId query parameter must be a project id (UUID)');
    const access = await findProjectAccess(
      services.meta,
      projectId.toLowerCase(),
      principalOf(request).user.id,
      services.config.billing.catalogue.defaultPlan,
    );
    if (!access || access.organizationRole === null) throw forbidden();
    if (access.suspended) throw forbidden(SUSPENDED);
    const role = effectiveRole(access.organizationRole, access.overrideRole);
    if (!atLeast(role, minimum)) throw forbidden(`this needs the ${minimum} role on the project`);
    request.projectScope = Object.freeze({
      projectId: projectId.toLowerCase(),
      organizationId: access.organizationId,
      role,
      retentionDays: access.retentionDays,
    });
  };
}

/** The authorized project scope of a route behind requireProjectRole. */
export function projectScopeOf(request: FastifyRequest): ProjectScope {
  if (!request.projectScope)
    throw new Error(`route ${request.routeOptions.url} reads a project scope it does not require`);
  return request.projectScope;
}
