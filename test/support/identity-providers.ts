/**
 * Sign-in providers on loopback for the social sign-in tests, and a driver that walks a browser's
 * redirects through a whole sign-in.
 *
 * - OpenID Connect: `oauth2-mock-server`, a real OIDC provider (discovery, JWKS, PKCE, ID tokens
 *   signed with a generated RSA key). The person it signs in is whatever `profile` says.
 * - GitHub: no real GitHub can run here, and GitHub is not OpenID Connect, so a small HTTP server
 *   implements the four documented endpoints the service uses — `GET /login/oauth/authorize`
 *   (redirects back at once with a code, as after the person approved), `POST
 *   /login/oauth/access_token` (checks client secret, code, redirect URI and the PKCE verifier),
 *   and the REST API's `GET /user` and `GET /user/emails`, under `/api/v3` as on GitHub
 *   Enterprise Server. It exists only to exercise the service's real HTTP client code; keep it
 *   to what GitHub documents.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { OAuth2Server } from 'oauth2-mock-server';
import { listenOnLoopback } from './loopback.js';

export interface OidcProfile {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  server: OAuth2Server;
  /** Who the next sign-in signs in. */
  profile: OidcProfile;
  /** Leave the claims other than `sub` out of the tokens: only UserInfo gives them. */
  claimsOnlyAtUserInfo: boolean;
  /** Claims forced into the next ID tokens (a wrong audience, nonce, issuer...). */
  idTokenOverrides: Record<string, unknown> | null;
  close(): Promise<void>;
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const provider: TestOidcProvider = {
    issuer: server.issuer.url!,
    server,
    profile: { sub: 'someone' },
    claimsOnlyAtUserInfo: false,
    idTokenOverrides: null,
    close: () => server.stop(),
  };
  server.service.on('beforeTokenSigning', (token) => {
    const { sub, ...claims } = provider.profile;
    Object.assign(token.payload, { sub }, provider.claimsOnlyAtUserInfo ? {} : claims);
    // The ID token is the one with an audience (the client id).
    if (token.payload.aud !== undefined && provider.idTokenOverrides)
      Object.assign(token.payload, provider.idTokenOverrides);
  });
  server.service.on('beforeUserinfo', (response) => {
    response.body = { ...provider.profile };
  });
  return provider;
}

export interface GitHubAccount {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean; visibility: string | null }>;
}

export interface TestGitHub {
  url: string;
  /** Who the next sign-in signs in. */
  account: GitHubAccount;
  /** Paths requested, in order (to show which endpoints the service used). */
  requests: string[];
  close(): Promise<void>;
}

export async function startGitHubFake(client: { id: string; secret: string }): Promise<TestGitHub> {
  const codes = new Map<string, { redirectUri: string; challenge: string; account: GitHubAccount }>();
  const tokens = new Map<string, GitHubAccount>();
  const fake: TestGitHub = {
    url: '',
    account: { id: 1, login: 'octocat', name: 'The Octocat', emails: [] },
    requests: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const json = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url!, fake.url);
    fake.requests.push(`${request.method} ${url.pathname}`);
    if (request.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri')!;
      const back = new URL(redirectUri);
      if (url.searchParams.get('client_id') !== client.id) return json(response, 404, { message: 'Not Found' });
      const code = randomBytes(10).toString('hex');
      codes.set(code, {
        redirectUri,
        challenge: url.searchParams.get('code_challenge') ?? '',
        account: structuredClone(fake.account),
      });
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return response.writeHead(302, { location: back.href }).end();
    }
    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const pkce = grant && createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
        const ok =
          grant &&
          pkce &&
          form.get('client_id') === client.id &&
          form.get('client_secret') === client.secret &&
          form.get('redirect_uri') === grant.redirectUri;
        // GitHub answers 200 with an error body; JSON only when asked for it (otherwise form-encoded).
        const accessToken = `gho_${randomBytes(18).toString('hex')}`;
        const answer: Record<string, string> = ok
          ? { access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' }
          : { error: 'bad_verification_code' };
        if (ok) tokens.set(accessToken, grant.account);
        if (!(request.headers.accept ?? '').includes('application/json')) {
          return response
            .writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' })
            .end(new URLSearchParams(answer).toString());
        }
        json(response, 200, answer);
      });
      return;
    }
    const account = tokens.get((request.headers.authorization ?? '').replace(/^(Bearer|token) /i, ''));
    if (request.method === 'GET' && (url.pathname === '/api/v3/user' || url.pathname === '/api/v3/user/emails')) {
      if (!account) return json(response, 401, { message: 'Bad credentials' });
      return url.pathname.endsWith('/emails')
        ? json(response, 200, account.emails)
        : json(response, 200, { id: account.id, login: account.login, name: account.name });
    }
    json(response, 404, { message: 'Not Found' });
  });
  fake.url = (await listenOnLoopback(server)).url;
  return fake;
}

export interface SignInResult {
  /** Where the service finally sent the browser. */
  location: URL;
  /** The session token of a successful sign-in (from the fragment), else null. */
  token: string | null;
  /** The error of a failed sign-in (`?error=` of the login page), else null. */
  error: string | null;
  cacheControl: unknown;
  /** The callback request, to replay it. */
  callback: { path: string; cookie: string };
}

/**
 * Walks a sign-in as a browser does: the service's start route (inject), the provider's
 * authorization endpoint (real HTTP), back to the service's callback (inject) with the cookie the
 * start route set.
 */
export async function signInThrough(
  app: FastifyInstance,
  startPath: string,
  options: { remoteAddress?: string } = {},
): Promise<SignInResult> {
  const start = await app.inject({
    method: 'GET',
    url: startPath,
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
  });
  if (start.statusCode !== 302) throw new Error(`start answered ${start.statusCode} ${start.body}`);
  const cookie = String(start.headers['set-cookie']).split(';')[0]!;
  const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
  if (atProvider.status !== 302)
    throw new Error(`the provider answered ${atProvider.status} ${await atProvider.text()}`);
  const back = new URL(atProvider.headers.get('location')!);
  const callback = { path: `${back.pathname}${back.search}`, cookie };
  return { ...(await finishCallback(app, callback, options)), callback };
}

/** Sends the browser's callback request to the service and reads where it is sent. */
export async function finishCallback(
  app: FastifyInstance,
  callback: { path: string; cookie: string },
  options: { remoteAddress?: string } = {},
) {
  const answer = await app.inject({
    method: 'GET',
    url: callback.path,
    headers: { cookie: callback.cookie },
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
  });
  if (answer.statusCode !== 302) throw new Error(`callback answered ${answer.statusCode} ${answer.body}`);
  const location = new URL(String(answer.headers.location));
  const fragment = new URLSearchParams(location.hash.slice(1));
  return {
    location,
    token: fragment.get('token'),
    error: location.searchParams.get('error'),
    cacheControl: answer.headers['cache-control'],
  };
}
