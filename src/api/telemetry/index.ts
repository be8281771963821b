/**
 * The telemetry read API (docs/ARCHITECTURE.md "Read API"): one encapsulated scope per resource,
 * each behind requireUser then requireProjectRole(read-only), so every query is built from the
 * authorized project scope. Saved dashboards can be changed, so each of their routes names its own
 * role. Distributed traces cross projects and filter to the caller's own.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../application/services.js';
import { requireUser } from '../authenticate.js';
import { requireProjectRole } from '../project-scope.js';
import { savedDashboardRoutes } from './dashboards.js';
import { endpointRoutes } from './endpoints.js';
import { exceptionRoutes } from './exceptions.js';
import { issueStatusRoutes } from './issue-status.js';
import { logRoutes } from './logs.js';
import { metricRoutes } from './metrics.js';
import { overviewRoutes } from './overview.js';
import { sessionRoutes } from './sessions.js';
import { distributedTraceRoutes, traceRoutes } from './traces.js';

const PROJECT_SCOPED = [
  exceptionRoutes,
  endpointRoutes,
  traceRoutes,
  metricRoutes,
  overviewRoutes,
  logRoutes,
  sessionRoutes,
];

export async function telemetryRoutes(scope: FastifyInstance, services: Services): Promise<void> {
  for (const routes of PROJECT_SCOPED) {
    await scope.register(async (resource) => {
      resource.addHook('onRequest', requireUser(services));
      resource.addHook('onRequest', requireProjectRole(services, 'read-only'));
      routes(resource, services);
    });
  }
  await scope.register(async (resource) => {
    resource.addHook('onRequest', requireUser(services));
    savedDashboardRoutes(resource, services);
  });
  // Issue statuses can be changed: each route names its role, as saved dashboards do.
  await scope.register(async (resource) => {
    resource.addHook('onRequest', requireUser(services));
    issueStatusRoutes(resource, services);
  });
  await scope.register(async (resource) => distributedTraceRoutes(resource, services));
}
