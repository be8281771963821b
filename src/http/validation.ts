/**
 * Request validation: Fastify's own compiler (ajv, with its formats), with one change for bodies.
 * Query strings, path parameters and headers are text, so their values are coerced to the
 * schema's types (`?page=2` is the integer 2). A JSON body already carries types: coercing them
 * stored `{"name": 42}` as "42" and `{"name": null}` as "", so a body value of the wrong type is a
 * 400 naming the field instead. Unknown body fields are still dropped, not refused.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;
type PoolOptions = { customOptions?: Record<string, unknown> };
type RouteSchema = { schema: unknown; httpPart?: string };
type CompilerOfPool = (externalSchemas: unknown, options: PoolOptions) => (route: RouteSchema) => unknown;

const compilers = AjvCompiler() as unknown as CompilerOfPool;

export const buildValidator = ((externalSchemas: unknown, options: PoolOptions = {}) => {
  const textParts = compilers(externalSchemas, options);
  const bodies = compilers(externalSchemas, {
    ...options,
    customOptions: { ...options.customOptions, coerceTypes: false },
  });
  return (route: RouteSchema) => (route.httpPart === 'body' ? bodies : textParts)(route);
}) as unknown as ValidatorFactory;
