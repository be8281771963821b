/**
 * The read commands of the built CLI against a real service filled through the real ingest routes
 * (src/demo/demo-data.ts), in table and JSON form; `logs tail` seeing logs sent while it runs; and
 * the MCP server driven by the SDK's client over stdio.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORKS } from '../../src/core/projects.js';
import { demoBatch, seededRandom, sendDemoBatch } from '../../src/demo/demo-data.js';
import { listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';
import { builtCli, jsonOf, newConfigDir, personalAccessToken, removeBuiltCli, runCli, startCli } from './helpers.js';

type Rows = Array<Record<string, unknown>>;

/** "2026-11-26T21:25:03.123456789Z" as a table shows it: "2026-11-26 21:25:03". */
const utcSecond = (iso: string): string => {
  expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
};

// Every case runs several CLI processes; on a shared, busy machine each can take seconds.
describe('sightline-cli read commands', { timeout: 180_000 }, () => {
  let service: ListeningTestService;
  let user: Awaited<ReturnType<typeof registerUser>>;
  const configDir = newConfigDir();
  const cli = (...args: string[]) => runCli(args, { configDir });
  const json = async <T = Rows>(...args: string[]): Promise<T> => {
    const result = await cli(...args, '-o', 'json');
    expect(result.code, result.stderr).toBe(0);
    return jsonOf<T>(result);
  };
  const table = async (...args: string[]): Promise<string> => {
    const result = await cli(...args, '-o', 'table');
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };

  beforeAll(async () => {
    builtCli();
    service = await listeningTestService();
    user = await registerUser(service.app);
    await sendDemoBatch(service.url, user.project.token, demoBatch({ random: seededRandom(16), calls: 120 }));
    await service.services.writer.drain();
    const token = await personalAccessToken(service, user.token);
    expect((await runCli(['login', '--url', service.url, '--token', token], { configDir })).code).toBe(0);
  });
  afterAll(async () => {
    await service?.close();
    removeBuiltCli();
  });

  it('projects list, create and use', async () => {
    const projects = await json('projects', 'list');
    expect(projects).toEqual([expect.objectContaining({ id: user.project.id, default: true })]);
    expect(projects[0]).not.toHaveProperty('token');
    const projectsTable = await table('projects', 'list');
    expect(projectsTable).toMatch(/^id\s+name\s+framework\s+role\s+default\n/);
    // A boolean column reads yes/no in a table (JSON keeps true/false, above).
    expect(projectsTable.split('\n')[1]).toMatch(new RegExp(`^${user.project.id}\\s.*\\syes$`));
    expect(projectsTable).not.toMatch(/\b(true|false)\b/);

    const created = await json<{ id: string; name: string }>('projects', 'create', 'CLI Made', '--framework', 'nodejs');
    expect(created.name).toBe('CLI Made');
    expect((await json('projects', 'list')).map((project) => project.name)).toContain('CLI Made');

    expect((await cli('projects', 'use', 'CLI Made')).code).toBe(0);
    expect((await json('projects', 'list')).find((project) => project.default)).toMatchObject({ id: created.id });
    expect((await json('issues', 'list')).length).toBe(0);
    expect((await cli('projects', 'use', user.project.id)).code).toBe(0);
  });

  it('projects create: the missing name first, --framework required in the help, a refused framework is a usage error', async () => {
    // The missing name is what is reported first; the help says --framework is required and lists the values.
    const bare = await cli('projects', 'create');
    expect([bare.code, bare.stderr]).toEqual([2, expect.stringContaining("missing required argument 'name'")]);
    expect(bare.stderr).not.toContain('--framework');
    const noFramework = await cli('projects', 'create', 'No Framework');
    expect([noFramework.code, noFramework.stderr]).toEqual([2, expect.stringContaining('--framework is required')]);
    expect(noFramework.stderr).toContain(FRAMEWORKS.join(', '));
    const help = await cli('projects', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: sightline-cli projects create \[options\] <name> --framework <framework>/);
    expect(help.stdout).toMatch(/--framework <framework>\s+\(required\)/);
    // The help's list is the service's (src/core/projects.ts): a new framework there must reach the CLI.
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(FRAMEWORKS.join(', '));
    const refused = await cli('projects', 'create', 'Bad', '--framework', 'cobol');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: --framework "cobol" refused: framework must be one of opentelemetry, /);
    expect((await json('projects', 'list')).map((project) => project.name)).not.toContain('Bad');
  });

  it('issues list and show', async () => {
    const issues = await json('issues', 'list', '--since', '1h');
    expect(issues.length).toBeGreaterThan(0);
    expect(Object.keys(issues[0]!)).toEqual([
      'hash',
      'title',
      'count',
      'kind',
      'firstSeen',
      'lastSeen',
      'linkedKind',
      'linkedId',
      'linkedName',
    ]);
    const hash = issues[0]!.hash as string;
    const issuesTable = await table('issues', 'list');
    expect(issuesTable).toMatch(/^hash\s+count\s+lastSeen \(UTC\)\s+linkedName\s+title\n/);
    // The table: the instant in UTC to the second; JSON: exactly what the API answered (nanoseconds).
    const lastSeen = issues[0]!.lastSeen as string;
    expect(issuesTable).toMatch(new RegExp(`\\n${hash}\\s+\\d+\\s+${utcSecond(lastSeen)}\\s`));
    expect(issuesTable).not.toMatch(/\d{2}:\d{2}:\d{2}\.\d|T\d{2}:/);
    const fromApi = await service.app.inject({
      method: 'POST',
      url: `/api/exception-stack-traces?projectId=${user.project.id}`,
      headers: { authorization: `Bearer ${user.token}` },
      payload: { fromDate: new Date(Date.now() - 3_600_000).toISOString(), toDate: new Date().toISOString() },
    });
    expect(fromApi.statusCode, fromApi.body).toBe(200);
    const apiIssue = (fromApi.json() as { items: Rows }).items.find((item) => item.hash === hash)!;
    expect(lastSeen).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
    expect([issues[0]!.firstSeen, lastSeen]).toEqual([apiIssue.firstSeen, apiIssue.lastSeen]);
    const picked = await table('issues', 'list', '--fields', 'hash,firstSeen,lastSeen');
    expect(picked.split('\n')[0]).toMatch(/^hash\s+firstSeen \(UTC\)\s+lastSeen \(UTC\)$/);
    // A time copied from a table is read back as UTC, whatever the machine's zone.
    const copied = await runCli(['issues', 'list', '--from', utcSecond(issues[0]!.firstSeen as string), '-o', 'json'], {
      configDir,
      env: { TZ: 'America/New_York' },
    });
    expect(jsonOf<Rows>(copied).map((issue) => issue.hash)).toContain(hash);

    const shown = await json<{ hash: string; stackTrace: string; occurrences: Rows }>('issues', 'show', hash);
    expect(shown.hash).toBe(hash);
    expect(shown.occurrences.length).toBeGreaterThan(0);
    const text = await table('issues', 'show', hash);
    expect(text).toContain(shown.stackTrace.split('\n')[0]);
    expect(text).toContain('latest occurrences');
    expect(text).toMatch(/\nrecordedAt \(UTC\)\s+linkedName/);
    expect(text).toContain(`\n${utcSecond(shown.occurrences[0]!.recordedAt as string)}  `);
    expect(shown.occurrences[0]!.recordedAt).toMatch(/\.\d{9}Z$/);

    const missing = await cli('issues', 'show', '0000000000000000');
    expect(missing.code).toBe(5);
    // Not a hash at all: a usage error saying what a hash looks like, not the route's schema message.
    const malformed = await cli('issues', 'show', 'nope');
    expect([malformed.code, malformed.stderr]).toEqual([2, expect.stringContaining('"nope" is not an issue hash')]);
  });

  it('endpoints list and show, and traces show as a waterfall', async () => {
    const endpoints = await json('endpoints', 'list', '--since', '1h');
    expect(endpoints.map((endpoint) => endpoint.name)).toContain('GET /api/products');
    const tableText = await table('endpoints', 'list');
    expect(tableText).toMatch(/^name\s+requests\s+p50Ms\s+p95Ms\s+p99Ms\s+errorRate\s+apdex\s+impact\n/);
    expect(tableText).toContain('GET /api/products');
    // As the dashboard shows them: rates in percent, Apdex and impact with two decimals; JSON keeps the API's numbers.
    const products = endpoints.find((endpoint) => endpoint.name === 'GET /api/products')!;
    expect(typeof products.errorRate).toBe('number');
    expect(typeof products.apdex).toBe('number');
    for (const line of tableText
      .trim()
      .split('\n')
      .slice(1)
      .filter((row) => !row.startsWith('more rows')))
      expect(line).toMatch(/\s(\d+(\.\d+)? %)\s+(\d\.\d\d|-)\s+\d\.\d\d$/);

    const picked = await json('endpoints', 'list', '--fields', 'name,requests');
    expect(Object.keys(picked[0]!)).toEqual(['name', 'requests']);
    const unknownField = await cli('endpoints', 'list', '--fields', 'name,nope');
    expect([unknownField.code, unknownField.stderr]).toEqual([2, expect.stringContaining('unknown field nope')]);

    const detail = await json<{ name: string; count: number; slowest: Rows }>('endpoints', 'show', 'GET /api/products');
    expect(detail.count).toBeGreaterThan(0);
    const detailText = await table('endpoints', 'show', 'GET /api/products');
    expect(detailText).toMatch(/GET \/api\/products: \d+ calls/);
    expect(detailText).toMatch(/\nid\s+recordedAt \(UTC\)\s+durationMs/);
    const slowestRow = detailText.split('\n').find((line) => line.startsWith(detail.slowest[0]!.id as string))!;
    expect(slowestRow).toMatch(new RegExp(`^\\S+  ${utcSecond(detail.slowest[0]!.recordedAt as string)}\\s+\\d`));
    expect((await cli('endpoints', 'show', 'GET /nowhere')).code).toBe(5);

    const traceId = detail.slowest[0]!.id as string;
    const trace = await json<{ id: string; spans: Rows }>('traces', 'show', traceId);
    expect(trace.id).toBe(traceId);
    expect(trace.spans.map((span) => span.name)).toContain('pg.query SELECT');
    const waterfall = await table('traces', 'show', traceId);
    expect(waterfall).toMatch(/^endpoint GET \/api\/products/);
    expect(waterfall.split('\n')[0]).toMatch(/ \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    expect(waterfall).toMatch(/\npg\.query SELECT\s+\+\S+ \S+\s+\S+ \S+\s+\|\s*█+\s*\|/);
    // The root row carries the whole trace name, longer than any span label here (it was cut to their width).
    expect(waterfall.split('\n')[4]).toMatch(/^GET \/api\/products\s+\+0 ms/);

    const unknownTrace = await cli('traces', 'show', '6b0f3c2e-5d4a-4b1c-9e8f-7a6b5c4d3e2f');
    expect(unknownTrace.code).toBe(5);
    expect(unknownTrace.stderr).toContain('error: no such trace in this project');
    // Not an id at all: a usage error saying what an id looks like, not the route's schema message.
    const malformedTrace = await cli('traces', 'show', 'nope');
    expect([malformedTrace.code, malformedTrace.stderr]).toEqual([
      2,
      expect.stringContaining('"nope" is not a trace id'),
    ]);
  });

  it('a trace id in its 32-hex spelling (as logs print it) or as a UUID, either case, in traces show and logs query', async () => {
    const detail = await json<{ slowest: Rows }>('endpoints', 'show', 'GET /api/products');
    const traceId = detail.slowest[0]!.id as string;
    // The 32-hex spelling logs carry (OTLP's), in either case, is the same trace.
    const hexId = traceId.replace(/-/g, '');
    expect((await json<{ id: string }>('traces', 'show', hexId)).id).toBe(traceId);
    expect((await json<{ id: string }>('traces', 'show', hexId.toUpperCase())).id).toBe(traceId);
    expect((await json<{ id: string }>('traces', 'show', traceId.toUpperCase())).id).toBe(traceId);
    // ... and `logs query --trace-id` takes both spellings too.
    const loggedTrace = (await json('logs', 'query', '--since', '1h', '--limit', '500')).find(
      (log) => typeof log.traceId === 'string',
    )!.traceId as string;
    expect(loggedTrace).toMatch(/^[0-9a-f]{32}$/);
    const dashed = `${loggedTrace.slice(0, 8)}-${loggedTrace.slice(8, 12)}-${loggedTrace.slice(12, 16)}-${loggedTrace.slice(16, 20)}-${loggedTrace.slice(20)}`;
    const byDashed = await json('logs', 'query', '--since', '1h', '--trace-id', dashed.toUpperCase());
    expect(byDashed.length).toBeGreaterThan(0);
    expect(byDashed.every((log) => log.traceId === loggedTrace)).toBe(true);
    const badLogTrace = await cli('logs', 'query', '--trace-id', 'nope');
    expect([badLogTrace.code, badLogTrace.stderr]).toEqual([2, expect.stringContaining('"nope" is not a trace id')]);

    const malformed = await cli('traces', 'show', 'edae9535b3694b03ad9cfa8ecb923f5');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('is not a trace id');
    expect(malformed.stderr).toContain('32 hex digits');
    expect(malformed.stderr).toContain('UUID');
  });

  it('tasks list and ai-traces list', async () => {
    expect((await json('tasks', 'list')).map((task) => task.name)).toContain('send-order-confirmation');
    expect(await table('tasks', 'list')).toMatch(/^name\s+count\s+failures/);
    const ai = await json('ai-traces', 'list');
    expect(ai.length).toBeGreaterThan(0);
    expect(ai[0]).toMatchObject({ operation: 'chat', finishReason: 'stop' });
    expect(ai[0]!.totalCost as number).toBeGreaterThan(0);
    const costs = await table('ai-traces', 'list', '--fields', 'name,model,totalCost,isError');
    expect(costs).toMatch(/^name\s+model\s+totalCost\s+isError\n/);
    // Costs in dollars and booleans as words, as the dashboard shows them.
    for (const line of costs
      .trim()
      .split('\n')
      .slice(1)
      .filter((row) => !row.startsWith('more rows')))
      expect(line).toMatch(/\s(\$\d+(\.\d+)?|-)\s+(yes|no)$/);
  });

  it('logs query with filters, and a search over more than 24 h without a selector is exit 1 with the reason', async () => {
    const logs = await json('logs', 'query', '--since', '1h');
    expect(logs.length).toBeGreaterThan(0);
    expect(Object.keys(logs[0]!)).toEqual([
      'timestamp',
      'severity',
      'severityNumber',
      'service',
      'body',
      'traceId',
      'spanId',
      'attributes',
    ]);
    const errors = await json('logs', 'query', '--min-severity', 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((log) => (log.severityNumber as number) >= 17)).toBe(true);
    const serviceName = logs[0]!.service as string;
    expect((await json('logs', 'query', '--service', serviceName)).every((log) => log.service === serviceName)).toBe(
      true,
    );
    const logTable = await table('logs', 'query', '--limit', '5');
    expect(logTable).toMatch(/^timestamp \(UTC\)\s+severity\s+service\s+body\n/);
    const newest = await json('logs', 'query', '--limit', '5');
    expect(newest[0]!.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
    expect(logTable.split('\n')[1]).toMatch(new RegExp(`^${utcSecond(newest[0]!.timestamp as string)}  \\S`));
    const wide = await cli('logs', 'query', '--search', 'order', '--since', '7d');
    expect(wide.code).toBe(1);
    expect(wide.stderr).toMatch(/^error: .*24 h/);
  });

  it('metrics query', async () => {
    const metric = await json<{ name: string; series: Array<{ points: Array<{ value: number | null }> }> }>(
      'metrics',
      'query',
      'http.server.active_requests',
      '--aggregation',
      'max',
    );
    expect(metric.name).toBe('http.server.active_requests');
    expect(metric.series.flatMap((series) => series.points).some((point) => point.value !== null)).toBe(true);
    expect(await table('metrics', 'query', 'http.server.active_requests')).toMatch(
      /^http\.server\.active_requests avg per \d+ s.*\ntime \(UTC\)\s+series\s+value\n\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00 {2}/,
    );
    expect((await cli('metrics', 'query', 'x', '--aggregation', 'median')).code).toBe(2);

    // A name without points: the answer on stdout as before (exit 0, as any empty query), and a hint on stderr.
    const nothing = await cli('metrics', 'query', 'nope.metric', '-o', 'table');
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toContain('(none)');
    expect(nothing.stderr).toContain('no points of metric "nope.metric" in the range');
    expect(nothing.stderr).toContain('sightline-cli metrics list');
    const nothingJson = await cli('metrics', 'query', 'nope.metric', '-o', 'json');
    expect(nothingJson.code).toBe(0);
    expect(jsonOf<{ series: unknown[] }>(nothingJson).series).toEqual([]);
    expect(nothingJson.stderr).toContain('no points of metric "nope.metric"');
    // A metric with points says nothing more.
    expect((await cli('metrics', 'query', 'http.server.active_requests', '-o', 'json')).stderr).toBe('');
  });

  it('metrics list: the metric names with data in the range, their points, last point and dimensions', async () => {
    const metrics = await json<Array<{ name: string; points: number; lastSeen: string; dimensions: Rows }>>(
      'metrics',
      'list',
      '--since',
      '1h',
    );
    const active = metrics.find((metric) => metric.name === 'http.server.active_requests')!;
    expect(active).toMatchObject({ points: expect.any(Number), lastSeen: expect.any(String) });
    expect(active.points).toBeGreaterThan(0);
    expect(Object.keys(active)).toEqual(['name', 'points', 'lastSeen', 'dimensions']);
    expect(Array.isArray(active.dimensions)).toBe(true);
    const listed = await table('metrics', 'list');
    expect(listed).toMatch(/^name\s+points\s+lastSeen \(UTC\)\s+dimensions\n/);
    const line = listed.split('\n').find((row) => row.startsWith('http.server.active_requests '))!;
    expect(line).toMatch(/^http\.server\.active_requests\s+\d+\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    // Dimensions as their keys, not JSON.
    expect(listed).not.toContain('{');
    const help = await cli('metrics', 'list', '--help');
    expect(help.stdout).toContain('--since <duration>');
    expect(help.stdout).toContain('$ sightline-cli metrics list');
    expect((await cli('metrics', '--help')).stdout).toMatch(/list \[options\]/);
  });

  it('logs tail prints logs sent while it runs, once each, until Ctrl-C', async () => {
    const tail = startCli(['logs', 'tail', '-o', 'json', '--since', '30m', '--interval', '1'], { configDir });
    await tail.waitFor('stdout', /\n/);
    const sendLog = (body: string) =>
      fetch(new URL('/api/otel/v1/logs', service.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${user.project.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          resourceLogs: [
            {
              resource: { attributes: [{ key: 'service.name', value: { stringValue: 'tail-test' } }] },
              scopeLogs: [
                {
                  logRecords: [
                    {
                      timeUnixNano: `${BigInt(Date.now()) * 1_000_000n}`,
                      severityNumber: 9,
                      body: { stringValue: body },
                    },
                  ],
                },
              ],
            },
          ],
        }),
      });
    expect((await sendLog('first line sent during the tail')).status).toBe(200);
    await tail.waitFor('stdout', /first line sent during the tail/);
    // The poll that finds the second line re-reads the first (the overlap): it must not print it again.
    expect((await sendLog('second line sent during the tail')).status).toBe(200);
    await tail.waitFor('stdout', /second line sent during the tail/);
    tail.child.kill('SIGINT');
    const result = await tail.exited;
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { body: string; service: string });
    expect(lines.filter((line) => line.body === 'first line sent during the tail')).toEqual([
      expect.objectContaining({ service: 'tail-test' }),
    ]);
    expect(lines.filter((line) => line.body === 'second line sent during the tail')).toHaveLength(1);
  });

  it('mcp: an MCP client over stdio lists the tools and gets real data from one', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [builtCli(), 'mcp'],
      env: { PATH: process.env.PATH ?? '', SIGHTLINE_CONFIG_DIR: configDir },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        [
          'list_ai_traces',
          'list_endpoints',
          'list_issues',
          'list_metrics',
          'list_projects',
          'list_tasks',
          'query_metrics',
          'search_logs',
          'show_endpoint',
          'show_issue',
          'show_trace',
        ].sort(),
      );
      expect(tools.find((tool) => tool.name === 'search_logs')!.inputSchema.properties).toHaveProperty('minSeverity');
      const answer = await client.callTool({ name: 'list_endpoints', arguments: { since: '1h', limit: 10 } });
      expect(answer.isError).toBeFalsy();
      const [content] = answer.content as Array<{ type: string; text: string }>;
      expect(content!.text).toMatch(/^name\s+requests/);
      expect(content!.text).toContain('GET /api/products');
      const metrics = await client.callTool({ name: 'list_metrics', arguments: { since: '1h' } });
      expect(metrics.isError).toBeFalsy();
      const [metricsText] = metrics.content as Array<{ type: string; text: string }>;
      expect(metricsText!.text).toMatch(/^name\s+points\s+lastSeen \(UTC\)\s+dimensions\n/);
      expect(metricsText!.text).toMatch(/^http\.server\.active_requests\s+\d+/m);
      const refused = await client.callTool({
        name: 'show_trace',
        arguments: { id: '6b0f3c2e-5d4a-4b1c-9e8f-7a6b5c4d3e2f' },
      });
      expect(refused.isError).toBe(true);
      expect((refused.content as Array<{ text: string }>)[0]!.text).toBe('error: no such trace in this project');
    } finally {
      await client.close();
    }
  });
});
