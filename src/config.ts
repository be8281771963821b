/**
 * Configuration: environment variables -> one typed, validated object.
 *
 * This is the only module that reads `process.env` (through `loadConfig(env)`), so everything
 * else receives plain options. Every variable is declared once below with its default and
 * meaning; the README's configuration table is checked against this list by a test.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BUILT_IN_CATALOGUE, parsePlanCatalogue, type PlanCatalogue } from './core/plans.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const url = z.string().url();
/** Names proxy-addr (Fastify's trustProxy) knows for whole ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (entry: string): boolean => {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};
/** true/false, or the addresses and CIDR ranges of the proxies in front of the service. */
const trustProxy = z.union([
  bool,
  z
    .string()
    .transform((text) => text.split(',').map((entry) => entry.trim()))
    .refine((entries) => entries.every(isProxyAddress), {
      message:
        'expected true, false, or a comma-separated list of IP addresses, CIDR ranges, loopback, linklocal, uniquelocal',
    }),
]);
/** Where `npm install` builds the dashboard, relative to this file (src/ or a compiled copy beside it). */
const DEFAULT_WEB_DIR = fileURLToPath(new URL('../web/dist', import.meta.url));

interface VariableSpec {
  schema: z.ZodType;
  default?: string;
  description: string;
  /** A credential: its value never appears in an error message. */
  secret?: true;
}

/** Every environment variable the service reads. */
/**
 * The data folder's working folder of `sightline backup` and `restore` (chDB's backup, PGlite's
 * dump, links to the objects); emptied after each, and a crashed one's is removed at the next.
 */
export const BACKUP_STAGING_FOLDER = 'backup-staging';

