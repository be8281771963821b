/**
 * Body parsing for one Fastify scope: every body is read through readBody (decompressed cap
 * enforced while streaming, 408 when too slow) instead of Fastify's parsers, which would cap the
 * compressed size only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readBody, type BodyLimits } from './body.js';
import { badRequest } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The decompressed body, for routes that decode it themselves (ingest). */
    rawBody?: Buffer;
  }
}

/** Application scope: JSON and form bodies, parsed into objects. */
export function useApplicationBodies(scope: FastifyInstance, limits: BodyLimits): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('application/json', (request: FastifyRequest, payload, done) => {
    read(request, payload, limits)
      .then((buffer) => done(null, parseJson(buffer)))
      .catch((error: Error) => done(error));
  });
  scope.addContentTypeParser('application/x-www-form-urlencoded', (request: FastifyRequest, payload, done) => {
    read(request, payload, limits)
      .then((buffer) => done(null, Object.fromEntries(new URLSearchParams(buffer.toString('utf8')))))
      .catch((error: Error) => done(error));
  });
}

/** Ingest scope: any content type; the route decodes `request.rawBody` (JSON or protobuf). */
export function useRawBodies(scope: FastifyInstance, limits: BodyLimits): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (request: FastifyRequest, payload, done) => {
    read(request, payload, limits)
      .then((buffer) => {
        request.rawBody = buffer;
        done(null, undefined);
      })
      .catch((error: Error) => done(error));
  });
}

function read(request: FastifyRequest, payload: NodeJS.ReadableStream, limits: BodyLimits): Promise<Buffer> {
  return readBody(payload as import('node:stream').Readable, request.headers['content-encoding'], limits);
}

export function parseJson(buffer: Buffer): unknown {
  if (buffer.length === 0) return undefined;
  try {
    return JSON.parse(buffer.toString('utf8'));
  } catch (error) {
    throw badRequest(`body is not valid JSON: ${(error as Error).message}`);
  }
}
