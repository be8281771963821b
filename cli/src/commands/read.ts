/** projects, issues, endpoints, tasks, logs, traces, metrics, ai-traces. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { FRAMEWORKS } from '@sightline/api-client';
import {
  byIdOrName,
  findProject,
  listOrganizations,
  listProjects,
  traceIdOf,
  type Context,
  type Organization,
} from '../context.js';
import { CliError, EXIT, quoted, usageError } from '../errors.js';
import { printDetail, printRows, streamedTable, type DetailView, type Row } from '../output.js';
import {
  AGGREGATIONS,
  FREE_TEXT_LIMIT_MS,
  ISSUE_HASH,
  LOG_COLUMNS,
  listAiTraces,
  listEndpoints,
  listIssues,
  listMetrics,
  listTasks,
  logRow,
  queryLogs,
  queryMetrics,
  searchLogs,
  searchOnly,
  showEndpoint,
  showIssue,
  showTrace,
  type Aggregation,
  type LogFilters,
  type ListQuery,
  type LogItem,
} from '../queries.js';
import type { Session } from '../session.js';
import { MAX_RANGE_MS, parseDuration, rangeMs, resolveRange, type TimeRange } from '../time-range.js';
import { updateStore } from '../store.js';
import {
  action,
  choice,
  commandGroup,
  pageFrom,
  pageOptions,
  positiveInt,
  refuseFields,
  timeOptions,
  withoutHint,
  withExamples,
  type PageFlags,
  type TimeFlags,
} from './shared.js';

/** A resource read as a ranked list (`<name> list`) and, for some, one item (`<name> show`). */
interface RankedResource {
  name: string;
  description: string;
  example: string;
  list: { description: string; searchHelp: string; query: ListQuery; example: string };
  show?: ShowSpec;
}

const ISSUES: RankedResource = {
  name: 'issues',
  description: 'errors grouped by stack trace',
  example: 'sightline-cli issues list --since 7d',
  list: {
    description: 'issues seen in the range, latest first',
    searchHelp: 'text in the title or stack trace',
    query: listIssues,
    example: 'sightline-cli issues list --since 7d',
  },
  show: {
    argument: ['<hash>', 'the issue hash (first column of `issues list`)'],
    description:
      'an issue: title, status, count, first and last seen, top in-app frame, stack trace and latest occurrences',
    defaultSince: '7d',
    limit: { help: 'occurrences to show', default: 10, max: 500 },
    query: showIssue,
    example: 'sightline-cli issues show 3f2a9c1d0b4e5f67',
    argumentOf(hash) {
      if (!ISSUE_HASH.test(hash))
        throw usageError(
          `"${hash}" is not an issue hash`,
          'an issue hash is 16 hex characters, the first column of `sightline-cli issues list`',
        );
      // The service keys issues by the lower-case spelling; a hash copied in upper case is the same issue.
      return hash.toLowerCase();
    },
  },
};

const ENDPOINTS: RankedResource = {
  name: 'endpoints',
  description: 'inbound HTTP endpoints',
  example: 'sightline-cli endpoints list --since 1h',
  list: {
    description: 'endpoints ranked by impact',
    searchHelp: 'text in the name',
    query: listEndpoints,
    example: 'sightline-cli endpoints list --since 1h -o json',
  },
  show: {
    argument: ['<name>', 'endpoint name, "METHOD /route"'],
    description: 'latency, errors, slowest and failing calls of one endpoint',
    defaultSince: '24h',
    limit: { help: 'slowest and failing calls to show', default: 5, max: 100 },
    query: showEndpoint,
    example: 'sightline-cli endpoints show "POST /api/checkout" --since 24h',
  },
};

const TASKS: RankedResource = {
  name: 'tasks',
  description: 'background tasks and scheduled jobs',
  example: 'sightline-cli tasks list',
  list: {
    description: 'tasks ranked by count × (P95 − P50)',
    searchHelp: 'text in the name',
    query: listTasks,
    example: 'sightline-cli tasks list --since 7d',
  },
};

const AI_TRACES: RankedResource = {
  name: 'ai-traces',
  description: 'LLM calls with tokens and costs',
  example: 'sightline-cli ai-traces list --since 7d',
  list: {
    description: 'LLM calls ranked by total cost',
    searchHelp: 'text in the name',
    query: listAiTraces,
    example: 'sightline-cli ai-traces list --since 7d --fields name,model,totalCost',
  },
};