export const VARIABLES = {
  PORT: {
    schema: port,
    default: '8080',
    description: 'Port of the application surface (and of ingest unless INGEST_PORT differs).',
  },
  HOST: { schema: z.string().min(1), default: '0.0.0.0', description: 'Address to listen on.' },
  INGEST_PORT: {
    schema: port,
    description: 'When set and different from PORT, the ingest routes get their own listener on this port.',
  },
  PUBLIC_URL: {
    schema: url,
    description:
      'External URL of the application surface (OAuth issuer, device verification links). Default: http://localhost:PORT.',
  },
  DATA_DIR: {
    schema: z.string().min(1),
    default: './data',
    description: 'Folder of the embedded engines (chDB, PGlite, objects) and the generated session secret.',
  },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    description: 'Log level of the JSON logs on stdout.',
  },

  CLICKHOUSE_URL: {
    schema: url,
    description:
      'ClickHouse server HTTP URL (credentials may be in the URL). Unset: embedded chDB under DATA_DIR/chdb.',
  },
  CHDB_MAX_MEMORY_MB: {
    schema: positiveInt.min(256),
    description:
      "Embedded chDB: memory the engine may hold in MB (max_server_memory_usage; a statement that would pass it fails instead of the process being killed). Unset: half of the machine's memory.",
  },
  CHDB_CACHE_MB: {
    schema: positiveInt.max(65536),
    default: '64',
    description:
      "Embedded chDB: size in MB of each of its index caches (marks, primary index, skipping-index marks); ClickHouse's own default is 5 GB each.",
  },
  CLICKHOUSE_DATABASE: {
    schema: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
    default: 'sightline',
    description: 'Telemetry database name.',
  },
  DATABASE_URL: {
    schema: url,
    description: 'PostgreSQL connection URL. Unset: embedded PGlite under DATA_DIR/pglite.',
  },
  PGLITE_SHARED_BUFFERS_MB: {
    schema: positiveInt.max(4096),
    default: '16',
    description:
      "Embedded PGlite: PostgreSQL's shared_buffers in MB. Resident once used and never returned (WebAssembly memory), so small; raise it only for a metadata database of hundreds of MB.",
  },
  S3_BUCKET: {
    schema: z.string().min(1),
    description: 'S3 bucket for objects (recordings, symbols, AI conversations). Unset: files under DATA_DIR/objects.',
  },
  S3_ENDPOINT: { schema: url, description: 'S3-compatible endpoint (MinIO, R2, ...). Unset: AWS.' },
  S3_REGION: { schema: z.string().min(1), default: 'us-east-1', description: 'S3 region.' },
  S3_ACCESS_KEY_ID: {
    schema: z.string().min(1),
    description: 'S3 access key; unset: the AWS SDK default credential chain.',
    secret: true,
  },
  S3_SECRET_ACCESS_KEY: { schema: z.string().min(1), description: 'S3 secret key.', secret: true },
  S3_FORCE_PATH_STYLE: {
    schema: bool,
    default: 'false',
    description: 'Path-style S3 addressing (needed by most self-hosted S3 servers).',
  },
  REDIS_URL: {
    schema: url,
    description: 'Redis URL for rate limits, caches and counters shared by several processes. Unset: in memory.',
  },
  REDIS_KEY_PREFIX: { schema: z.string(), default: 'sightline:', description: 'Prefix of every Redis key.' },

  SESSION_SECRET: {
    schema: z.string().min(32),
    description:
      'Secret (>= 32 chars) signing dashboard session tokens. Unset: generated once into DATA_DIR/session-secret. Required when several processes share DATABASE_URL.',
    secret: true,
  },
  SESSION_TTL_HOURS: {
    schema: positiveInt.max(24 * 90),
    default: '168',
    description: 'Life of a dashboard session token, in hours.',
  },
  REGISTRATION: {
    schema: z.enum(['open', 'first-user', 'invite-only']),
    default: 'first-user',
    description: 'Who may register: anyone, only the first user (then invitations), or invitations only.',
  },
  PASSWORD_MIN_LENGTH: { schema: positiveInt.min(8).max(128), default: '10', description: 'Minimum password length.' },
  WEB_DIR: {
    schema: z.string().min(1),
    description:
      'Folder of the built dashboard served at /. Unset: web/dist of this installation (built by npm install).',
  },
  TRUST_PROXY: {
    schema: trustProxy,
    default: 'false',
    description:
      "Take the client address from X-Forwarded-For. A list of the proxies' addresses or CIDR ranges (`127.0.0.1,10.0.0.0/8`; also loopback, linklocal, uniquelocal) takes the last address no listed proxy added; true takes the first, which a client can forge unless the proxy replaces the header.",
  },

  BODY_TIMEOUT_MS: {
    schema: positiveInt,
    default: '30000',
    description: 'A request body that has not fully arrived in this time gets 408.',
  },
  INGEST_MAX_CONCURRENCY: {
    schema: positiveInt,
    default: '64',
    description:
      'Admission gate: ingest requests processed at once; more wait up to INGEST_QUEUE_WAIT_MS then get 503.',
  },
  INGEST_QUEUE_WAIT_MS: {
    schema: z.coerce.number().int().min(0),
    default: '2000',
    description: 'How long an ingest request may wait for the admission gate.',
  },
  WRITER_MAX_ROWS: {
    schema: positiveInt,
    default: '20000',
    description: 'Group-commit writer: flush a table once this many rows are pending.',
  },
  WRITER_FLUSH_MS: {
    schema: positiveInt.max(10_000),
    default: '25',
    description: 'Group-commit writer: flush pending rows at most this long after the first arrived.',
  },
  SYMBOL_UPLOAD_CONCURRENCY: {
    schema: positiveInt.max(64),
    default: '4',
    description:
      'Symbol uploads processed at once; more wait up to SYMBOL_UPLOAD_QUEUE_WAIT_MS for a slot, then get 503.',
  },
  SYMBOL_UPLOAD_QUEUE_WAIT_MS: {
    schema: z.coerce.number().int().min(0),
    default: '30000',
    description: 'How long a symbol upload may wait for a slot.',
  },
  SYMBOL_TABLE_CACHE_MB: {
    schema: positiveInt.max(65536),
    default: '256',
    description:
      'Memory for parsed symbol lookup tables (least recently used builds are dropped; their serialized form stays in the object store).',
  },
  SOURCE_MAP_CACHE_MB: {
    schema: positiveInt.max(65536),
    default: '128',
    description:
      'Memory for decoded JavaScript source maps (least recently used maps are dropped and decoded again from the object store when needed).',
  },
  QUERY_MAX_EXECUTION_SECONDS: {
    schema: positiveInt.max(3600),
    default: '20',
    description:
      'Read API: seconds one query may run before it is stopped and the caller is told (422) to narrow the time range or add filters.',
  },
  QUERY_MAX_ROWS_TO_READ: {
    schema: positiveInt,
    default: '2000000000',
    description: 'Read API: rows one query may scan before it is stopped with the same 422.',
  },
  ROLLUP_INTERVAL_SECONDS: {
    schema: z.coerce.number().int().min(0).max(3600),
    default: '60',
    description:
      'How often the hourly endpoint rollup rolls the hours due (ended 10 minutes ago, or marked by late rows since their last roll); 0 turns the job off (reads then use the raw tables).',
  },
  METRICS_TOKEN: {
    schema: z.string().min(16).max(4096).regex(/^\S+$/, 'must not contain whitespace'),
    description:
      'Turns on GET /metrics (Prometheus) on every listener, answering only `Authorization: Bearer <METRICS_TOKEN>` (at least 16 characters). Unset: there is no /metrics.',
    secret: true,
  },
  ALERTS_INTERVAL_SECONDS: {
    schema: z.coerce.number().int().min(0).max(3600),
    default: '15',
    description:
      'How often the alert job looks for rules due (each rule is evaluated once a minute) and notifications due; 0 turns it off on this process.',
  },
  ALERTS_ALLOW_PRIVATE_TARGETS: {
    schema: bool,
    default: 'false',
    description:
      'Let alert webhooks and Slack URLs reach loopback, private and link-local addresses (receivers on your own network). Off: such targets are refused after DNS resolution.',
  },
  PROJECT_CACHE_TTL_MS: {
    schema: positiveInt,
    default: '10000',
    description:
      'Project-token cache life: a rotated or deleted token stops working on every process within this time (at once on the process that rotated it).',
  },

  PLANS_FILE: {
    schema: z.string().min(1),
    description:
      'JSON plan catalogue (plans, their seven limits, prices, Stripe price ids, defaultPlan). Unset: one built-in "self-hosted" plan with generous limits.',
  },
  STRIPE_SECRET_KEY: {
    schema: z.string().regex(/^(sk|rk)_/, 'must be a Stripe secret or restricted key (sk_... or rk_...)'),
    description:
      'Stripe secret key; with STRIPE_WEBHOOK_SECRET it turns on checkout, the customer portal and subscription webhooks. Unset: billing is not configured.',
    secret: true,
  },
  STRIPE_WEBHOOK_SECRET: {
    schema: z.string().regex(/^whsec_/, 'must be a Stripe webhook signing secret (whsec_...)'),
    description: 'Signing secret of the Stripe webhook endpoint POST /api/billing/stripe/webhook.',
    secret: true,
  },
  STRIPE_API_URL: {
    schema: url,
    default: 'https://api.stripe.com',
    description: 'Stripe API base URL; change only to reach stripe-mock or an egress proxy.',
  },

  SMTP_URL: {
    schema: url.regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL'),
    description:
      'Outgoing mail server as a nodemailer connection URL (smtp://user:pass@host:587 upgrades with STARTTLS, smtps://...:465 is TLS from the start). Unset: no mail is sent, and password reset is not available.',
  },
  MAIL_FROM: {
    schema: z.string().min(3).max(320),
    description: 'Sender of the mail the service sends. Default: Sightline <no-reply@host of PUBLIC_URL>.',
  },
  PASSWORD_RESET_TTL_MINUTES: {
    schema: positiveInt.max(24 * 60),
    default: '30',
    description: 'Life of a password reset link, in minutes (single use; a newer request replaces it).',
  },
  OIDC_ISSUER: {
    schema: url,
    description:
      'Issuer URL of an OpenID Connect provider for single sign-on (discovery at ISSUER/.well-known/openid-configuration); https unless on loopback. With OIDC_CLIENT_ID it turns on the provider `oidc`.',
  },
  OIDC_CLIENT_ID: {
    schema: z.string().min(1),
    description: 'Client id registered at OIDC_ISSUER (redirect URI PUBLIC_URL/api/auth/oauth/oidc/callback).',
  },
  OIDC_CLIENT_SECRET: {
    schema: z.string().min(1),
    description: 'Client secret at OIDC_ISSUER; unset: a public client (PKCE only).',
    secret: true,
  },
  OIDC_NAME: {
    schema: z.string().min(1).max(100),
    default: 'Single sign-on',
    description: 'Name of the OIDC provider on the sign-in page.',
  },
  GOOGLE_CLIENT_ID: {
    schema: z.string().min(1),
    description:
      'Google OAuth client id; with GOOGLE_CLIENT_SECRET it turns on "Sign in with Google" (redirect URI PUBLIC_URL/api/auth/oauth/google/callback).',
  },
  GOOGLE_CLIENT_SECRET: { schema: z.string().min(1), description: 'Google OAuth client secret.', secret: true },
  GITHUB_CLIENT_ID: {
    schema: z.string().min(1),
    description:
      'GitHub OAuth app client id; with GITHUB_CLIENT_SECRET it turns on "Sign in with GitHub" (callback URL PUBLIC_URL/api/auth/oauth/github/callback).',
  },
  GITHUB_CLIENT_SECRET: { schema: z.string().min(1), description: 'GitHub OAuth app client secret.', secret: true },
  GITHUB_URL: {
    schema: url,
    default: 'https://github.com',
    description:
      'GitHub web URL; set it to a GitHub Enterprise Server URL to sign in there (its API is then GITHUB_URL/api/v3).',
  },
} satisfies Record<string, VariableSpec>;

