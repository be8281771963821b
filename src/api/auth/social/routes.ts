/**
 * Social sign-in routes (public): the list of sign-in options, and per provider a start route that
 * sends the browser to the provider and a callback route the provider sends it back to. Start and
 * callback share one rate limit of 20 a minute per client address.
 *
 * Start keeps what the callback must check — state, PKCE verifier, nonce, the optional invitation
 * and return path — in the coordination store for 10 minutes under the random state, and sets a
 * short-lived cookie holding the state, so the callback only completes in the browser that started
 * (RFC 9700 §4.7: no login CSRF). The callback uses the state once, whatever the outcome.
 *
 * Success sends the browser to `PUBLIC_URL/auth/callback` (or the validated return path) with the
 * session token in the URL fragment, which browsers never send to a server, so it reaches no log;
 * `&joined=<organization id>` follows it when a new account joined through the invitation, whose
 * page (a likely return path) then no longer opens it: the dashboard shows the joined organization.
 * Every failure — cancelled at the provider, unknown or used state, provider errors, closed
 * registration — sends it to `PUBLIC_URL/login?error=<short message>`, never a 500.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { HttpError, badRequest, notFound } from '../../../http/errors.js';
import type { TypedScope } from '../../../http/schema-types.js';
import type { Services } from '../../../application/services.js';
import { RATE_LIMITS, rateLimit } from '../../rate-limit.js';
import { assertRegistrationOpen } from '../../../application/auth/accounts.js';
import { originOf, startSession } from '../../../application/auth/user-sessions.js';
import { configuredProviders, type PendingSignIn, type ProviderId, type SocialProvider } from './providers.js';
import { type SocialSignInOutcome, userOfSocialSignIn } from './sign-in.js';
import { errorAnswer } from '../../answers.js';

const STATE_TTL_MS = 10 * 60_000;
const STATE_FORMAT = /^[A-Za-z0-9_-]{20,128}$/;
const COOKIE = 'sightline_oauth_state';
const COOKIE_PATH = '/api/auth/oauth';
export const INVALID_STATE = 'this sign-in has expired or was already used: start again';

/** Kept under the state between start and callback. */
interface StoredSignIn extends PendingSignIn {
  provider: ProviderId;
  redirect: string | null;
  invitation: string | null;
}

const providerParams = {
  type: 'object',
  required: ['provider'],
  properties: { provider: { type: 'string', maxLength: 32 } },
} as const;
const redirectAnswer = { description: 'Redirect (Location header)', type: 'null' } as const;