export function readCommands(program: Command): void {
  projectCommands(program);
  for (const resource of [ISSUES, ENDPOINTS, TASKS]) rankedCommands(program, resource);
  logCommands(program);

  const traces = commandGroup(program, 'traces', 'span waterfalls', 'sightline-cli traces show <id>');
  withExamples(
    traces
      .command('show')
      .argument('<id>', 'endpoint, task or AI trace id: a UUID, or the 32 hex digits logs carry')
      .description('the span waterfall of one trace')
      .action(
        action(async (context, _options, args) => {
          refuseFields(context, 'traces show');
          const id = traceIdOf(String(args[0]));
          const { session, projectId } = await scope(context);
          printDetail(await showTrace(session, projectId, id), context.output);
        }),
      ),
    'sightline-cli traces show 0f8e2d4c-1b6a-4c3e-9d7f-2a5b8c1e6d40',
    'sightline-cli traces show edae9535b3694b03ad9cfa8ecb923f54   # as `logs query` prints it',
  );

  const metrics = commandGroup(
    program,
    'metrics',
    'metric names and their values over time',
    'sightline-cli metrics list',
    'sightline-cli metrics query http.server.active_requests',
  );
  withExamples(
    timeOptions(
      metrics
        .command('list')
        .description(
          'metric names with points in the range: points, last point and dimension keys (values in -o json)',
        ),
    ).action(
      action<TimeFlags>(async (context, options) => {
        const range = resolveRange(options);
        const { session, projectId } = await scope(context);
        printRows(await listMetrics(session, projectId, range), context.output);
      }),
    ),
    'sightline-cli metrics list --since 7d',
    'sightline-cli metrics list -o json --fields name,dimensions',
  );
  withExamples(
    timeOptions(
      metrics
        .command('query')
        .argument('<name>', 'metric name (see `metrics list`)')
        .description('one metric per time bucket, optionally grouped by dimensions'),
      '1h',
    )
      .addOption(choice('--aggregation <aggregation>', AGGREGATIONS).default('avg'))
      .option('--group-by <keys>', 'comma-separated dimension keys (or serverName)')
      .option('--bucket <seconds>', 'bucket length in seconds (default: chosen from the range)')
      .action(
        action<TimeFlags & { aggregation: Aggregation; groupBy?: string; bucket?: string }>(
          async (context, options, args) => {
            refuseFields(context, 'metrics query');
            const name = String(args[0]);
            if (name.trim() === '' || name.length > 500)
              throw usageError(`"${name}" is not a metric name`, 'see `sightline-cli metrics list` for the names');
            const range = resolveRange(options, '1h');
            const groupBy = options.groupBy
              ?.split(',')
              .map((key) => key.trim())
              .filter((key) => key !== '');
            if (groupBy && groupBy.length > MAX_GROUP_BY)
              throw usageError(`--group-by takes at most ${MAX_GROUP_BY} keys, not ${groupBy.length}`);
            const bucketSeconds = options.bucket === undefined ? undefined : bucketOf(options.bucket, range);
            const { session, projectId } = await scope(context);
            const result = await queryMetrics(session, projectId, range, {
              name,
              aggregation: options.aggregation,
              groupBy,
              bucketSeconds,
            });
            printDetail(result.detail, context.output);
            // Exit 0 as any query that finds nothing (`logs query`); the name may be misspelt, so say where the names are.
            if (!result.hasPoints)
              process.stderr.write(
                `note: no points of metric "${String(args[0])}" in the range — \`sightline-cli metrics list\` shows the names with points (widen the range with --since)\n`,
              );
          },
        ),
      ),
    'sightline-cli metrics query http.server.active_requests --aggregation max --group-by serverName --since 6h',
  );

  rankedCommands(program, AI_TRACES);
}

/** `<name>` with its `list` and, when it has one, `show` command. */
function rankedCommands(program: Command, resource: RankedResource): void {
  const group = commandGroup(program, resource.name, resource.description, resource.example);
  listCommand(group, resource.list);
  if (resource.show) showCommand(group, resource.show);
}

