/**
 * The organization scope of organization and billing routes, as an onRequest hook after
 * requireUser. Organization routes name it in the path (`:organizationId`); billing routes take
 * `?organizationId=`, which may be left out by a member of exactly one organization. A
 * non-member gets 403 `Access denied`, a member below the route's role 403 naming the role, and a
 * suspended organization 403 — except on billing, where its admins settle the account.
 */
import type { FastifyRequest } from 'fastify';
import { atLeast, type Role } from '../core/roles.js';
import { badRequest, forbidden } from '../http/errors.js';
import type { Services } from '../application/services.js';
import { findMembership, listMemberships } from '../store/meta/repositories/organizations.js';
import { principalOf } from './authenticate.js';
import { UUID } from '../core/ids.js';
import { SUSPENDED } from './project-scope.js';

export interface OrganizationScope {
  readonly organizationId: string;
  /** The caller's role in the organization. */
  readonly role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    organizationScope: OrganizationScope | null;
  }
}

export interface OrganizationScopeOptions {
  minimum: Role;
  /** Where the organization id is: the `:organizationId` path parameter, or `?organizationId=`. */
  from: 'path' | 'query';
  /** Billing only: a suspended organization stays reachable. */
  allowSuspended?: boolean;
}

export function requireOrganizationRole(services: Services, options: OrganizationScopeOptions) {
  return async (request: FastifyRequest): Promise<void> => {
    const { user } = principalOf(request);
    const source = (options.from === 'path' ? request.params : request.query) as Record<string, unknown>;
    const organizationId =
      source.organizationId ?? (options.from === 'query' ? await onlyOrganizationOf(services, user.id) : undefined);
    if (typeof organizationId !== 'string' || !UUID.test(organizationId))
      throw badRequest('organizationId must be an organization id (UUID)');
    const membership = await findMembership(services.meta, organizationId.toLowerCase(), user.id);
    if (!membership) throw forbidden();
    if (membership.organization.suspended && !options.allowSuspended) throw forbidden(SUSPENDED);
    if (!atLeast(membership.role, options.minimum))
      throw forbidden(`this needs the ${options.minimum} role in the organization`);
    request.organizationScope = Object.freeze({ organizationId: membership.organization.id, role: membership.role });
  };
}

/** The organization of a member of exactly one; otherwise the caller must name it. */
async function onlyOrganizationOf(services: Services, userId: string): Promise<string> {
  const memberships = await listMemberships(services.meta, userId);
  if (memberships.length === 1) return memberships[0]!.organization.id;
  if (memberships.length === 0) throw forbidden('you are not a member of any organization');
  throw badRequest('organizationId query parameter is required: you are a member of several organizations');
}

/** The authorized organization scope of a route behind requireOrganizationRole. */
export function organizationScopeOf(request: FastifyRequest): OrganizationScope {
  if (!request.organizationScope)
    throw new Error(`route ${request.routeOptions.url} reads an organization scope it does not require`);
  return request.organizationScope;
}
