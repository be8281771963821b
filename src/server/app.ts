/**
 * HTTP assembly (Fastify 5): the application surface and the ingest surface, on one listener or
 * on two when INGEST_PORT differs from PORT. Each surface is an encapsulated plugin with its own
 * body parsing and caps; both answer /health and /ready.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { applicationSurface } from '../api/surface.js';
import { documentSibling, useOpenApi } from '../api/telemetry/openapi.js';
import { ingestSurface } from '../ingest/surface.js';
import { MAX_PATH_SEGMENT, answerFrameworkError, useErrorAnswers } from '../http/error-handler.js';
import { buildValidator } from '../http/validation.js';
import { healthRoutes } from './health.js';
import { LIMITS } from '../http/limits.js';
import { metricsRoute } from './metrics-route.js';
import type { Services } from '../application/services.js';
import { webRoutes } from './web.js';

export interface Apps {
  app: FastifyInstance;
  /** Set only when ingest has its own listener. */
  ingest: FastifyInstance | null;
}

export async function buildApps(services: Services): Promise<Apps> {
  const split = services.config.ingestPort !== null;
  // The application listener serves the dashboard, whose metrics page shares /metrics.
  const app = newInstance(services, services.config.webDir);
  await app.register(async (scope) => applicationSurface(scope, services));
  // The dashboard: beside the API on the application listener, never on a separate ingest one.
  await app.register(async (scope) => webRoutes(scope, services.config.webDir));
  if (!split) {
    await app.register(async (scope) => ingestSurface(scope, services));
    await app.ready();
    return { app, ingest: null };
  }
  const ingest = newInstance(services, null);
  documentSibling(app, ingest);
  await ingest.register(async (scope) => ingestSurface(scope, services));
  await Promise.all([app.ready(), ingest.ready()]);
  return { app, ingest };
}

function newInstance(services: Services, webRoot: string | null): FastifyInstance {
  const { config } = services;
  const instance = Fastify({
    // One process logger (services.log, at LOG_LEVEL): request.log is its child with the reqId.
    loggerInstance: services.log,
    trustProxy: config.trustProxy,
    // One line per refused or failed request comes from the error handler; no line per request.
    logController: new LogController({ disableRequestLogging: true }),
    // Bodies are capped by readBody after decompression; this only stops absurd raw sizes early.
    bodyLimit: LIMITS.reportBytes + 1024 * 1024,
    // Backstop for a client that is slow before the body starts (headers); readBody answers 408 for bodies.
    requestTimeout: config.bodyTimeoutMs + 5_000,
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildValidator } },
    frameworkErrors: answerFrameworkError,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
  });
  useErrorAnswers(instance);
  useOpenApi(instance);
  closeConnectionsWhenClosing(instance);
  if (config.metricsToken !== null) metricsRoute(instance, services.metrics, config.metricsToken, webRoot);
  healthRoutes(instance, {
    telemetry: services.telemetry,
    meta: services.meta,
    objects: services.objects,
    coord: services.coord,
  });
  return instance;
}

/**
 * While the server closes, answers carry `Connection: close`: a keep-alive connection whose
 * request was in flight at close() would otherwise stay open and keep the process alive.
 */
function closeConnectionsWhenClosing(instance: FastifyInstance): void {
  let closing = false;
  instance.addHook('preClose', async () => {
    closing = true;
  });
  instance.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });
}
