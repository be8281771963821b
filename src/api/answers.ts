/**
 * JSON schemas of answers several resources give, shared so the OpenAPI document and the route
 * types (http/schema-types.ts) describe each one alike.
 */
import { ROLES } from '../core/roles.js';

/** Every refusal of the application API (http/error-handler.ts). */
export const errorAnswer = { type: 'object', properties: { error: { type: 'string' } } } as const;

export const roleSchema = { type: 'string', enum: ROLES } as const;

export const userAnswer = {
  type: 'object',
  // Closed, so a User record is one (an open object's type takes only records with an index signature).
  additionalProperties: false,
  required: ['id', 'email', 'name', 'createdAt'],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

/** A new dashboard session, as a reset and a password change answer it. */
export const sessionAnswer = {
  type: 'object',
  required: ['token', 'expiresAt', 'user'],
  properties: { token: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' }, user: userAnswer },
} as const;

/** `{status}` with the one value a route answers (`revoked`, `deleted`, ...). */
export const statusAnswer = <const Status extends string>(status: Status) =>
  ({ type: 'object', required: ['status'], properties: { status: { type: 'string', enum: [status] } } }) as const;

/** The caller's membership of an organization. */
export const membershipAnswer = {
  type: 'object',
  required: ['id', 'name', 'role'],
  properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, role: roleSchema },
} as const;

/** An organization of the caller as GET /api/me lists it (and POST /api/organizations answers the new one). */
export const memberOrganizationAnswer = {
  type: 'object',
  required: ['id', 'name', 'role', 'suspended'],
  properties: {
    ...membershipAnswer.properties,
    suspended: { type: 'boolean', description: 'a suspended organization answers 403 on its projects' },
  },
} as const;
