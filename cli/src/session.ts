/**
 * A signed-in profile: the typed API client with the profile's credential on every call. A device
 * login's access token is refreshed shortly before it expires and once more on a 401; the rotated
 * pair is saved under the store lock, so concurrent CLI processes share one rotation.
 */
import { createApiClient, type ApiClient } from '@sightline/api-client';
import { CliError, EXIT, deadDefaultProject, notSignedIn } from './errors.js';
import { fetchOrExplain, refusal } from './http.js';
import { refreshTokens, type TokenAnswer } from './oauth.js';
import { readStore, withLock, writeStore, type Credentials, type DeviceCredentials } from './store.js';

/** Refresh this long before the access token's end, so a call never starts with a dying token. */
const REFRESH_MARGIN_MS = 60_000;

/** What openapi-fetch answers, loosely: data on success, error otherwise, always the response. */
interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export function deviceCredentialsFrom(tokens: TokenAnswer): DeviceCredentials {
  return {
    kind: 'device',
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    accessTokenExpiresAt: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
  };
}

export class Session {
  readonly api: ApiClient;

  constructor(
    readonly profileName: string,
    readonly baseUrl: string,
    private credentials: Credentials,
    /** The profile's default project, to explain a refusal of it (deleted, or access lost). */
    private readonly defaultProject?: { id: string; name?: string },
  ) {
    this.api = createApiClient({
      baseUrl: baseUrl.replace(/\/+$/, ''),
      fetch: (request: Request) => fetchOrExplain(request),
    });
    this.api.use({
      onRequest: ({ request }) => {
        request.headers.set('authorization', `Bearer ${this.bearer()}`);
        return request;
      },
    });
  }

  get kind(): Credentials['kind'] {
    return this.credentials.kind;
  }

  private bearer(): string {
    return this.credentials.kind === 'device' ? this.credentials.accessToken : this.credentials.token;
  }

  /** Sends a typed call and returns its data; a refusal becomes a CliError. */
  async call<T>(send: (api: ApiClient) => Promise<CallResult<T>>): Promise<T> {
    const result = await this.send(send);
    if (result.data === undefined) throw new CliError('the service answered without a body', EXIT.apiError);
    return result.data;
  }

  private async send<T>(send: (api: ApiClient) => Promise<CallResult<T>>): Promise<CallResult<T>> {
    await this.refreshIfExpiring();
    let result = await send(this.api);
    if (result.response.status === 401 && this.credentials.kind === 'device') {
      await this.refresh(this.credentials.accessToken);
      result = await send(this.api);
    }
    if (!result.response.ok) {
      const refused = refusal(result.response, result.error);
      throw (await this.defaultProjectGone(result.response, refused)) ?? refused;
    }
    return result;
  }

  /**
   * The profile's default project is used unchecked (checked when it was chosen), so a refusal of a
   * request for it may mean it was deleted or the person lost access: the service answers both with
   * its plain 403 `Access denied` (not revealing whether it exists). Only then are the person's
   * projects read, and if it is not among them the error says so. A refusal giving a reason of its
   * own (a suspended organization, a role) stands, as does any refusal of a project still theirs.
   */
  private async defaultProjectGone(response: Response, refused: CliError): Promise<CliError | null> {
    const plainRefusal = response.status === 404 || (response.status === 403 && refused.message === 'Access denied');
    if (!this.defaultProject || !plainRefusal) return null;
    const asked = new URL(response.url).searchParams.get('projectId')?.toLowerCase();
    if (asked !== this.defaultProject.id.toLowerCase()) return null;
    const { projects } = await this.call((api) => api.GET('/api/projects'));
    if (projects.some((project) => project.id === asked)) return null;
    return deadDefaultProject(this.profileName, this.defaultProject, response.status);
  }

  private async refreshIfExpiring(): Promise<void> {
    const credentials = this.credentials;
    if (credentials.kind !== 'device') return;
    if (Date.parse(credentials.accessTokenExpiresAt) - Date.now() > REFRESH_MARGIN_MS) return;
    await this.refresh(credentials.accessToken);
  }

  /**
   * Replaces `staleAccessToken`. Under the lock the file is read again: another process may have
   * rotated the pair already, and then its result is used instead of spending a refresh token that
   * is no longer current (which the service would treat as theft and revoke the login).
   */
  private async refresh(staleAccessToken: string): Promise<void> {
    this.credentials = await withLock(async () => {
      const store = readStore();
      const profile = store.profiles[this.profileName];
      const stored = profile?.credentials;
      if (!profile || !stored) throw notSignedIn('signed out (the profile has no credentials any more)');
      if (stored.kind !== 'device') return stored;
      const rotatedElsewhere = stored.accessToken !== staleAccessToken;
      if (rotatedElsewhere && Date.parse(stored.accessTokenExpiresAt) - Date.now() > REFRESH_MARGIN_MS) return stored;
      try {
        const renewed = deviceCredentialsFrom(await refreshTokens(this.baseUrl, stored.refreshToken));
        profile.credentials = renewed;
        writeStore(store);
        return renewed;
      } catch (error) {
        // The login is over (revoked, reused, expired): forget it, keep the profile's URL and project.
        if (error instanceof CliError && error.exitCode === EXIT.notSignedIn) {
          delete profile.credentials;
          writeStore(store);
        }
        throw error;
      }
    });
  }
}
