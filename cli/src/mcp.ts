/**
 * `sightline-cli mcp`: a Model Context Protocol server on stdio whose tools are the read commands,
 * signed in with the stored credentials of the profile. Answers are the commands' terminal text
 * (tables, the waterfall): concise for a model, and the same as a person sees; the notes and hints
 * in them name tools and their parameters, not the CLI's commands and flags.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listProjects, traceIdOf, type Context } from './context.js';
import { CliError, EXIT, usageError } from './errors.js';
import { renderTable, type DetailView, type RowsView } from './output.js';
import {
  AGGREGATIONS,
  FREE_TEXT_LIMIT_MS,
  ISSUE_HASH,
  listAiTraces,
  listEndpoints,
  listIssues,
  listMetrics,
  listTasks,
  queryLogs,
  queryMetrics,
  searchOnly,
  showEndpoint,
  showIssue,
  showTrace,
  type ListQuery,
  type Terms,
} from './queries.js';
import { resolveRange, type TimeOptions, type TimeRange } from './time-range.js';

const project = z.string().optional().describe("project id or name; default: the profile's default project");
const since = z
  .string()
  .optional()
  .describe('how far back from to (default now): 30m, 1h, 24h, 7d (at most 31d); not with from');
const from = z
  .string()
  .optional()
  .describe('start of the range, ISO 8601, UTC without a zone as the tables show times (instead of since)');
const to = z
  .string()
  .optional()
  .describe('end of the range, ISO 8601, UTC without a zone (default now); since counts back from it');
const limit = z.number().int().min(1).max(200).optional().describe('rows to return (default 25)');
const page = z
  .number()
  .int()
  .min(1)
  .max(1_000_000)
  .optional()
  .describe('page number, of `limit` rows each (default 1); a list with more rows ends saying which page is next');
/** The service's limit on free text and names (maxLength 500). */
const MAX_TEXT = 500;
const search = z.string().max(MAX_TEXT).optional().describe('text to look for');

/** The hints of the shared queries in this server's terms: tools and their parameters. */
const TOOL_TERMS: Terms = {
  showTrace: 'show_trace with the id',
  listIssues: 'list_issues',
  listEndpoints: 'list_endpoints',
  widerRange: 'a longer since, e.g. "30d"',
};

/** The note under a list with more rows: the same tool again with the next page. */
const moreNoteOf =
  (tool: string) =>
  (nextPage: number): string =>
    `more rows: call ${tool} again with page ${nextPage} (and the same other arguments)`;

const TRACE_ID_HINT =
  'a trace id is a UUID (8-4-4-4-12) or 32 hex digits: an id of show_endpoint or list_ai_traces, or a traceId of search_logs';

