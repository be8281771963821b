/** HTTP failures as CliErrors with the exit codes of DASHBOARD.md §5. */
import { CliError, EXIT, notSignedIn } from './errors.js';

/** fetch, with "cannot connect" turned into exit code 3 naming the address. */
export async function fetchOrExplain(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (error) {
    throw cannotConnect(requestUrl(input), error);
  }
}

function requestUrl(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

export function cannotConnect(url: string, error: unknown): CliError {
  // fetch reports "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, bad port...) is its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const reason =
    cause instanceof Error
      ? 'code' in cause && typeof cause.code === 'string'
        ? cause.code
        : cause.message
      : String(cause);
  return new CliError(
    `cannot connect to ${new URL(url).origin} (${reason})`,
    EXIT.cannotConnect,
    'check --url and that the service is running',
  );
}

/** The server's message: `{error}` on the API, RFC 6749 `error_description` on the token routes. */
export function serverMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const fields = body as Record<string, unknown>;
  if (typeof fields.error_description === 'string') return fields.error_description;
  if (typeof fields.error === 'string') return fields.error;
  return null;
}

/** The CliError for a refused request. */
export function refusal(response: Response, body: unknown): CliError {
  const status = response.status;
  const message = serverMessage(body);
  if (status === 401)
    return notSignedIn(
      message ?? 'the service refused the credentials (401): not signed in, or the token expired or was revoked',
      undefined,
      status,
    );
  if (status === 404) return new CliError(message ?? 'not found', EXIT.notFound, undefined, status);
  if (status === 429) {
    const retryAfter = response.headers.get('retry-after');
    // The service's message may already say how long to wait; the hint then adds nothing new.
    const hint = retryAfter ? `wait ${retryAfter} s and try again` : 'wait a minute and try again';
    return new CliError(
      message ?? 'rate limited (429)',
      EXIT.rateLimited,
      message && /try again/i.test(message) ? undefined : hint,
      status,
    );
  }
  if (status === 403)
    return new CliError(
      message ?? 'access denied (403)',
      EXIT.apiError,
      'check the project and your role in its organization',
      status,
    );
  if (status === 422) return new CliError(message ?? 'refused (422)', EXIT.apiError, undefined, status);
  return new CliError(
    message ? `${message} (${status})` : `the service answered ${status}`,
    EXIT.apiError,
    undefined,
    status,
  );
}

/** Reads a JSON body; an empty or non-JSON body is null. */
export async function jsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