export type VariableName = keyof typeof VARIABLES;

export interface Config {
  port: number;
  host: string;
  ingestPort: number | null;
  publicUrl: string;
  dataDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  telemetry:
    | {
        kind: 'chdb';
        path: string;
        database: string;
        maxMemoryMb: number | null;
        cacheMb: number;
        /** Staging folder of `sightline backup` and `restore`, the only one chDB may back up into. */
        backupDir: string;
      }
    | { kind: 'clickhouse-http'; url: string; database: string };
  meta: { kind: 'pglite'; path: string; sharedBuffersMb: number } | { kind: 'postgres'; url: string };
  objects:
    | { kind: 'fs'; root: string }
    | {
        kind: 's3';
        bucket: string;
        endpoint?: string;
        region: string;
        accessKeyId?: string;
        secretAccessKey?: string;
        forcePathStyle: boolean;
      };
  coord: { kind: 'memory' } | { kind: 'redis'; url: string; keyPrefix: string };
  auth: {
    sessionSecret: string | null;
    sessionTtlHours: number;
    registration: 'open' | 'first-user' | 'invite-only';
    passwordMinLength: number;
  };
  /** Fastify's trustProxy: all proxies (true), none, or the listed addresses and ranges. */
  trustProxy: boolean | string[];
  /** The built dashboard (web/dist unless WEB_DIR says otherwise). */
  webDir: string;
  bodyTimeoutMs: number;
  ingest: { maxConcurrency: number; queueWaitMs: number };
  symbolUploads: { maxConcurrency: number; queueWaitMs: number };
  symbolTableCacheBytes: number;
  sourceMapCacheBytes: number;
  writer: { maxRows: number; flushMs: number };
  projectCacheTtlMs: number;
  /** Bearer token of GET /metrics; null: no /metrics route. */
  metricsToken: string | null;
  /** Interval of the rollup job; 0 = off. */
  rollupIntervalMs: number;
  /** The alert job: interval (0 = off on this process) and whether private targets are allowed. */
  alerts: { intervalMs: number; allowPrivateTargets: boolean };
  /** Bounds of every read API query (QUERY_*). */
  queryLimits: { maxExecutionSeconds: number; maxRowsToRead: number };
  billing: {
    catalogue: PlanCatalogue;
    stripe: { secretKey: string; webhookSecret: string; apiUrl: string } | null;
  };
  /** Outgoing mail; `smtpUrl` null when no mail server is configured. */
  mail: { smtpUrl: string | null; from: string };
  passwordResetTtlMinutes: number;
  /** Social sign-in providers; null when not configured. */
  oauth: {
    oidc: { issuer: string; clientId: string; clientSecret: string | null; name: string } | null;
    google: { clientId: string; clientSecret: string } | null;
    github: { clientId: string; clientSecret: string; url: string } | null;
  };
}

