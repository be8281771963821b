/**
 * CORS of the ingest surface, configured once for the report and OTLP routes, so that a browser
 * SDK or OTLP exporter on a page of any origin can send and read the answer:
 *
 * - every answer of an ingest route — 200 and every refusal (400, 401, 408, 413, 503...), whether
 *   thrown by a guard, while reading the body or by the handler — carries
 *   Access-Control-Allow-Origin (the request's origin) and exposes Retry-After, so an SDK sees
 *   the status instead of a network error and knows when to retry;
 * - preflights (OPTIONS with Origin and Access-Control-Request-Method) are answered for the
 *   ingest paths only: POST with the Authorization, Content-Type and Content-Encoding headers,
 *   cached for a day.
 *
 * @fastify/cors also adds a catch-all `OPTIONS *` route. Fastify has one router per instance, so
 * that route matches OPTIONS on every path of the listener, application routes included; the
 * delegator disables CORS for it, and it answers 404 there.
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The route patterns (not raw URLs) that get CORS: the native report route and the OTLP routes. */
export function isIngestRoute(url: string | undefined): boolean {
  return url === '/api/report' || url?.startsWith('/api/otel/') === true;
}

export const INGEST_CORS: FastifyCorsOptions = {
  // Reflects the page's origin: ingest is authenticated by the project token in Authorization,
  // never by cookies, so any origin may send.
  origin: true,
  methods: ['POST'],
  allowedHeaders: ['authorization', 'content-type', 'content-encoding'],
  exposedHeaders: ['retry-after'],
  maxAge: 86_400,
};

/** Registers @fastify/cors on the ingest scope; the hook runs before the ingest guards (onRequest). */
export async function useIngestCors(scope: FastifyInstance): Promise<void> {
  await scope.register(cors, {
    hook: 'onRequest',
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: FastifyCorsOptions) => void) =>
      callback(null, isIngestRoute(request.routeOptions.url) ? INGEST_CORS : { origin: false }),
  });
}

/** The OpenAPI description of an ingest route's preflight. */
export const PREFLIGHT_SCHEMA = {
  summary: 'CORS preflight of a browser SDK or exporter',
  description:
    'Any origin; allows POST with the Authorization, Content-Type and Content-Encoding headers; cached for a day. ' +
    'Every answer of the POST route, refusals included, carries Access-Control-Allow-Origin and exposes Retry-After.',
  security: [],
  response: {
    204: {
      description: 'Preflight accepted',
      headers: {
        type: 'object',
        properties: {
          'access-control-allow-origin': { type: 'string' },
          'access-control-allow-methods': { type: 'string' },
          'access-control-allow-headers': { type: 'string' },
          'access-control-expose-headers': { type: 'string' },
          'access-control-max-age': { type: 'string' },
        },
      },
      type: 'null',
    },
  },
} as const;

/**
 * Puts an ingest path's preflight in the OpenAPI document. The cors hook answers every OPTIONS on
 * the path before a handler runs (204 for a preflight, 400 for an OPTIONS that is none).
 */
export function preflightRoute(scope: FastifyInstance, path: string): void {
  scope.options(path, { schema: PREFLIGHT_SCHEMA }, (_request, reply) => reply.code(204).send());
}
