/**
 * Per-client-IP rate limits of the authentication routes (the spec's Limits table), kept in the
 * coordination store so they hold across processes. Ordinary authenticated calls have none.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../server/errors.js';
import type { Services } from '../server/services.js';

export function rateLimit(services: Services, bucket: string, limit: number, windowMs: number) {
  return async (request: FastifyRequest): Promise<void> => {
    const result = await services.coord.rateLimit(`ratelimit:${bucket}:${request.ip}`, limit, windowMs);
    if (result.allowed) return;
    const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
    throw new HttpError(429, `Too many requests, try again in ${seconds}s`, { 'Retry-After': String(seconds) });
  };
}