type Specs = typeof VARIABLES;
type Defaulted = { [K in VariableName]: Specs[K] extends { default: string } ? K : never }[VariableName];
/**
 * The validated variables, typed from their schemas: what each schema outputs, present when the
 * variable has a default, optional otherwise. loadConfig fills it from the declarations above.
 */
type Values = { [K in Defaulted]: z.output<Specs[K]['schema']> } & {
  [K in Exclude<VariableName, Defaulted>]?: z.output<Specs[K]['schema']>;
};

/** Reads and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(VARIABLES) as [VariableName, VariableSpec][]) {
    const raw = env[name] === '' ? undefined : (env[name] ?? spec.default);
    if (raw === undefined) continue;
    const parsed = spec.schema.safeParse(raw);
    if (parsed.success) values[name] = parsed.data;
    else problems.push(`${shownValue(name, raw)}: ${describeIssue(parsed.error)} (${spec.description})`);
  }
  const onlyOneS3Key = (values.S3_ACCESS_KEY_ID === undefined) !== (values.S3_SECRET_ACCESS_KEY === undefined);
  if (onlyOneS3Key) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  const onlyOneStripeKey = (values.STRIPE_SECRET_KEY === undefined) !== (values.STRIPE_WEBHOOK_SECRET === undefined);
  if (onlyOneStripeKey) problems.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together');
  problems.push(...signInProblems(values));
  // Node's recursive mkdir never returns on these (a parent exists, mkdir answers ENOENT): the
  // start hung at full CPU instead of failing.
  const kernelFolder = /^\/(proc|sys)(\/|$)/.exec(path.resolve(String(values.DATA_DIR ?? '.')));
  if (kernelFolder)
    problems.push(
      `DATA_DIR=${String(values.DATA_DIR)}: under /${kernelFolder[1]}, a kernel file system that cannot hold files; choose a folder on a disk (${VARIABLES.DATA_DIR.description})`,
    );
  // Embedded chDB reads its staged inserts with file('<DATA_DIR>/chdb/.../*.rowbinary'), where
  // these characters are patterns, not names (ClickHouse has no escape for them).
  const patternCharacter = /[*?{}]/.exec(path.resolve(String(values.DATA_DIR ?? '.')));
  if (patternCharacter && values.CLICKHOUSE_URL === undefined)
    problems.push(
      `DATA_DIR=${String(values.DATA_DIR)}: the embedded telemetry engine cannot use a folder whose path has ${patternCharacter[0]} in it (one of * ? { }, which it reads as file name patterns); choose another folder`,
    );
  const catalogue =
    values.PLANS_FILE === undefined ? BUILT_IN_CATALOGUE : readPlanCatalogue(values.PLANS_FILE as string, problems);
  if (problems.length > 0 || catalogue === null)
    throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);

  const v = values as Values;
  const dataDir = path.resolve(v.DATA_DIR);
  return {
    port: v.PORT,
    host: v.HOST,
    ingestPort: v.INGEST_PORT !== undefined && v.INGEST_PORT !== v.PORT ? v.INGEST_PORT : null,
    publicUrl: (v.PUBLIC_URL ?? `http://localhost:${v.PORT}`).replace(/\/+$/, ''),
    dataDir,
    logLevel: v.LOG_LEVEL,
    telemetry: v.CLICKHOUSE_URL
      ? { kind: 'clickhouse-http', url: v.CLICKHOUSE_URL, database: v.CLICKHOUSE_DATABASE }
      : {
          kind: 'chdb',
          path: path.join(dataDir, 'chdb'),
          database: v.CLICKHOUSE_DATABASE,
          maxMemoryMb: v.CHDB_MAX_MEMORY_MB ?? null,
          cacheMb: v.CHDB_CACHE_MB,
          backupDir: path.join(dataDir, BACKUP_STAGING_FOLDER),
        },
    meta: v.DATABASE_URL
      ? { kind: 'postgres', url: v.DATABASE_URL }
      : { kind: 'pglite', path: path.join(dataDir, 'pglite'), sharedBuffersMb: v.PGLITE_SHARED_BUFFERS_MB },
    objects: v.S3_BUCKET
      ? {
          kind: 's3',
          bucket: v.S3_BUCKET,
          endpoint: v.S3_ENDPOINT,
          region: v.S3_REGION,
          accessKeyId: v.S3_ACCESS_KEY_ID,
          secretAccessKey: v.S3_SECRET_ACCESS_KEY,
          forcePathStyle: v.S3_FORCE_PATH_STYLE,
        }
      : { kind: 'fs', root: path.join(dataDir, 'objects') },
    coord: v.REDIS_URL ? { kind: 'redis', url: v.REDIS_URL, keyPrefix: v.REDIS_KEY_PREFIX } : { kind: 'memory' },
    auth: {
      sessionSecret: v.SESSION_SECRET ?? null,
      sessionTtlHours: v.SESSION_TTL_HOURS,
      registration: v.REGISTRATION,
      passwordMinLength: v.PASSWORD_MIN_LENGTH,
    },
    trustProxy: v.TRUST_PROXY,
    webDir: v.WEB_DIR === undefined ? DEFAULT_WEB_DIR : path.resolve(v.WEB_DIR),
    bodyTimeoutMs: v.BODY_TIMEOUT_MS,
    ingest: { maxConcurrency: v.INGEST_MAX_CONCURRENCY, queueWaitMs: v.INGEST_QUEUE_WAIT_MS },
    symbolUploads: { maxConcurrency: v.SYMBOL_UPLOAD_CONCURRENCY, queueWaitMs: v.SYMBOL_UPLOAD_QUEUE_WAIT_MS },
    symbolTableCacheBytes: v.SYMBOL_TABLE_CACHE_MB * 1024 * 1024,
    sourceMapCacheBytes: v.SOURCE_MAP_CACHE_MB * 1024 * 1024,
    writer: { maxRows: v.WRITER_MAX_ROWS, flushMs: v.WRITER_FLUSH_MS },
    projectCacheTtlMs: v.PROJECT_CACHE_TTL_MS,
    metricsToken: v.METRICS_TOKEN ?? null,
    rollupIntervalMs: v.ROLLUP_INTERVAL_SECONDS * 1000,
    alerts: { intervalMs: v.ALERTS_INTERVAL_SECONDS * 1000, allowPrivateTargets: v.ALERTS_ALLOW_PRIVATE_TARGETS },
    queryLimits: { maxExecutionSeconds: v.QUERY_MAX_EXECUTION_SECONDS, maxRowsToRead: v.QUERY_MAX_ROWS_TO_READ },
    billing: {
      catalogue,
      stripe:
        v.STRIPE_SECRET_KEY && v.STRIPE_WEBHOOK_SECRET
          ? { secretKey: v.STRIPE_SECRET_KEY, webhookSecret: v.STRIPE_WEBHOOK_SECRET, apiUrl: v.STRIPE_API_URL }
          : null,
    },
    mail: {
      smtpUrl: v.SMTP_URL ?? null,
      from: v.MAIL_FROM ?? `Sightline <no-reply@${new URL(v.PUBLIC_URL ?? 'http://localhost').hostname}>`,
    },
    passwordResetTtlMinutes: v.PASSWORD_RESET_TTL_MINUTES,
    oauth: {
      oidc:
        v.OIDC_ISSUER && v.OIDC_CLIENT_ID
          ? {
              issuer: v.OIDC_ISSUER,
              clientId: v.OIDC_CLIENT_ID,
              clientSecret: v.OIDC_CLIENT_SECRET ?? null,
              name: v.OIDC_NAME,
            }
          : null,
      google:
        v.GOOGLE_CLIENT_ID && v.GOOGLE_CLIENT_SECRET
          ? { clientId: v.GOOGLE_CLIENT_ID, clientSecret: v.GOOGLE_CLIENT_SECRET }
          : null,
      github:
        v.GITHUB_CLIENT_ID && v.GITHUB_CLIENT_SECRET
          ? {
              clientId: v.GITHUB_CLIENT_ID,
              clientSecret: v.GITHUB_CLIENT_SECRET,
              url: v.GITHUB_URL.replace(/\/+$/, ''),
            }
          : null,
    },
  };
}

/**
 * Social sign-in settings that only make sense together, and provider URLs that must be https:
 * plain http is accepted only on a loopback address (a provider run by a test or on this host).
 */
