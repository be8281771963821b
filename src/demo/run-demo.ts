/**
 * The loop of `sightline demo` (command.ts parses its options): fills a "Demo" project of a running
 * service with the shop of demo-data.ts through the real ingest routes, one batch every interval
 * until the signal aborts, or one batch with `once`; a seed makes the stream reproducible.
 *
 * Credentials, first found wins: a token (a personal access token or session token), else an
 * email and password (by default demo@example.com with a fixed demo password), signing in and,
 * when that account does not exist, registering it. The "Demo" project is created in the
 * account's first organization when missing. It talks to the service over HTTP only.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { demoBatch, seededRandom, sendDemoBatch } from './demo-data.js';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'sightline demo password';

export interface DemoOptions {
  url: string;
  token?: string;
  email: string;
  password: string;
  once: boolean;
  intervalSeconds: number;
  /** Makes the stream reproducible (ids and times still differ). */
  seed?: number;
  print: (line: string) => void;
  /** Stops the loop (and any request in flight): Ctrl-C. */
  signal?: AbortSignal;
}

/** Error codes of a connection that never reached a service (fetch's `error.cause.code`). */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/** Nothing answered at the service's URL (nothing listens, unknown host): `sightline demo` exits 69. */
export class ServiceUnreachableError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
    /** The host name did not resolve: the URL is wrong, not the service stopped. */
    readonly unknownHost: boolean,
  ) {
    super(`cannot reach ${url} (${reason})`);
  }
}

/** The network error code behind a failed fetch, looking through an AggregateError (several addresses tried). */
function networkCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: Array<{ code?: unknown }> } } | null)?.cause;
  const code = cause?.code ?? cause?.errors?.find((e) => typeof e.code === 'string')?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * fetch against the service, with the stop signal; a connection that fails becomes a
 * ServiceUnreachableError, and any other failure of fetch one line with its cause.
 */
function reach(url: string, signal: AbortSignal | undefined): typeof fetch {
  return async (input, init) => {
    try {
      return await fetch(input, { ...init, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw error;
      const code = networkCode(error);
      if (code !== undefined && code in UNREACHABLE)
        throw new ServiceUnreachableError(url, UNREACHABLE[code]!, code === 'ENOTFOUND' || code === 'EAI_AGAIN');
      const cause = (error as { cause?: { message?: unknown } }).cause?.message;
      // fetch refuses the ports browsers block (the Fetch standard's "bad port" list: 1, 6000, …).
      if (cause === 'bad port')
        throw new Error(
          `${url}: fetch refuses to connect to port ${new URL(url).port} (a port browsers block); run the service on another port`,
        );
      throw new Error(`${url}: ${(error as Error).message}${typeof cause === 'string' ? ` (${cause})` : ''}`);
    }
  };
}

async function call<T>(
  options: DemoOptions,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const response = await reach(options.url, options.signal)(new URL(path, options.url), {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  } catch {
    throw new Error(`${options.url} answered ${path} with ${response.status} and no JSON: is it a Sightline service?`);
  }
}

async function signIn(options: DemoOptions): Promise<string> {
  if (options.token) {
    options.print('using the given token');
    return options.token;
  }
  const login = await call<{ token: string }>(options, '/api/auth/login', {
    method: 'POST',
    body: { email: options.email, password: options.password },
  });
  if (login.status === 200) {
    options.print(`signed in as ${options.email}`);
    return login.body.token;
  }
  const registered = await call<{ token: string; error?: string }>(options, '/api/auth/register', {
    method: 'POST',
    body: { email: options.email, password: options.password, name: 'Demo', organizationName: 'Demo shop' },
  });
  // With the demo's own account the way out is one's own; with one's own, the account or password is wrong.
  const own = options.email !== DEMO_EMAIL || options.password !== DEMO_PASSWORD;
  if (registered.status !== 201)
    throw new Error(
      `cannot sign in as ${options.email} (${login.status}) nor register it (${registered.status}: ${registered.body?.error ?? ''}); ` +
        (own
          ? 'check --email and --password, or pass --token with a personal access token (Settings → Account)'
          : 'pass --email and --password of your own account, or --token with a personal access token (Settings → Account)'),
    );
  // The default demo password is printed so the newcomer can sign in and look; a chosen one is not.
  options.print(
    `registered ${options.email}${options.password === DEMO_PASSWORD ? ` (password: ${DEMO_PASSWORD})` : ''}`,
  );
  return registered.body.token;
}

interface ListedProject {
  id: string;
  name: string;
  token: string;
  organizationId: string;
}

/** The "Demo" project of the account, created when missing; its ingest token. */
async function demoProject(options: DemoOptions, session: string): Promise<ListedProject> {
  const listed = await call<{ projects: ListedProject[] }>(options, '/api/projects', { token: session });
  if (listed.status === 401)
    throw new Error('the service refused the token (401): pass a personal access token from Settings → Account');
  if (listed.status !== 200) throw new Error(`GET /api/projects: ${listed.status}`);
  const found = listed.body.projects.find((p) => p.name === 'Demo');
  if (found) {
    options.print(`using project Demo (${found.id})`);
    return found;
  }
  const next = listed.body.projects[0];
  if (!next) throw new Error('the account sees no project to create the Demo project next to');
  const created = await call<ListedProject & { error?: string }>(options, `/api/projects?projectId=${next.id}`, {
    method: 'POST',
    token: session,
    body: { name: 'Demo', framework: 'nodejs', organizationId: next.organizationId },
  });
  if (created.status !== 201)
    throw new Error(`creating the Demo project: ${created.status} ${created.body?.error ?? ''}`);
  options.print(`created project Demo (${created.body.id})`);
  return created.body;
}

/** Runs until the signal aborts (the abort is thrown), or returns after one batch with `once`. */
export async function runDemo(options: DemoOptions): Promise<ListedProject> {
  const session = await signIn(options);
  const project = await demoProject(options, session);
  options.print(
    `sending to ${options.url} ${options.once ? 'one batch' : `a batch every ${options.intervalSeconds} s (Ctrl-C stops)`}`,
  );
  const spanMs = options.intervalSeconds * 1000;
  const random = options.seed === undefined ? Math.random : seededRandom(options.seed);
  const post = reach(options.url, options.signal);
  // A browser session about every 30 seconds, the first batch included.
  for (let n = 0; ; n++) {
    const batch = demoBatch({
      spanMs,
      random,
      session: n % Math.max(1, Math.round(30 / options.intervalSeconds)) === 0,
    });
    await sendDemoBatch(options.url, project.token, batch, post);
    const s = batch.summary;
    options.print(
      `${new Date().toISOString()} sent ${s.calls} calls (${s.failures} failed), ${s.tasks} task runs, ${s.exceptions} exceptions, ${s.logs} logs, ${s.metrics} metrics, ${s.aiCalls} AI calls, ${s.sessions} browser sessions`,
    );
    if (options.once) return project;
    await sleep(spanMs, undefined, options.signal ? { signal: options.signal } : {});
  }
}
