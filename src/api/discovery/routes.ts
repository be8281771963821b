/**
 * Public discovery documents: OAuth 2.0 authorization server metadata (RFC 8414, with the
 * device endpoint of RFC 8628 §4) and protected resource metadata (RFC 9728). The issuer and the
 * resource are PUBLIC_URL, so each document is at the well-known path of its identifier.
 */
import { DEVICE_GRANT_TYPE } from '../../core/device-flow.js';
import type { Services } from '../../application/services.js';
import type { TypedScope } from '../../http/schema-types.js';

const strings = { type: 'array', items: { type: 'string' } } as const;

const authorizationServerSchema = {
  summary: 'OAuth 2.0 authorization server metadata (RFC 8414), with the device authorization endpoint (RFC 8628)',
  response: {
    200: {
      type: 'object',
      required: [
        'issuer',
        'token_endpoint',
        'device_authorization_endpoint',
        'grant_types_supported',
        'response_types_supported',
        'token_endpoint_auth_methods_supported',
      ],
      properties: {
        issuer: { type: 'string' },
        token_endpoint: { type: 'string' },
        device_authorization_endpoint: { type: 'string' },
        grant_types_supported: strings,
        response_types_supported: strings,
        token_endpoint_auth_methods_supported: strings,
      },
    },
  },
} as const;

const protectedResourceSchema = {
  summary: 'OAuth 2.0 protected resource metadata (RFC 9728)',
  response: {
    200: {
      type: 'object',
      required: ['resource', 'authorization_servers', 'bearer_methods_supported', 'resource_name'],
      properties: {
        resource: { type: 'string' },
        authorization_servers: strings,
        bearer_methods_supported: strings,
        resource_name: { type: 'string' },
      },
    },
  },
} as const;

export function discoveryRoutes(scope: TypedScope, services: Services): void {
  const base = services.config.publicUrl;

  scope.get('/.well-known/oauth-authorization-server', { schema: authorizationServerSchema }, async () => ({
    issuer: base,
    token_endpoint: `${base}/api/auth/device/token`,
    device_authorization_endpoint: `${base}/api/auth/device/authorize`,
    grant_types_supported: [DEVICE_GRANT_TYPE, 'refresh_token'],
    // There is no authorization endpoint, so no response type issues anything there; RFC 8414
    // requires the member and forbids an empty array, and `none` is the registered value for this.
    response_types_supported: ['none'],
    // Public first-party clients: the token endpoint takes no client authentication.
    token_endpoint_auth_methods_supported: ['none'],
  }));

  scope.get('/.well-known/oauth-protected-resource', { schema: protectedResourceSchema }, async () => ({
    resource: base,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    resource_name: 'Sightline',
  }));
}