function signInProblems(values: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const pairs: Array<[string, string]> = [
    ['OIDC_ISSUER', 'OIDC_CLIENT_ID'],
    ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
    ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
  ];
  for (const [a, b] of pairs)
    if ((values[a] === undefined) !== (values[b] === undefined)) problems.push(`${a} and ${b} must be set together`);
  if (values.OIDC_CLIENT_SECRET !== undefined && values.OIDC_ISSUER === undefined)
    problems.push('OIDC_CLIENT_SECRET needs OIDC_ISSUER and OIDC_CLIENT_ID');
  for (const name of ['OIDC_ISSUER', 'GITHUB_URL']) {
    const value = values[name];
    if (typeof value === 'string' && !isHttpsOrLoopbackHttp(value))
      problems.push(`${shownValue(name, value)}: must be an https URL (http only on a loopback address)`);
  }
  return problems;
}

/** https anywhere, or http on a loopback address (127.0.0.0/8, ::1, localhost). */
export function isHttpsOrLoopbackHttp(value: string): boolean {
  const parsed = new URL(value);
  return parsed.protocol === 'https:' || isLoopbackHttp(parsed);
}

export function isLoopbackHttp(url: URL): boolean {
  return (
    url.protocol === 'http:' &&
    (url.hostname === 'localhost' || url.hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(url.hostname))
  );
}