/** `<group> list`: a ranked list with the time, paging and search options. */
function listCommand(group: Command, spec: RankedResource['list']): void {
  withExamples(
    pageOptions(
      timeOptions(group.command('list').description(spec.description).option('--search <text>', spec.searchHelp)),
    ).action(
      action<TimeFlags & PageFlags & { search?: string }>(async (context, options) => {
        const range = resolveRange(options);
        const page = pageFrom(options);
        checkSearch(options.search);
        const { session, projectId } = await scope(context);
        printRows(await spec.query(session, projectId, range, { ...page, search: options.search }), context.output);
      }),
    ),
    spec.example,
  );
}

interface ShowSpec {
  argument: [name: string, help: string];
  description: string;
  defaultSince: string;
  limit: { help: string; default: number; max: number };
  query: (session: Session, projectId: string, id: string, range: TimeRange, limit: number) => Promise<DetailView>;
  example: string;
  /**
   * The argument as the service takes it; refuses one that cannot name an item (a usage error)
   * before anything is asked of the service.
   */
  argumentOf?: (value: string) => string;
}

/** `<group> show <argument>`: one item's detail over a time range, with at most `--limit` of the calls or occurrences it lists. */
function showCommand(group: Command, spec: ShowSpec): void {
  withExamples(
    timeOptions(
      group
        .command('show')
        .argument(...spec.argument)
        .description(spec.description),
      spec.defaultSince,
    )
      .option('--limit <n>', spec.limit.help, String(spec.limit.default))
      .action(
        action<TimeFlags & { limit: string }>(async (context, options, args) => {
          refuseFields(context, `${group.name()} show`);
          const range = resolveRange(options, spec.defaultSince);
          const limit = positiveInt(options.limit, '--limit', spec.limit.max);
          const argument = spec.argumentOf ? spec.argumentOf(String(args[0])) : String(args[0]);
          const { session, projectId } = await scope(context);
          printDetail(await spec.query(session, projectId, argument, range, limit), context.output);
        }),
      ),
    spec.example,
  );
}

/**
 * The session and the project of a command: the first thing asked of the service (and the sign-in
 * the first thing checked), so a command calls it only once every argument and flag is checked.
 */
async function scope(context: Context): Promise<{ session: Session; projectId: string }> {
  const session = context.session();
  return { session, projectId: await context.projectId(session) };
}

/** The service's limit on free text (`search`, maxLength 500). */
const MAX_SEARCH = 500;

function checkSearch(search: string | undefined): void {
  if (search !== undefined && search.length > MAX_SEARCH)
    throw usageError(`--search is longer than ${MAX_SEARCH} characters`);
}

/** The service's limits on metrics query (src/api/telemetry/metrics.ts): groupBy keys, bucketSeconds, buckets per range. */
const MAX_GROUP_BY = 5;
const MIN_BUCKET_SECONDS = 10;
const MAX_BUCKET_SECONDS = 86_400;
const MAX_BUCKETS = 2000;

function bucketOf(text: string, range: TimeRange): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < MIN_BUCKET_SECONDS || value > MAX_BUCKET_SECONDS)
    throw usageError(
      `--bucket must be a whole number of seconds from ${MIN_BUCKET_SECONDS} to ${MAX_BUCKET_SECONDS} (1 day), not "${text}"`,
      'or leave it out: the bucket is then chosen from the range',
    );
  const seconds = rangeMs(range) / 1000;
  if (seconds / value > MAX_BUCKETS)
    throw usageError(
      `--bucket ${value} gives more than ${MAX_BUCKETS} buckets over the range`,
      `use --bucket ${Math.max(MIN_BUCKET_SECONDS, Math.ceil(seconds / MAX_BUCKETS))} or more, or a shorter range`,
    );
  return value;
}

