/**
 * Social sign-in providers, from configuration: a generic OpenID Connect provider (`oidc`),
 * Google (an OIDC provider with a fixed issuer) and GitHub (plain OAuth 2.0 configured by hand,
 * with the e-mail read from its REST API). The protocol work — discovery, PKCE, state, nonce, the
 * code exchange and ID token validation — is openid-client's; a provider here only says what to
 * ask and how to read the signed-in person's verified e-mail.
 *
 * Plain-http provider URLs are accepted (and openid-client's https-only rule lifted) only on a
 * loopback address, where a test or a provider on the same host runs; config.ts refuses others.
 */
import * as oidc from 'openid-client';
import { isLoopbackHttp, type Config } from '../../../config.js';

export type ProviderId = 'oidc' | 'google' | 'github';

/** What a sign-in carries from the start route to the callback (kept in the coordination store). */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** The person the provider vouches for. */
export interface SocialProfile {
  /** Who vouches for the account: the ID token's validated `iss`, or GitHub's URL. */
  issuer: string;
  /** The account's stable id at the issuer (OIDC `sub`, GitHub user id); unique only there. */
  subject: string;
  email: string;
  /** Whether the provider has verified that the person controls `email`. */
  emailVerified: boolean;
  name: string;
}

export interface SocialProvider {
  id: ProviderId;
  name: string;
  /** Where to send the browser to sign in at the provider. */
  authorizationUrl(pending: PendingSignIn, redirectUri: string): Promise<URL>;
  /** Validates the provider's answer at `callbackUrl` against `pending`, exchanges the code and reads the profile. */
  complete(callbackUrl: URL, pending: PendingSignIn): Promise<SocialProfile>;
}

/** Seconds an HTTP call to a provider may take. */
const PROVIDER_TIMEOUT_S = 10;
const GOOGLE_ISSUER = 'https://accounts.google.com';

/** The configured providers, in the order a sign-in page shows them. */
export function configuredProviders(oauth: Config['oauth']): Map<ProviderId, SocialProvider> {
  const providers = new Map<ProviderId, SocialProvider>();
  if (oauth.google)
    providers.set(
      'google',
      new OidcProvider('google', 'Google', GOOGLE_ISSUER, oauth.google.clientId, oauth.google.clientSecret),
    );
  if (oauth.github) providers.set('github', new GitHubProvider(oauth.github));
  if (oauth.oidc)
    providers.set(
      'oidc',
      new OidcProvider('oidc', oauth.oidc.name, oauth.oidc.issuer, oauth.oidc.clientId, oauth.oidc.clientSecret),
    );
  return providers;
}

const insecureOnLoopback = (url: string) => (isLoopbackHttp(new URL(url)) ? [oidc.allowInsecureRequests] : []);

class OidcProvider implements SocialProvider {
  /** Discovery runs on first use and is kept; a failed one is tried again on the next sign-in. */
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    readonly id: ProviderId,
    readonly name: string,
    private readonly issuer: string,
    private readonly clientId: string,
    private readonly clientSecret: string | null,
  ) {}

  private discover(): Promise<oidc.Configuration> {
    this.configuration ??= oidc
      .discovery(
        new URL(this.issuer),
        this.clientId,
        this.clientSecret ?? undefined,
        this.clientSecret === null ? oidc.None() : undefined,
        {
          execute: insecureOnLoopback(this.issuer),
          timeout: PROVIDER_TIMEOUT_S,
        },
      )
      .catch((error: unknown) => {
        this.configuration = null;
        throw error;
      });
    return this.configuration;
  }

  async authorizationUrl(pending: PendingSignIn, redirectUri: string): Promise<URL> {
    const configuration = await this.discover();
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  async complete(callbackUrl: URL, pending: PendingSignIn): Promise<SocialProfile> {
    const configuration = await this.discover();
    const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    // Providers may leave e-mail out of the ID token and give it at the UserInfo endpoint.
    const source: Record<string, unknown> =
      typeof claims.email === 'string'
        ? claims
        : await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    const email = typeof source.email === 'string' ? source.email : '';
    const name = typeof source.name === 'string' ? source.name : typeof claims.name === 'string' ? claims.name : '';
    // Some providers send the boolean as a string.
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email,
      emailVerified: source.email_verified === true || source.email_verified === 'true',
      name,
    };
  }
}

/** GitHub (or GitHub Enterprise Server): OAuth 2.0 without OpenID Connect. */
class GitHubProvider implements SocialProvider {
  readonly id = 'github';
  readonly name = 'GitHub';
  private readonly configuration: oidc.Configuration;
  private readonly api: string;
  private readonly url: string;

  constructor(github: NonNullable<Config['oauth']['github']>) {
    this.configuration = new oidc.Configuration(
      {
        issuer: github.url,
        authorization_endpoint: `${github.url}/login/oauth/authorize`,
        token_endpoint: `${github.url}/login/oauth/access_token`,
      },
      github.clientId,
      github.clientSecret,
    );
    this.configuration.timeout = PROVIDER_TIMEOUT_S;
    for (const apply of insecureOnLoopback(github.url)) apply(this.configuration);
    this.url = github.url;
    // github.com serves its REST API on its own host; Enterprise Server under /api/v3.
    this.api = new URL(github.url).hostname === 'github.com' ? 'https://api.github.com' : `${github.url}/api/v3`;
  }

  async authorizationUrl(pending: PendingSignIn, redirectUri: string): Promise<URL> {
    return oidc.buildAuthorizationUrl(this.configuration, {
      redirect_uri: redirectUri,
      scope: 'read:user user:email',
      state: pending.state,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  async complete(callbackUrl: URL, pending: PendingSignIn): Promise<SocialProfile> {
    const tokens = await oidc.authorizationCodeGrant(this.configuration, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
    });
    const user = (await this.get(tokens.access_token, '/user')) as { id?: unknown; login?: unknown; name?: unknown };
    const emails = (await this.get(tokens.access_token, '/user/emails')) as Array<{
      email?: unknown;
      primary?: unknown;
      verified?: unknown;
    }>;
    if (typeof user.id !== 'number' && typeof user.id !== 'string')
      throw new Error('GitHub answered /user without an id');
    // Only the primary address, and only when GitHub has verified it.
    const primary = Array.isArray(emails)
      ? emails.find((entry) => entry.primary === true && typeof entry.email === 'string')
      : undefined;
    return {
      issuer: this.url,
      subject: String(user.id),
      email: (primary?.email as string | undefined) ?? '',
      emailVerified: primary?.verified === true,
      name: typeof user.name === 'string' && user.name ? user.name : typeof user.login === 'string' ? user.login : '',
    };
  }

  private async get(accessToken: string, path: string): Promise<unknown> {
    const headers = new Headers({
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'sightline',
    });
    const response = await oidc.fetchProtectedResource(
      this.configuration,
      accessToken,
      new URL(`${this.api}${path}`),
      'GET',
      undefined,
      headers,
    );
    if (!response.ok) throw new Error(`GitHub answered ${path} with HTTP ${response.status}`);
    return response.json();
  }
}
