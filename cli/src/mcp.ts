/**
 * `sightline-cli mcp`: a Model Context Protocol server on stdio whose tools are the read commands,
 * signed in with the stored credentials of the profile. Answers are the commands' terminal text
 * (tables, the waterfall): concise for a model, and the same as a person sees.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listProjects, traceIdOf, type Context } from './context.js';
import { CliError } from './errors.js';
import { renderTable, type DetailView, type RowsView } from './output.js';
import {
  AGGREGATIONS,
  listAiTraces,
  listEndpoints,
  listIssues,
  listMetrics,
  listTasks,
  queryLogs,
  queryMetrics,
  showEndpoint,
  showIssue,
  showTrace,
  type ListQuery,
} from './queries.js';
import { resolveRange } from './time-range.js';

const project = z.string().optional().describe("project id or name; default: the profile's default project");
const since = z.string().optional().describe('how far back: 30m, 1h, 24h, 7d');
const from = z
  .string()
  .optional()
  .describe('start of the range, ISO 8601, UTC without a zone as the tables show times (instead of since)');
const to = z.string().optional().describe('end of the range, ISO 8601, UTC without a zone (default now)');
const limit = z.number().int().min(1).max(200).optional().describe('rows to return (default 25)');
const search = z.string().optional().describe('text to look for');

export async function serveMcp(context: Context): Promise<void> {
  const server = new McpServer({ name: 'sightline', version: SIGHTLINE_CLI_VERSION });
  const session = () => context.session();
  const projectOf = (explicit: string | undefined) => context.projectId(session(), explicit);
  const page = (rows: number | undefined) => ({ page: 1, pageSize: rows ?? 25 });
  const listTool = (name: string, description: string, query: ListQuery) =>
    server.registerTool(
      name,
      { description, inputSchema: { project, since, from, to, search, limit } },
      answer(async (args) =>
        query(session(), await projectOf(args.project), resolveRange(args, '24h'), {
          ...page(args.limit),
          search: args.search,
        }),
      ),
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
      description: 'The stack trace and latest occurrences of one issue, by its hash (from list_issues).',
      inputSchema: { hash: z.string().describe('issue hash'), project, since, from, to },
    },
    answer(async (args) =>
      showIssue(session(), await projectOf(args.project), args.hash, resolveRange(args, '7d'), 10),
    ),
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
      inputSchema: { name: z.string().describe('endpoint name, e.g. "POST /api/checkout"'), project, since, from, to },
    },
    answer(async (args) =>
      showEndpoint(session(), await projectOf(args.project), args.name, resolveRange(args, '24h'), 5),
    ),
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
    answer(async (args) => showTrace(session(), await projectOf(args.project), traceIdOf(args.id))),
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
        service: z.string().optional().describe('service name'),
        minSeverity: z.number().int().min(1).max(24).optional().describe('OpenTelemetry severity number'),
        traceId: z.string().optional().describe('logs of one trace: a UUID or 32 hex digits'),
        search: z.string().optional().describe('text in the body; over more than 24 h it needs another filter'),
      },
    },
    answer(async (args) =>
      queryLogs(
        session(),
        await projectOf(args.project),
        resolveRange(args, '1h'),
        {
          service: args.service,
          minSeverity: args.minSeverity,
          traceId: args.traceId === undefined ? undefined : traceIdOf(args.traceId),
          search: args.search,
        },
        page(args.limit),
      ),
    ),
  );
  server.registerTool(
    'list_metrics',
    {
      description: 'Metric names with points in the range, their point count, last point and dimension keys.',
      inputSchema: { project, since, from, to },
    },
    answer(async (args) => listMetrics(session(), await projectOf(args.project), resolveRange(args, '24h'))),
  );
  server.registerTool(
    'query_metrics',
    {
      description: 'One metric aggregated per time bucket, optionally grouped by dimension keys.',
      inputSchema: {
        name: z.string().describe('metric name'),
        aggregation: z
          .enum(AGGREGATIONS as [string, ...string[]])
          .optional()
          .describe('default avg'),
        groupBy: z.array(z.string()).optional().describe('dimension keys, or serverName'),
        project,
        since,
        from,
        to,
      },
    },
    answer(async (args) => {
      const aggregation = AGGREGATIONS.find((value) => value === args.aggregation);
      return (
        await queryMetrics(session(), await projectOf(args.project), resolveRange(args, '1h'), {
          name: args.name,
          aggregation,
          groupBy: args.groupBy,
        })
      ).detail;
    }),
  );
  listTool('list_ai_traces', 'LLM calls ranked by total cost, with model, tokens, cost and duration.', listAiTraces);

  await server.connect(new StdioServerTransport());
  // Served until the client closes stdin.
  await new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
}

/** A tool handler answering text; a failure is a tool error with the CLI's message and hint. */
function answer<Args>(work: (args: Args) => Promise<RowsView | DetailView>): (args: Args) => Promise<CallToolResult> {
  return async (args) => {
    try {
      const view = await work(args);
      const text = 'rows' in view ? renderTable(view) : view.text;
      return { content: [{ type: 'text', text }] };
    } catch (error) {
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