function projectCommands(program: Command): void {
  const projects = commandGroup(
    program,
    'projects',
    'your projects and the default one',
    'sightline-cli projects list',
  );
  withExamples(
    projects
      .command('list')
      .description('projects you can reach')
      .action(
        action(async (context) => {
          const session = context.session();
          const current = context.profile()?.projectId;
          const rows = (await listProjects(session)).map((project) => ({
            ...project,
            default: project.id === current,
          }));
          printRows({ rows, columns: ['id', 'name', 'framework', 'role', 'default'] }, context.output);
        }),
      ),
    'sightline-cli projects list',
  );
  withExamples(
    projects
      .command('use')
      .argument('<project>', 'project id or name')
      .description("make a project the profile's default")
      .action(
        action(async (context, _options, args) => {
          refuseFields(context, 'projects use');
          const project = await findProject(context.session(), String(args[0]));
          await updateStore((store) => {
            const profile = store.profiles[context.profileName];
            if (!profile) throw new CliError(`no profile named "${context.profileName}"`, EXIT.notFound);
            profile.projectId = project.id;
            profile.projectName = project.name;
          });
          printDetail(
            {
              json: { profile: context.profileName, project: { id: project.id, name: project.name } },
              text: `Default project of profile ${context.profileName}: ${project.name} (${project.id}).`,
            },
            context.output,
          );
        }),
      ),
    'sightline-cli projects use Shop',
  );
  withExamples(
    projects
      .command('create')
      .argument('<name>', 'project name')
      // Checked in the action, not by commander's requiredOption: that one is reported before a missing <name>.
      .usage('[options] <name> --framework <framework>')
      .option('--framework <framework>', `(required) the project's framework: ${FRAMEWORKS.join(', ')}`)
      .option(
        '--organization <id|name>',
        'organization id or name (needed when you write to several; see `sightline-cli organizations list`)',
      )
      .option('--use', "also make it the profile's default project (your first project is anyway)")
      .description('create a project, your first one too, in the organization you write to (or --organization)')
      .action(
        action<{ framework?: string; organization?: string; use?: boolean }>(async (context, options, args) => {
          const framework = options.framework;
          if (framework === undefined)
            throw usageError('--framework is required', `the project's framework, one of ${FRAMEWORKS.join(', ')}`);
          refuseFields(context, 'projects create');
          const session = context.session();
          const organizations = await listOrganizations(session);
          const organizationId =
            options.organization === undefined
              ? onlyWritableOrganization(organizations)
              : byIdOrName(organizations, options.organization, 'organization').id;
          // The spec's form names an existing project (any of the caller's: the body names the organization);
          // a person without one leaves it out, a documented extension of the route.
          const existing = (await listProjects(session))[0];
          const name = String(args[0]);
          const created = await session
            .call((api) =>
              api.POST('/api/projects', {
                params: { query: existing ? { projectId: existing.id } : {} },
                body: { name, framework, organizationId },
              }),
            )
            .catch((error: unknown) => {
              throw refusedInput(error, { name, framework });
            });
          // A person's first project becomes the default, as login makes a person's only project the default.
          const makeDefault = options.use === true || existing === undefined;
          if (makeDefault) {
            await updateStore((store) => {
              const profile = store.profiles[context.profileName];
              if (profile) Object.assign(profile, { projectId: created.id, projectName: created.name });
            });
          }
          printDetail(
            {
              json: {
                id: created.id,
                name: created.name,
                framework: created.framework,
                organizationId: created.organizationId,
              },
              text: `Created project ${created.name} (${created.id}), framework ${created.framework}.${makeDefault ? ' It is now the default.' : ''}`,
            },
            context.output,
          );
        }),
      ),
    'sightline-cli projects create "Shop API" --framework nodejs --use',
    'sightline-cli projects create Checkout --framework go --organization "Acme Labs"',
  );
}

/**
 * The service's 422 for a bad name or framework is a usage error (exit 2) naming the argument; its
 * 403 says why (the role, a suspension) on its own; any other failure is itself.
 */
function refusedInput(error: unknown, given: { name: string; framework: string }): unknown {
  if (!(error instanceof CliError)) return error;
  if (error.status === 403) return withoutHint(error);
  if (error.status !== 422) return error;
  if (error.message.startsWith('framework must be'))
    return usageError(`--framework ${quoted(given.framework)} refused: ${error.message}`);
  if (error.message.startsWith('name must be'))
    return usageError(`project name ${quoted(given.name)} refused: ${error.message}`);
  return error;
}

/**
 * The organization a project goes to without --organization: the only one the caller writes to. A
 * person who writes to none but belongs to one is sent there, so the service says why not (their role,
 * or a suspension).
 */
function onlyWritableOrganization(organizations: Organization[]): string {
  const writable = organizations.filter(
    (organization) => organization.role === 'admin' || organization.role === 'write',
  );
  const candidates = writable.length > 0 ? writable : organizations;
  if (candidates.length === 1) return candidates[0]!.id;
  if (candidates.length === 0)
    throw new CliError(
      'you belong to no organization',
      EXIT.apiError,
      'start one with `sightline-cli organizations create <name>`',
    );
  if (writable.length === 0)
    throw new CliError('you cannot create projects in any of your organizations (needs the write role)', EXIT.apiError);
  throw usageError(
    'you write to several organizations',
    `pass --organization <id|name>: ${writable.map((o) => `${o.id} (${o.name})`).join(', ')}`,
  );
}

