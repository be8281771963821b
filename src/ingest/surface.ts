/**
 * The ingest surface: the native report route and the OTLP routes, each in its own scope with
 * its own body cap.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../server/services.js';
import { ingestGuards } from './authenticate.js';
import { otlpRoutes } from './otlp/routes.js';
import { QuotaGate } from './quota.js';
import { reportRoute } from './report/route.js';

export async function ingestSurface(scope: FastifyInstance, services: Services): Promise<void> {
  scope.decorateRequest('project', null);
  scope.addHook('onResponse', async (request, reply) => {
    services.metrics.ingestRequests.inc({ route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) });
  });
  const guards = ingestGuards(services, new QuotaGate(services, services.now));
  await scope.register(async (reportScope) => reportRoute(reportScope, services, guards));
  await scope.register(async (otlpScope) => otlpRoutes(otlpScope, services, guards));
}