export async function serveMcp(context: Context): Promise<void> {
  const server = new McpServer({ name: 'sightline', version: SIGHTLINE_CLI_VERSION });
  const session = () => context.session();
  const projectOf = async (explicit: string | undefined) => {
    try {
      return await context.projectId(session(), explicit);
    } catch (error) {
      throw projectErrorInToolTerms(error);
    }
  };
  const pageOf = (args: { page?: number; limit?: number }) => ({ page: args.page ?? 1, pageSize: args.limit ?? 25 });
  const listTool = (name: string, description: string, query: ListQuery) =>
    server.registerTool(
      name,
      { description, inputSchema: { project, since, from, to, search, limit, page } },
      answer(async (args) => {
        const range = rangeOf(args, '24h');
        return query(session(), await projectOf(args.project), range, {
          ...pageOf(args),
          search: args.search,
          moreNote: moreNoteOf(name),
        });
      }),
    );

  server.registerTool(
    'list_projects',
    { description: 'Projects the signed-in user can read (id, name, framework, role).', inputSchema: {} },
    answer(async () => ({
      rows: (await listProjects(session())).map((p) => ({ ...p })),
      columns: ['id', 'name', 'framework', 'role'],
    })),
  );
  listTool(
    'list_issues',
    'Errors grouped by stack trace (issues), latest first, with counts and the endpoint or task they happened in.',
    listIssues,
  );
  server.registerTool(
    'show_issue',
    {
      description:
        'One issue by its hash (from list_issues): title, status, count, first and last seen, top in-app frame, stack trace and latest occurrences.',
      inputSchema: {
        hash: z.string().describe('issue hash: 16 hex digits, the hash column of list_issues'),
        project,
        since,
        from,
        to,
      },
    },
    answer(async (args) => {
      // As `issues show` does: a hash the service could not match is refused before asking it.
      if (!ISSUE_HASH.test(args.hash))
        throw usageError(
          `hash "${args.hash}" is not an issue hash`,
          'an issue hash is 16 hex digits (0-9, a-f), the hash column of list_issues',
        );
      const range = rangeOf(args, '7d');
      // The service keys issues by the lower-case spelling.
      return showIssue(session(), await projectOf(args.project), args.hash.toLowerCase(), range, 10, TOOL_TERMS);
    }),
  );
  listTool(
    'list_endpoints',
    'Inbound HTTP endpoints ranked by impact, with request counts, P50/P95/P99 latency, error rate and Apdex.',
    listEndpoints,
  );
  server.registerTool(
    'show_endpoint',
    {
      description:
        'One endpoint ("METHOD /route"): latency percentiles, errors, and its slowest and failing calls (trace ids).',
      inputSchema: {
        name: z
          .string()
          .min(1)
          .describe('endpoint name, e.g. "POST /api/checkout" (the name column of list_endpoints)'),
        project,
        since,
        from,
        to,
      },
    },
    answer(async (args) => {
      const range = rangeOf(args, '24h');
      return showEndpoint(session(), await projectOf(args.project), args.name, range, 5, TOOL_TERMS);
    }),
  );
  listTool(
    'list_tasks',
    'Background tasks and scheduled jobs with counts, failures and latency percentiles.',
    listTasks,
  );
  server.registerTool(
    'show_trace',
    {
      description: 'The span waterfall of one endpoint call, task run or AI call, by its id.',
      inputSchema: {
        id: z
          .string()
          .describe(
            'trace id: a UUID (an entity id from show_endpoint or list_ai_traces) or the 32 hex digits logs carry',
          ),
        project,
      },
    },
    answer(async (args) => {
      const id = traceIdOfParameter('id', args.id);
      return showTrace(session(), await projectOf(args.project), id);
    }),
  );
  server.registerTool(
    'search_logs',
    {
      description:
        'Log records, newest first, filtered by service, minimum severity (9 INFO, 13 WARN, 17 ERROR), trace id or body text.',
      inputSchema: {
        project,
        since,
        from,
        to,
        limit,
        page,
        service: z.string().optional().describe('service name'),
        minSeverity: z.number().int().min(1).max(24).optional().describe('OpenTelemetry severity number'),
        traceId: z.string().optional().describe('logs of one trace: a UUID or 32 hex digits'),
        search: z
          .string()
          .max(MAX_TEXT)
          .optional()
          .describe('text in the body; over more than 24 h it needs another filter'),
      },
    },
    answer(async (args) => {
      const range = rangeOf(args, '1h');
      const traceId = args.traceId === undefined ? undefined : traceIdOfParameter('traceId', args.traceId);
      const filters = { service: args.service, minSeverity: args.minSeverity, traceId, search: args.search };
      if (searchOnly(filters) && Date.parse(range.toDate) - Date.parse(range.fromDate) > FREE_TEXT_LIMIT_MS)
        throw usageError(
          'search over more than 24 hours needs another filter',
          'add service, minSeverity or traceId, or narrow the range to 24h at most',
        );
      return queryLogs(session(), await projectOf(args.project), range, filters, {
        ...pageOf(args),
        moreNote: moreNoteOf('search_logs'),
      });
    }),
  );
  server.registerTool(
    'list_metrics',
    {
      description: 'Metric names with points in the range, their point count, last point and dimension keys.',
      inputSchema: { project, since, from, to },
    },
    answer(async (args) => {
      const range = rangeOf(args, '24h');
      return listMetrics(session(), await projectOf(args.project), range);
    }),
  );
  server.registerTool(
    'query_metrics',
    {
      description: 'One metric aggregated per time bucket, optionally grouped by dimension keys.',
      inputSchema: {
        name: z.string().trim().min(1).max(MAX_TEXT).describe('metric name (see list_metrics)'),
        aggregation: z
          .enum(AGGREGATIONS as [string, ...string[]])
          .optional()
          .describe('default avg'),
        groupBy: z
          .array(z.string().trim().min(1).max(MAX_TEXT))
          .max(5)
          .optional()
          .describe('up to 5 dimension keys, or serverName'),
        project,
        since,
        from,
        to,
      },
    },
    answer(async (args) => {
      const aggregation = AGGREGATIONS.find((value) => value === args.aggregation);
      const range = rangeOf(args, '1h');
      const result = await queryMetrics(session(), await projectOf(args.project), range, {
        name: args.name,
        aggregation,
        groupBy: args.groupBy,
      });
      // The CLI says this on stderr; here it is part of the answer.
      if (!result.hasPoints)
        return {
          ...result.detail,
          text: `${result.detail.text}\nnote: no points of metric "${args.name}" in the range; list_metrics shows the names with points (or widen the range with since)`,
        };
      return result.detail;
    }),
  );
  listTool('list_ai_traces', 'LLM calls ranked by total cost, with model, tokens, cost and duration.', listAiTraces);

  // An MCP host stops a stdio server by closing its stdin. The transport does not notice (it only
  // reads), so the end of stdin is watched here: the requests already read are answered, then the
  // server closes and the command returns (exit 0).
  const inputEnded = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const allAnswered = trackRequests(transport);
  await inputEnded;
  await allAnswered();
  await server.close();
}

