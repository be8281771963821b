/**
 * The application surface: JSON bodies capped at 8 MB after decompression, public routes, and
 * the authenticated resources, each an encapsulated plugin.
 */
import type { FastifyInstance } from 'fastify';
import { useApplicationBodies } from '../server/body-parsers.js';
import { LIMITS } from '../server/limits.js';
import type { Services } from '../server/services.js';
import { authRoutes, meRoutes } from './auth/routes.js';

export async function applicationSurface(scope: FastifyInstance, services: Services): Promise<void> {
  useApplicationBodies(scope, { maxBytes: LIMITS.applicationBytes, timeoutMs: services.config.bodyTimeoutMs });
  scope.decorateRequest('principal', null);
  await scope.register(async (publicScope) => authRoutes(publicScope, services));
  await scope.register(async (userScope) => meRoutes(userScope, services));
}
