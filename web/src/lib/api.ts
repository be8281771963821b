/**
 * The one API client of the dashboard: generated types (packages/api-client) for paths, query
 * parameters and bodies, the session token on every call, and a 401 anywhere sending the person
 * to /login (and back afterwards).
 */
import { createApiClient, type Middleware } from '@sightline/api-client';
import { errorMessage } from './error-message';
import { clearSession, sessionToken } from './session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let unauthorized: () => void = () => {};

/** Set once by the router: what to do when a signed-in call comes back 401. */
export function onUnauthorized(handler: () => void): void {
  unauthorized = handler;
}

const session: Middleware = {
  onRequest({ request }) {
    const token = sessionToken();
    if (token !== null) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ request, response }) {
    // A 401 to a call that carried a token: the session ended (expired, revoked). A 401 without
    // one is a wrong password on /login, which that page shows itself.
    if (response.status === 401 && request.headers.has('authorization')) {
      clearSession();
      unauthorized();
    }
    return response;
  },
};

export const api = createApiClient({ baseUrl: '' });
api.use(session);

/**
 * The data of a call, or an ApiError with the server's message (DASHBOARD.md §1.7). The caller
 * names the type it reads: the generated answer type (lib/types.ts Answer) where the route declares one.
 */
export async function read<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, errorMessage(response.status, error));
  return data as T;
}