interface LogFlags extends TimeFlags {
  service?: string;
  minSeverity?: string;
  traceId?: string;
  search?: string;
  attribute?: string[];
}

const SEVERITIES: Record<string, number> = { trace: 1, debug: 5, info: 9, warn: 13, error: 17, fatal: 21 };

/** The filters of `logs query` and `logs tail`, every one checked (usage errors) before anything is asked of the service. */
function logFilters(flags: LogFlags): LogFilters {
  let minSeverity: number | undefined;
  if (flags.minSeverity !== undefined) {
    minSeverity = SEVERITIES[flags.minSeverity.toLowerCase()] ?? Number(flags.minSeverity);
    if (!Number.isInteger(minSeverity) || minSeverity < 1 || minSeverity > 24)
      throw usageError(
        `--min-severity "${flags.minSeverity}" is not a severity`,
        'use info, warn, error or a number 1-24',
      );
  }
  for (const pair of flags.attribute ?? [])
    if (pair.indexOf('=') <= 0) throw usageError(`--attribute "${pair}" is not key=value`);
  checkSearch(flags.search);
  return {
    service: flags.service,
    minSeverity,
    traceId: flags.traceId === undefined ? undefined : traceIdOf(flags.traceId),
    search: flags.search,
    attributes: flags.attribute,
  };
}

/** The longest range a log search with these filters may cover; a longer one is a usage error naming the flags. */
function checkLogRange(filters: LogFilters, ms: number, narrower: string): void {
  if (searchOnly(filters) && ms > FREE_TEXT_LIMIT_MS)
    throw usageError(
      '--search over more than 24 hours needs another filter: --service, --min-severity, --trace-id or --attribute',
      `or search 24 hours at most (${narrower})`,
    );
}

function logFilterOptions(command: Command): Command {
  return command
    .option('--service <name>', 'service name')
    .option('--min-severity <level>', 'info, warn, error, or an OpenTelemetry severity number')
    .option('--trace-id <id>', 'logs of one trace (a UUID or 32 hex digits)')
    .option('--search <text>', 'text in the body (over more than 24 h it needs another filter)')
    .option('--attribute <key=value>', 'attribute filter, repeatable', (value: string, previous: string[] = []) => [
      ...previous,
      value,
    ]);
}

/** The fields of a log row (logRow), the ones `--fields` may pick. */
const LOG_FIELDS = Object.keys(logRow({} as LogItem));

/** The fields `logs tail` prints: --fields (each one checked) or the table's columns; JSON lines carry every field unless picked. */
function tailFields(context: Context): string[] | undefined {
  const fields = context.output.fields;
  if (!fields) return undefined;
  const unknown = fields.filter((field) => !LOG_FIELDS.includes(field));
  if (unknown.length > 0)
    throw usageError(`unknown field ${unknown.join(', ')}`, `fields here: ${LOG_FIELDS.join(', ')}`);
  return fields;
}

function logCommands(program: Command): void {
  const logs = commandGroup(program, 'logs', 'log search and tail', 'sightline-cli logs tail --min-severity warn');
  withExamples(
    pageOptions(
      timeOptions(logFilterOptions(logs.command('query').description('search logs, newest first')), '1h'),
      100,
    ).action(
      action<LogFlags & PageFlags>(async (context, options) => {
        const range = resolveRange(options, '1h');
        const filters = logFilters(options);
        checkLogRange(filters, rangeMs(range), '--since 24h, or --from/--to');
        const page = pageFrom(options);
        const { session, projectId } = await scope(context);
        printRows(await queryLogs(session, projectId, range, filters, page), context.output);
      }),
    ),
    'sightline-cli logs query --service shop --min-severity error --since 24h',
    'sightline-cli logs query --search "timeout" --attribute http.route=/api/checkout',
  );
  withExamples(
    logFilterOptions(
      logs
        .command('tail')
        .summary('follow new logs until Ctrl-C')
        .description(
          'follow new logs until Ctrl-C; with -o json (or into a pipe) JSON lines: one object a line, as each log arrives, not an array',
        ),
    )
      .option('--since <duration>', 'show logs from this far back first', '1m')
      .option('--interval <seconds>', 'seconds between polls', '2')
      .action(
        action<LogFlags & { interval: string }>(async (context, options) => {
          const fields = tailFields(context);
          const filters = logFilters(options);
          const sinceMs = parseDuration(options.since ?? '1m');
          checkLogRange(filters, sinceMs, '--since 24h');
          const intervalSeconds = positiveInt(options.interval, '--interval', 3600);
          const { session, projectId } = await scope(context);
          await tailLogs(context, session, projectId, { filters, fields, sinceMs, intervalSeconds });
        }),
      ),
    'sightline-cli logs tail --min-severity warn',
    'sightline-cli logs tail -o json --fields timestamp,service,body',
  );
}

