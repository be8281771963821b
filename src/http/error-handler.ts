/**
 * One error answer for the whole service: `{"error": "..."}` with the right status, 401 with an
 * empty body, 503 with Retry-After, and no internals in a 500. A scope whose clients expect
 * another error body (OTLP's protobuf exporters) renders the body itself (`useErrorBodies`).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RESOURCE_LIMIT_CODES, TelemetryQueryError } from '../store/telemetry/engine.js';
import { FilterError } from '../store/telemetry/queries/filters.js';
import { WriteFailedError } from '../store/telemetry/writer.js';
import { discardRestOfBody } from './body.js';
import { HttpError } from './errors.js';

/** The body and content type of an error answer (401 excepted: always empty). */
export type ErrorBody = (request: FastifyRequest, answer: HttpError) => { body: unknown; contentType?: string };

/** The service's error body: `{"error": "..."}`. */
export const JSON_ERROR: ErrorBody = (_request, answer) => ({ body: { error: answer.message } });

/**
 * The router's limit on a route parameter (its `maxParamLength`): every parameter is a UUID, a
 * 16-hex issue hash or a provider name, so a longer segment is never a valid one.
 */
export const MAX_PATH_SEGMENT = 100;
const SEGMENT_TOO_LONG = `a path segment is longer than ${MAX_PATH_SEGMENT} characters`;

/**
 * Fastify's answers to a request its router refuses before any route or error handler (a path
 * with malformed percent-encoding, a path segment over MAX_PATH_SEGMENT), in the service's shape:
 * Fastify's own body was `{"error": "Bad Request", "code": "FST_ERR_BAD_URL", ...}`, and 414.
 * For the `frameworkErrors` server option.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? SEGMENT_TOO_LONG
      : 'the path is not a valid URL (malformed percent-encoding)';
  void reply.code(400).send({ error: message });
}

/**
 * The answer to a path no route answers: 404, or 400 when a segment is over the router's limit.
 * The dashboard's catch-all GET route matches a path whose parameter the router refused as too
 * long, so its framework error never comes: a long id would otherwise read as "no such route".
 */
export function answerNoRoute(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '';
  // Measured decoded, as the router measures a parameter.
  if (path.split('/').some((segment) => decodedLength(segment) > MAX_PATH_SEGMENT))
    return reply.code(400).send({ error: SEGMENT_TOO_LONG });
  return reply.code(404).send({ error: `no route ${request.method} ${path}` });
}

function decodedLength(segment: string): number {
  try {
    return decodeURIComponent(segment).length;
  } catch {
    return segment.length;
  }
}

export function useErrorAnswers(app: FastifyInstance): void {
  useErrorBodies(app, JSON_ERROR);
  app.setNotFoundHandler(answerNoRoute);
}

/** The service's error answers in this scope, with bodies rendered by `render`. */
export function useErrorBodies(app: FastifyInstance, render: ErrorBody): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const answer = toHttpError(error, request);
    if (answer.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ status: answer.statusCode, reason: answer.message }, 'request refused');
    void reply.code(answer.statusCode).headers(answer.headers);
    // Answered before the body was read to its end (401, 413, 503, an early 400): the rest is
    // discarded within bounds so the client can read the answer. A 408's body is not arriving:
    // nothing to wait for.
    if (!request.raw.complete) {
      if (answer.statusCode === 408) void reply.header('connection', 'close');
      else discardRestOfBody(request.raw, reply.raw);
    }
    if (answer.statusCode === 401) return reply.send();
    const { body, contentType } = render(request, answer);
    if (contentType) void reply.type(contentType);
    return reply.send(body);
  });
}

export function toHttpError(error: FastifyError | Error, request?: FastifyRequest): HttpError {
  if (error instanceof HttpError) return error;
  // A read API filter off the route's allow-list, or of the wrong type (Filters.parse).
  if (error instanceof FilterError) return new HttpError(400, error.message);
  // Not retryable: a record the store's column types refuse, which a retry would send again.
  if (error instanceof WriteFailedError && !error.retryable) return new HttpError(500, 'internal error');
  if (error instanceof WriteFailedError)
    return new HttpError(503, 'storage is unavailable, retry shortly', { 'Retry-After': '5' });
  if (error instanceof TelemetryQueryError && error.code !== null && RESOURCE_LIMIT_CODES.has(error.code)) {
    return new HttpError(422, 'the query needs more resources than allowed: narrow the time range or add filters');
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return new HttpError(400, `invalid request: ${fastifyError.message}`);
  // Fastify's message is the bare reason phrase "Unsupported Media Type".
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const contentType = request?.headers['content-type'];
    return new HttpError(
      415,
      contentType === undefined
        ? 'the body has no Content-Type: send application/json'
        : `Content-Type ${JSON.stringify(contentType)} is not accepted: send application/json`,
    );
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new HttpError(status, fastifyError.message);
  return new HttpError(500, 'internal error');
}
