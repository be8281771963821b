/**
 * Route types from route schemas: a route's JSON schemas (declared `as const`) are also the
 * TypeScript types of its request (body, params, querystring) and of its answers, through
 * @fastify/type-provider-json-schema-to-ts. A handler may answer a `date-time` field with a Date:
 * fast-json-stringify writes it as an ISO string, as the schema says.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

export type SchemaTypeProvider = JsonSchemaToTsProvider<{
  SerializerSchemaOptions: {
    deserialize: [{ pattern: { type: 'string'; format: 'date-time' }; output: Date | string }];
  };
}>;

/** A Fastify scope whose routes take their types from their schemas. */
export type TypedScope = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  SchemaTypeProvider
>;