/** The catalogue of PLANS_FILE, or null with a problem added when it is unreadable or invalid. */
function readPlanCatalogue(file: string, problems: string[]): PlanCatalogue | null {
  const absolute = path.resolve(file);
  // In words, with the path read (a relative one is the working directory's, which under a
  // supervisor is rarely the one meant); before: Node's "ENOENT: no such file or directory, open".
  const where = absolute === file ? '' : ` (read as ${absolute}: a relative path is from the working directory)`;
  let text: string;
  try {
    text = fs.readFileSync(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : code === 'EACCES'
            ? 'not readable by this user'
            : (error as Error).message;
    problems.push(`${shownValue('PLANS_FILE', file)}: ${reason}${where}`);
    return null;
  }
  try {
    return parsePlanCatalogue(JSON.parse(text));
  } catch (error) {
    const reason = error instanceof SyntaxError ? `not valid JSON: ${error.message}` : (error as Error).message;
    problems.push(`${shownValue('PLANS_FILE', file)}: ${reason}${where}`);
    return null;
  }
}

/**
 * `NAME="value"` for an error message, without what must not reach logs: a secret variable's
 * value, and a URL's credentials (`scheme://user:password@host` -> `scheme://***@host`, also for
 * values too malformed to parse, so everything up to the last `@` goes).
 */
export function shownValue(name: string, value: string): string {
  if ((VARIABLES as Record<string, VariableSpec>)[name]?.secret) return `${name} (value hidden)`;
  const at = value.lastIndexOf('@');
  if (at < 0) return `${name}=${JSON.stringify(value)}`;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0];
  // Without a scheme, `user:password@host` still has a colon before the `@`; an e-mail address has none.
  const hidden =
    scheme !== undefined
      ? `${scheme}***${value.slice(at)}`
      : value.slice(0, at).includes(':')
        ? `***${value.slice(at)}`
        : value;
  return `${name}=${JSON.stringify(hidden)}`;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid value';
  // In words an operator reads, not the validation library's ("expected number, received NaN").
  switch (issue.code) {
    case 'invalid_value':
      return `must be one of ${issue.values.join(', ')}`;
    case 'invalid_type':
      if (issue.expected === 'int') return 'must be a whole number';
      return issue.expected === 'number' ? 'must be a number' : issue.message;
    case 'too_small':
      return `must be ${issue.inclusive ? 'at least' : 'more than'} ${issue.minimum}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'too_big':
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'must be a URL' : issue.message;
    default:
      return issue.message;
  }
}