/** Logs can land a little after their timestamp (batching, clock skew): each poll after the first re-reads this much. */
const TAIL_OVERLAP_MS = 15_000;
/** How far past now each poll reads: records stamped by a clock a little ahead of ours. */
const TAIL_AHEAD_MS = 60_000;

/**
 * A log record's identity: the fields of the service's dedup key (logDedupKey in
 * src/ingest/otlp/convert-logs.ts). A re-sent record is another copy under the same key, with its
 * own observedTimestamp (and maybe resource attributes), and the API answers either copy until the
 * store merges them: those fields are left out, so each record prints once.
 */
function logKey(item: LogItem): string {
  const attributes = Object.entries(item.attributes ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([
    item.timestamp,
    item.severityNumber,
    item.traceId,
    item.spanId,
    item.serviceName,
    attributes,
    item.body,
  ]);
}

async function tailLogs(
  context: Context,
  session: Session,
  projectId: string,
  tail: { filters: LogFilters; fields: string[] | undefined; sinceMs: number; intervalSeconds: number },
): Promise<void> {
  const { filters, fields } = tail;
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  /** Nothing older than --since is printed: every poll starts at or after this. */
  const start = Date.now() - tail.sinceMs;
  /** How long one poll may read: the service's longest range for these filters (a bare --search: 24 h). */
  const longest = searchOnly(filters) ? FREE_TEXT_LIMIT_MS : MAX_RANGE_MS;
  /** The time of the newest record printed (--since before the first). */
  let cursor = start;
  let first = true;
  /** Records already printed, by identity, with their time (pruned once behind the overlap). */
  const printed = new Map<string, number>();
  /** On a terminal, the titles come with the first record. */
  let table: ReturnType<typeof streamedTable> | undefined;
  const print = (item: LogItem) => {
    const row: Row = logRow(item);
    if (context.output.format === 'json') {
      const picked = fields ? Object.fromEntries(fields.map((field) => [field, row[field] ?? null])) : row;
      process.stdout.write(`${JSON.stringify(picked)}\n`);
      return;
    }
    if (!table) {
      table = streamedTable(fields ?? LOG_COLUMNS);
      process.stdout.write(`${table.header}\n`);
    }
    process.stdout.write(`${table.line(row)}\n`);
  };
  try {
    while (!stop.signal.aborted) {
      const aheadMs = Date.now() + TAIL_AHEAD_MS;
      // The first poll starts exactly at --since (cut short at the longest range); later ones re-read
      // the overlap, never before --since, and a quiet tail's polls never grow past the longest range.
      const fromMs = first ? start : Math.max(start, cursor - TAIL_OVERLAP_MS, aheadMs - longest);
      const range = {
        fromDate: new Date(fromMs).toISOString(),
        toDate: new Date(Math.min(aheadMs, fromMs + longest)).toISOString(),
      };
      for (let page = 1; !stop.signal.aborted; page++) {
        const answer = await searchLogs(session, projectId, range, filters, { page, pageSize: 500, order: 'asc' });
        for (const item of answer.items) {
          const key = logKey(item);
          if (printed.has(key)) continue;
          const at = item.timestamp ? Date.parse(item.timestamp) : cursor;
          printed.set(key, at);
          cursor = Math.max(cursor, at);
          print(item);
        }
        if (!answer.hasMore) break;
      }
      first = false;
      for (const [key, at] of printed) if (at < cursor - 2 * TAIL_OVERLAP_MS) printed.delete(key);
      await sleep(tail.intervalSeconds * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
