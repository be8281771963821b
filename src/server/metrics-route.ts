/**
 * GET /metrics: the service's own metrics (application/metrics.ts) in Prometheus text format. They
 * still tell traffic volumes and versions, so the route exists only when METRICS_TOKEN is set, and
 * answers only that token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServiceMetrics } from '../application/metrics.js';
import { bearerToken } from '../http/bearer.js';
import { unauthorized } from '../http/errors.js';
import { isBrowserNavigation, sendAppPage } from './web.js';

/**
 * GET /metrics for the holder of `token` (401 with an empty body for anyone else). On the
 * listener that serves the dashboard (`webRoot` given), /metrics is also the dashboard's metrics
 * page: a browser opening it by URL (no Authorization, asks for HTML) gets the app instead.
 */
export function metricsRoute(
  instance: FastifyInstance,
  metrics: ServiceMetrics,
  token: string,
  webRoot: string | null,
): void {
  const expected = digestOf(token);
  instance.get('/metrics', async (request, reply) => {
    if (webRoot !== null && isBrowserNavigation(request)) return sendAppPage(reply, webRoot);
    const presented = bearerToken(request.headers.authorization);
    // Digests have one length, so the comparison takes the same time whatever was presented.
    if (presented === null || !timingSafeEqual(digestOf(presented), expected)) throw unauthorized();
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

const digestOf = (value: string): Buffer => createHash('sha256').update(value).digest();
