/**
 * The ingest surface: the native report route and the OTLP routes, each in its own scope with
 * its own body cap, and CORS for both configured once (cors.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../application/services.js';
import { ingestGuards } from './authenticate.js';
import { isIngestRoute, useIngestCors } from './cors.js';
import { otlpRoutes } from './otlp/routes.js';
import { QuotaGate } from './quota.js';
import { reportRoute } from './report/route.js';

export async function ingestSurface(scope: FastifyInstance, services: Services): Promise<void> {
  scope.decorateRequest('project', null);
  scope.addHook('onResponse', async (request, reply) => {
    // Not the cors plugin's catch-all `OPTIONS *`, which also sees OPTIONS on application paths.
    if (!isIngestRoute(request.routeOptions.url)) return;
    services.metrics.ingestRequests.inc({
      route: request.routeOptions.url ?? 'unknown',
      status: String(reply.statusCode),
    });
  });
  await useIngestCors(scope);
  const guards = ingestGuards(services, new QuotaGate(services, services.now));
  await scope.register(async (reportScope) => reportRoute(reportScope, services, guards));
  await scope.register(async (otlpScope) => otlpRoutes(otlpScope, services, guards));
}