export function socialSignInRoutes(scope: TypedScope, services: Services): void {
  const { config } = services;
  const providers = configuredProviders(config.oauth);
  const limit = rateLimit(services, RATE_LIMITS.oauth);
  const callbackUrl = (provider: SocialProvider) => `${config.publicUrl}/api/auth/oauth/${provider.id}/callback`;
  const secureCookie = config.publicUrl.startsWith('https:') ? '; Secure' : '';

  function providerOf(id: string): SocialProvider {
    const provider = providers.get(id as ProviderId);
    if (!provider) throw notFound(`no sign-in provider ${JSON.stringify(id)} is configured`);
    return provider;
  }

  /** Ends a sign-in at the sign-in page with a short reason. */
  function failed(reply: FastifyReply, message: string): FastifyReply {
    return reply.redirect(`${config.publicUrl}/login?error=${encodeURIComponent(message)}`, 302);
  }

  scope.get(
    '/api/auth/providers',
    {
      schema: {
        summary:
          'Sign-in options: password sign-in and reset, the password rule, and the configured social providers with their start URLs',
        response: {
          200: {
            type: 'object',
            properties: {
              passwordSignIn: { type: 'boolean' },
              passwordReset: { type: 'boolean', description: 'false when no mail server is configured' },
              passwordMinLength: {
                type: 'integer',
                description:
                  'fewest characters a new password may have (PASSWORD_MIN_LENGTH); forms check it before sending',
              },
              registrationOpen: {
                type: 'boolean',
                description:
                  'whether someone may register now without an invitation (REGISTRATION policy; first-user closes after the first account)',
              },
              providers: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { id: { type: 'string' }, name: { type: 'string' }, startUrl: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
    async () => ({
      passwordSignIn: true,
      passwordReset: services.mailer !== null,
      passwordMinLength: config.auth.passwordMinLength,
      // The register page tells a newcomer up front that they need an invitation.
      registrationOpen: await assertRegistrationOpen(services).then(
        () => true,
        () => false,
      ),
      providers: [...providers.values()].map((provider) => ({
        id: provider.id,
        name: provider.name,
        startUrl: `${config.publicUrl}/api/auth/oauth/${provider.id}/start`,
      })),
    }),
  );

  scope.get(
    '/api/auth/oauth/:provider/start',
    {
      onRequest: limit,
      schema: {
        summary: 'Start signing in with a provider: redirects the browser to it',
        params: providerParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            invitation: {
              type: 'string',
              maxLength: 100,
              description: 'An invitation token: a new account joins the inviting organization',
            },
            redirect: {
              type: 'string',
              maxLength: 2000,
              description: 'A path on this site to land on after signing in',
            },
          },
        },
        response: { 302: redirectAnswer, 400: errorAnswer, 404: errorAnswer, 429: errorAnswer },
      },
    },
    async (request, reply) => {
      const provider = providerOf(request.params.provider);
      const { invitation, redirect } = request.query;
      if (redirect !== undefined && !isSameSitePath(redirect))
        throw badRequest('redirect must be a path on this site (starting with a single /)');
      const pending: StoredSignIn = {
        provider: provider.id,
        state: oidc.randomState(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
        nonce: oidc.randomNonce(),
        redirect: redirect ?? null,
        invitation: invitation ?? null,
      };
      let target: URL;
      try {
        target = await provider.authorizationUrl(pending, callbackUrl(provider));
      } catch (error) {
        request.log.warn({ provider: provider.id, reason: (error as Error).message }, 'social sign-in could not start');
        return failed(reply, `${provider.name} cannot be reached: try again later`);
      }
      await services.coord.set(stateKey(pending.state), JSON.stringify(pending), STATE_TTL_MS);
      void reply.header(
        'set-cookie',
        `${COOKIE}=${pending.state}; Path=${COOKIE_PATH}; Max-Age=${STATE_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secureCookie}`,
      );
      return reply.redirect(target.href, 302);
    },
  );

  scope.get(
    '/api/auth/oauth/:provider/callback',
    {
      onRequest: limit,
      schema: {
        summary: 'Where the provider sends the browser back: signs in and redirects to the dashboard',
        params: providerParams,
        // Providers add parameters of their own (iss, scope, authuser, ...): all are accepted.
        querystring: {
          type: 'object',
          properties: { state: { type: 'string' }, code: { type: 'string' }, error: { type: 'string' } },
        },
        response: { 302: redirectAnswer, 404: errorAnswer, 429: errorAnswer },
      },
    },
    async (request, reply) => {
      const provider = providerOf(request.params.provider);
      // The answer carries a session token (in the Location fragment): never cached.
      void reply
        .header('set-cookie', `${COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secureCookie}`)
        .header('cache-control', 'no-store');
      const { state, error } = request.query;
      const pending = state !== undefined && STATE_FORMAT.test(state) ? await takeSignIn(services, state) : null;
      // The state must be one this service issued, for this provider, to this browser.
      if (!pending || pending.provider !== provider.id || cookieOf(request, COOKIE) !== state)
        return failed(reply, INVALID_STATE);
      if (error !== undefined) {
        return failed(
          reply,
          error === 'access_denied'
            ? `sign-in was cancelled at ${provider.name}`
            : `${provider.name} refused the sign-in (${error.replace(/[^a-z_]/g, '').slice(0, 40)})`,
        );
      }
      const query = request.url.slice(request.url.indexOf('?') + 1);
      let outcome: SocialSignInOutcome;
      try {
        const profile = await provider.complete(new URL(`${callbackUrl(provider)}?${query}`), pending);
        outcome = await userOfSocialSignIn(services, provider, profile, pending.invitation ?? undefined);
      } catch (problem) {
        if (problem instanceof HttpError && problem.statusCode < 500) return failed(reply, problem.message);
        request.log.warn({ provider: provider.id, reason: (problem as Error).message }, 'social sign-in failed');
        return failed(reply, `sign-in with ${provider.name} failed: try again`);
      }
      const session = await startSession(services, outcome.user.id, 'session', originOf(request));
      const fragment = new URLSearchParams({ token: session.token });
      if (outcome.joinedOrganizationId !== null) fragment.set('joined', outcome.joinedOrganizationId);
      return reply.redirect(`${config.publicUrl}${pending.redirect ?? '/auth/callback'}#${fragment}`, 302);
    },
  );
}

const stateKey = (state: string) => `oauth-state:${state}`;

/**
 * The sign-in stored under `state`, taken once: the first caller to claim it gets it, any other
 * (a replayed or concurrent callback) gets null. The claim is an atomic counter, so this holds
 * across processes sharing Redis.
 */
async function takeSignIn(services: Services, state: string): Promise<StoredSignIn | null> {
  const stored = await services.coord.get(stateKey(state));
  if (stored === null) return null;
  const claims = await services.coord.incrBy(`${stateKey(state)}:taken`, 1, STATE_TTL_MS);
  await services.coord.del(stateKey(state));
  return claims === 1 ? (JSON.parse(stored) as StoredSignIn) : null;
}

/** A path on this site: one leading slash (not `//host` or `/\host`), no fragment, no control characters or spaces. */
export function isSameSitePath(path: string): boolean {
  return /^\/(?![/\\])/.test(path) && !/[\\#\s\x00-\x1f\x7f]/.test(path);
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