/**
 * Counts the requests the client sent that are still to be answered (a cancelled one needs no answer);
 * the function returned resolves once none is. Wraps the transport after the server connected it.
 */
function trackRequests(transport: Transport): () => Promise<void> {
  const pending = new Set<RequestId>();
  let whenIdle: (() => void) | undefined;
  const settle = () => {
    if (pending.size === 0) whenIdle?.();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) pending.add(message.id);
    else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const requestId = message.params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') pending.delete(requestId);
    }
    receive?.(message, extra);
    settle();
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      pending.delete(message.id);
      settle();
    }
  };
  return () =>
    new Promise<void>((resolve) => {
      whenIdle = resolve;
      settle();
    });
}

/** since/from/to as the API's range; a refused one is told in the tool's terms: parameter names, not the CLI's flags. */
function rangeOf(args: TimeOptions, defaultSince: string): TimeRange {
  try {
    return resolveRange(args, defaultSince);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    const asParameters = (text: string) => text.replace(/--(since|from|to)\b/g, '$1');
    throw new CliError(
      asParameters(error.message),
      error.exitCode,
      error.hint === undefined ? undefined : asParameters(error.hint),
      error.status,
    );
  }
}

/** A value the CLI's parser refuses, refused naming the parameter it came in. */
function inParameter<T>(parameter: string, parse: () => T, hint?: string): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof CliError) || error.exitCode !== EXIT.usage) throw error;
    throw usageError(`${parameter} ${error.message}`, hint ?? error.hint);
  }
}

/** A trace id in either spelling (traceIdOf), refused naming the parameter and where ids come from here. */
const traceIdOfParameter = (parameter: string, text: string): string =>
  inParameter(parameter, () => traceIdOf(text), TRACE_ID_HINT);

/** The project hints (lookup, dead default) name the CLI's --project and `projects list`: here the parameter and list_projects. */
function projectErrorInToolTerms(error: unknown): unknown {
  if (!(error instanceof CliError) || error.hint === undefined) return error;
  const hint = error.hint
    .replace('pass --project <id|name>', 'pass project (an id or name from list_projects)')
    .replace('`sightline-cli projects list`', 'list_projects')
    .replace('(or pass --project)', '(or pass project)');
  return new CliError(error.message, error.exitCode, hint, error.status);
}

/** A tool handler answering text; a failure is a tool error with the CLI's message and hint. */
function answer<Args>(work: (args: Args) => Promise<RowsView | DetailView>): (args: Args) => Promise<CallToolResult> {
  return async (args) => {
    try {
      const view = await work(args);
      const text = 'rows' in view ? renderTable(view) : view.text;
      return { content: [{ type: 'text', text }] };
    } catch (thrown) {
      // A dead default project is found by the request itself, past projectOf.
      const error = projectErrorInToolTerms(thrown);
      const message =
        error instanceof CliError
          ? `${error.message}${error.hint ? ` (${error.hint})` : ''}`
          : error instanceof Error
            ? error.message
            : String(error);
      return { content: [{ type: 'text', text: `error: ${message}` }], isError: true };
    }
  };
}
