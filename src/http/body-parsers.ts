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

/**
 * A Content-Type that is a media type (`type/subtype`, parameters aside), as Fastify checks it
 * before any parser runs.
 */
const MEDIA_TYPE = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(?:;|$)/;

/** Ingest scope: any content type; the route decodes `request.rawBody` (JSON or protobuf). */
export function useRawBodies(scope: FastifyInstance, limits: BodyLimits): void {
  // A header that is no media type at all (`Content-Type: `, `json`) would get Fastify's 415,
  // which the ingest routes do not have: it is a malformed request, 400.
  scope.addHook('preParsing', async (request) => {
    const contentType = request.headers['content-type'];
    if (contentType !== undefined && !MEDIA_TYPE.test(contentType))
      throw badRequest('Content-Type is not a media type');
  });
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

/**
 * Parses a JSON body into well-formed Unicode: invalid UTF-8 bytes become U+FFFD in decoding, and
 * so do lone surrogates written as `\uD800`-style escapes, which the stores cannot hold (a lone
 * high surrogate fails the ClickHouse insert of a whole batch).
 */
export function parseJson(buffer: Buffer): unknown {
  if (buffer.length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(buffer.toString('utf8'));
  } catch (error) {
    throw badRequest(`body is not valid JSON: ${(error as Error).message}`);
  }
  // Every surrogate escape starts with `\ud` or `\uD`; bodies without one skip the walk.
  return buffer.includes('\\ud') || buffer.includes('\\uD') ? toWellFormed(value) : value;
}

interface UnicodeString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

const wellFormed = (text: string): string => (text as unknown as UnicodeString).toWellFormed();
const isWellFormed = (text: string): boolean => (text as unknown as UnicodeString).isWellFormed();

/** Replaces lone surrogates in every string and key of a parsed JSON value, in place; iterative, as values may nest deeply. */
function toWellFormed(root: unknown): unknown {
  if (typeof root === 'string') return wellFormed(root);
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'string') value[i] = wellFormed(item);
        else if (typeof item === 'object' && item !== null) pending.push(item);
      }
    } else if (typeof value === 'object' && value !== null) {
      const object = value as Record<string, unknown>;
      for (const key of Object.keys(object)) {
        const item = object[key];
        if (typeof item === 'string') object[key] = wellFormed(item);
        else if (typeof item === 'object' && item !== null) pending.push(item);
        if (!isWellFormed(key)) {
          object[wellFormed(key)] = object[key];
          delete object[key];
        }
      }
    }
  }
  return root;
}
