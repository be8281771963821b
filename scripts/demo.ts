/**
 * `npm run demo [-- --url http://localhost:8080] [--once] [--interval 5]`: fills a "Demo" project
 * of a running service with the shop of scripts/demo-data.ts through the real ingest routes, one
 * batch every interval (Ctrl-C stops), or one batch with --once; --seed makes the stream reproducible.
 *
 * Credentials, first found wins: --token / SIGHTLINE_TOKEN (a personal access token or session
 * token), else --email and --password (SIGHTLINE_DEMO_EMAIL, SIGHTLINE_DEMO_PASSWORD; by default
 * demo@example.com with a fixed demo password), signing in and, when that account does not
 * exist, registering it. The "Demo" project is created in the account's first organization when
 * missing.
 */
import { parseArgs } from 'node:util';
import { demoBatch, seededRandom, sendDemoBatch } from './demo-data.js';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'sightline demo password';

interface Options {
  url: string;
  token?: string;
  email: string;
  password: string;
  once: boolean;
  intervalSeconds: number;
  /** Makes the stream reproducible (ids and times still differ). */
  seed?: number;
  print: (line: string) => void;
}

async function call<T>(
  url: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, url), {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

async function signIn(options: Options): Promise<string> {
  if (options.token) {
    options.print('using the given token');
    return options.token;
  }
  const login = await call<{ token: string }>(options.url, '/api/auth/login', {
    method: 'POST',
    body: { email: options.email, password: options.password },
  });
  if (login.status === 200) {
    options.print(`signed in as ${options.email}`);
    return login.body.token;
  }
  const registered = await call<{ token: string; error?: string }>(options.url, '/api/auth/register', {
    method: 'POST',
    body: { email: options.email, password: options.password, name: 'Demo', organizationName: 'Demo shop' },
  });
  if (registered.status !== 201)
    throw new Error(
      `cannot sign in as ${options.email} (${login.status}) nor register it (${registered.status}: ${registered.body?.error ?? ''}); pass --token or --email/--password`,
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
export async function demoProject(options: Options, session: string): Promise<ListedProject> {
  const listed = await call<{ projects: ListedProject[] }>(options.url, '/api/projects', { token: session });
  if (listed.status !== 200) throw new Error(`GET /api/projects: ${listed.status}`);
  const found = listed.body.projects.find((p) => p.name === 'Demo');
  if (found) {
    options.print(`using project Demo (${found.id})`);
    return found;
  }
  const next = listed.body.projects[0];
  if (!next) throw new Error('the account sees no project to create the Demo project next to');
  const created = await call<ListedProject & { error?: string }>(options.url, `/api/projects?projectId=${next.id}`, {
    method: 'POST',
    token: session,
    body: { name: 'Demo', framework: 'nodejs', organizationId: next.organizationId },
  });
  if (created.status !== 201)
    throw new Error(`creating the Demo project: ${created.status} ${created.body?.error ?? ''}`);
  options.print(`created project Demo (${created.body.id})`);
  return created.body;
}

export async function runDemo(options: Options): Promise<ListedProject> {
  const session = await signIn(options);
  const project = await demoProject(options, session);
  options.print(
    `sending to ${options.url} ${options.once ? 'one batch' : `a batch every ${options.intervalSeconds} s (Ctrl-C stops)`}`,
  );
  const spanMs = options.intervalSeconds * 1000;
  const random = options.seed === undefined ? Math.random : seededRandom(options.seed);
  // A browser session about every 30 seconds, the first batch included.
  for (let n = 0; ; n++) {
    const batch = demoBatch({
      spanMs,
      random,
      session: n % Math.max(1, Math.round(30 / options.intervalSeconds)) === 0,
    });
    await sendDemoBatch(options.url, project.token, batch);
    const s = batch.summary;
    options.print(
      `${new Date().toISOString()} sent ${s.calls} calls (${s.failures} failed), ${s.tasks} task runs, ${s.exceptions} exceptions, ${s.logs} logs, ${s.metrics} metrics, ${s.aiCalls} AI calls, ${s.sessions} browser sessions`,
    );
    if (options.once) return project;
    await new Promise((resolve) => setTimeout(resolve, spanMs));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: process.env.SIGHTLINE_URL ?? 'http://localhost:8080' },
      token: { type: 'string', default: process.env.SIGHTLINE_TOKEN },
      email: { type: 'string', default: process.env.SIGHTLINE_DEMO_EMAIL ?? DEMO_EMAIL },
      password: { type: 'string', default: process.env.SIGHTLINE_DEMO_PASSWORD ?? DEMO_PASSWORD },
      once: { type: 'boolean', default: false },
      interval: { type: 'string', default: '5' },
      seed: { type: 'string' },
    },
  });
  const intervalSeconds = Number(values.interval);
  if (!(intervalSeconds >= 1)) throw new Error('--interval is a number of seconds, at least 1');
  await runDemo({
    url: values.url,
    ...(values.token ? { token: values.token } : {}),
    email: values.email,
    password: values.password,
    once: values.once,
    intervalSeconds,
    ...(values.seed ? { seed: Number(values.seed) } : {}),
    print: (line) => console.log(line),
  }).catch((error: Error) => {
    console.error(`demo: ${error.message}`);
    process.exit(1);
  });
}
