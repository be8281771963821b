/**
 * Ingest authentication: the bearer must be a live project's ingest token (exact 32 lowercase
 * hex). Anything else — a personal access token, a session token, a reformatted project token —
 * is 401. A suspended organization's project is paused: 503 with Retry-After.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../http/bearer.js';
import { serviceUnavailable, unauthorized } from '../http/errors.js';
import type { Services } from '../application/services.js';
import type { IngestProject } from '../core/projects.js';

declare module 'fastify' {
  interface FastifyRequest {
    project: IngestProject | null;
  }
}

export function requireProject(services: Services) {
  return async (request: FastifyRequest): Promise<void> => {
    const project = await services.projects.resolve(bearerToken(request.headers.authorization));
    if (!project) throw unauthorized();
    if (project.suspended) throw serviceUnavailable('ingest is paused: the organization is suspended', 3600);
    request.project = project;
  };
}

export function projectOf(request: FastifyRequest): IngestProject {
  if (!request.project) throw unauthorized();
  return request.project;
}

/** Holds an admission slot from before the body is read until the answer is sent (or the client goes). */
export function admitted(services: Services) {
  return async (_request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const release = await services.admission.acquire();
    reply.raw.once('close', release);
  };
}

/** The onRequest guards of every ingest route, in order: who, whether the quota allows, a slot. */
export function ingestGuards(services: Services, quota: { hook: (request: FastifyRequest) => Promise<void> }) {
  return [requireProject(services), quota.hook, admitted(services)];
}

export type IngestGuards = ReturnType<typeof ingestGuards>;
