/**
 * `sightline demo [options]`: its options (parsed strictly; main.ts hands in the environment's
 * defaults, as only main.ts and config.ts read process.env), its usage, and its exit codes:
 * 0 after one batch with --once or when Ctrl-C stops the loop, 64 a bad option (one line and the
 * usage on stderr), 78 a SIGHTLINE_URL that is not a URL (one line), 69 the service cannot be
 * reached, 1 refused credentials or any other failure (one line on stderr).
 */
import { parseArgs } from 'node:util';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoOptions, runDemo, ServiceUnreachableError } from './run-demo.js';

export const DEMO_USAGE = `usage: sightline demo [options]

Sends a small shop's telemetry (endpoints, background tasks, exceptions, logs, metrics, AI calls,
browser sessions) through the real ingest routes of a running service into a project named "Demo",
one batch every interval until Ctrl-C stops it (exit 0). The account is registered and the project
created when missing.

options:
  --url URL            the service (default: SIGHTLINE_URL, else http://localhost:8080)
  --token TOKEN        a personal access token or session token (default: SIGHTLINE_TOKEN)
  --email EMAIL        the account to sign in as, else to register (default: SIGHTLINE_DEMO_EMAIL,
                       else ${DEMO_EMAIL})
  --password PASSWORD  its password (default: SIGHTLINE_DEMO_PASSWORD, else a fixed demo password)
  --once               send one batch and exit
  --interval SECONDS   seconds between batches, 1 to 86400 (default: 5)
  --seed N             a whole number: makes the stream reproducible
  -h, --help           show this text

exit codes: 0 done or stopped, 64 a bad option, 78 SIGHTLINE_URL is not a URL, 69 the service
cannot be reached, 1 refused
`;

/** The environment's defaults, read by main.ts (SIGHTLINE_URL, SIGHTLINE_TOKEN, SIGHTLINE_DEMO_EMAIL, SIGHTLINE_DEMO_PASSWORD). */
export interface DemoEnvironment {
  url?: string | undefined;
  token?: string | undefined;
  email?: string | undefined;
  password?: string | undefined;
}

/** A bad option or value: one line saying what is wrong (exit 64). */
export class DemoUsageError extends Error {}

/** A bad value in the environment, which the usage would not help with: one line (exit 78, as `serve`). */
export class DemoConfigError extends Error {}

export type DemoSettings = Omit<DemoOptions, 'print' | 'signal'>;

const MAX_INTERVAL_SECONDS = 86_400;

/** One line for parseArgs's refusals, whose messages run over several lines and sentences. */
function usageProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message ?? String(error);
  const option = /'(-[^' ]*)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const argument = /'([^']*)'/.exec(message)?.[1];
    return `unexpected argument "${argument}" (options start with --)`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (message.includes('does not take an argument')) return `${option} takes no value`;
    if (message.includes('ambiguous')) return `${option} needs a value (one starting with - is written ${option}=-...)`;
    return `${option} needs a value`;
  }
  return message.split('\n')[0]!;
}

/** The options of `sightline demo` (argv after `demo`), or 'help'; throws DemoUsageError. */
export function parseDemoArgs(argv: string[], env: DemoEnvironment): DemoSettings | 'help' {
  let values: {
    url?: string;
    token?: string;
    email?: string;
    password?: string;
    once?: boolean;
    interval?: string;
    seed?: string;
    help?: boolean;
  };
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        once: { type: 'boolean' },
        interval: { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new DemoUsageError(usageProblem(error));
  }
  if (values.help) return 'help';

  // An empty variable counts as unset.
  const [url, urlFrom] =
    values.url !== undefined ? [values.url, '--url'] : [env.url || 'http://localhost:8080', 'SIGHTLINE_URL'];
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    const problem = `${urlFrom} "${url}" is not an http:// or https:// URL`;
    throw urlFrom === '--url' ? new DemoUsageError(problem) : new DemoConfigError(problem);
  }

  const interval = values.interval ?? '5';
  const intervalSeconds = Number(interval);
  if (!(intervalSeconds >= 1 && intervalSeconds <= MAX_INTERVAL_SECONDS))
    throw new DemoUsageError(`--interval is a number of seconds from 1 to ${MAX_INTERVAL_SECONDS} (got "${interval}")`);

  let seed: number | undefined;
  if (values.seed !== undefined) {
    seed = Number(values.seed);
    if (!/^-?\d+$/.test(values.seed) || !Number.isSafeInteger(seed))
      throw new DemoUsageError(`--seed is a whole number (got "${values.seed}")`);
  }

  const token = values.token ?? env.token;
  return {
    url,
    ...(token ? { token } : {}),
    email: values.email ?? (env.email || DEMO_EMAIL),
    password: values.password ?? (env.password || DEMO_PASSWORD),
    once: values.once ?? false,
    intervalSeconds,
    ...(seed === undefined ? {} : { seed }),
  };
}

/** Runs `sightline demo` with argv after `demo`; the exit code. */
export async function demoCommand(argv: string[], env: DemoEnvironment): Promise<number> {
  let settings: DemoSettings | 'help';
  try {
    settings = parseDemoArgs(argv, env);
  } catch (error) {
    if (error instanceof DemoConfigError) {
      process.stderr.write(`sightline demo: ${error.message}\n`);
      return 78; // EX_CONFIG
    }
    if (!(error instanceof DemoUsageError)) throw error;
    process.stderr.write(`sightline demo: ${error.message}\n\n${DEMO_USAGE}`);
    return 64; // EX_USAGE
  }
  if (settings === 'help') {
    process.stdout.write(DEMO_USAGE);
    return 0;
  }

  // Ctrl-C, or a supervisor's SIGTERM, aborts the wait and any request in flight; a second one
  // ends the process at once (the default).
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigint);
  try {
    await runDemo({ ...settings, print: (line) => process.stdout.write(`${line}\n`), signal: stop.signal });
    return 0;
  } catch (error) {
    if (stop.signal.aborted) {
      process.stdout.write('stopped\n');
      return 0;
    }
    if (error instanceof ServiceUnreachableError) {
      const advice = error.unknownHost
        ? 'check the host name in --url (or SIGHTLINE_URL)'
        : 'start it with `npm start` (or `sightline serve`), or pass --url';
      process.stderr.write(`sightline demo: cannot reach the service at ${error.url} (${error.reason}): ${advice}\n`);
      return 69; // EX_UNAVAILABLE
    }
    process.stderr.write(`sightline demo: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}
