/**
 * The application surface: JSON and form bodies capped at 8 MB after decompression, and one
 * encapsulated plugin per resource. Each plugin authenticates its protected routes itself
 * (requireUser, then the project or organization scope); the public routes are register, login, sign-out (ends the token it carries, idempotent),
 * password reset, the sign-in options and social sign-in (start, callback), an invitation's preview, the device
 * authorize/token/logout endpoints, discovery, the plan catalogue and the payment webhook. test/api/route-inventory.test.ts proves every other route refuses strangers.
 */
import type { FastifyInstance } from 'fastify';
import { useApplicationBodies } from '../http/body-parsers.js';
import { LIMITS } from '../http/limits.js';
import type { SchemaTypeProvider } from '../http/schema-types.js';
import type { Services } from '../application/services.js';
import { passwordResetRoutes } from './auth/password-reset.js';
import { authRoutes, meRoutes } from './auth/routes.js';
import { accountSessionRoutes } from './auth/sessions.js';
import { socialSignInRoutes } from './auth/social/routes.js';
import { alertRoutes } from './alerts/routes.js';
import { billingRoutes } from './billing/routes.js';
import { deviceRoutes } from './device/routes.js';
import { discoveryRoutes } from './discovery/routes.js';
import { invitationPreviewRoutes } from './organizations/invitation-preview.js';
import { organizationRoutes } from './organizations/routes.js';
import { projectRoutes } from './projects/routes.js';
import { sourceMapUploadRoute } from './sourcemaps/upload.js';
import { symbolUploadRoute } from './symbols/upload.js';
import { telemetryRoutes } from './telemetry/index.js';
import { personalAccessTokenRoutes } from './tokens/routes.js';

export async function applicationSurface(scope: FastifyInstance, services: Services): Promise<void> {
  useApplicationBodies(scope, { maxBytes: LIMITS.applicationBytes, timeoutMs: services.config.bodyTimeoutMs });
  scope.decorateRequest('principal', null);
  scope.decorateRequest('projectScope', null);
  scope.decorateRequest('organizationScope', null);
  // The same scope, its routes typed from their schemas (http/schema-types.ts).
  const typed = scope.withTypeProvider<SchemaTypeProvider>();
  await typed.register(async (publicScope) => authRoutes(publicScope, services));
  await typed.register(async (publicScope) => passwordResetRoutes(publicScope, services));
  await typed.register(async (publicScope) => socialSignInRoutes(publicScope, services));
  await typed.register(async (publicScope) => discoveryRoutes(publicScope, services));
  await typed.register(async (publicScope) => invitationPreviewRoutes(publicScope, services));
  await typed.register(async (userScope) => meRoutes(userScope, services));
  await typed.register(async (userScope) => accountSessionRoutes(userScope, services));
  await typed.register(async (resource) => personalAccessTokenRoutes(resource, services));
  await typed.register(async (resource) => deviceRoutes(resource, services));
  await typed.register(async (resource) => projectRoutes(resource, services));
  await typed.register(async (resource) => organizationRoutes(resource, services));
  await typed.register(async (resource) => billingRoutes(resource, services));
  // Authenticated by the project's upload token only (not a user credential).
  await scope.register(async (resource) => symbolUploadRoute(resource, services));
  // Authenticated by the project's source-map token only.
  await scope.register(async (resource) => sourceMapUploadRoute(resource, services));
  await scope.register(async (resource) => telemetryRoutes(resource, services));
  await typed.register(async (resource) => alertRoutes(resource, services));
}
