/**
 * The structured logger (pino): one per process, created by the composition root and shared with
 * both Fastify listeners, so a job's line and a request's line go to one stream in one format.
 * `request.log` is of this type too (a child carrying the request's reqId).
 */
import type { FastifyBaseLogger } from 'fastify';

export type Logger = FastifyBaseLogger;
