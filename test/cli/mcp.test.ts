/**
 * `sightline-cli mcp` against a real service filled through the real ingest routes
 * (src/demo/demo-data.ts): driven by the SDK's client over stdio, and by raw JSON-RPC lines on
 * stdin for what a client does not show (the exit code when stdin closes).
 */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, type ListeningTestService } from '../support/service.js';
import { builtCli, newConfigDir, removeBuiltCli, runCli, signedInDemoService, type CliResult } from './helpers.js';

type ToolAnswer = { isError?: boolean; content: Array<{ type: string; text: string }> };
type RpcLine = { id?: number; result?: unknown; error?: unknown };

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-test', version: '1.0.0' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** The JSON-RPC lines a server wrote on stdout. */
const rpcLines = (result: CliResult): RpcLine[] =>
  result.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RpcLine);

/** A list's text without its title line and its note: the rows. */
const rowsOf = (text: string): string[] =>
  text
    .split('\n')
    .slice(1)
    .filter((line) => !line.startsWith('more rows'));

const noteOf = (text: string): string | undefined => text.split('\n').find((line) => line.startsWith('more rows'));

// Every case runs a CLI process; on a shared, busy machine each can take seconds.
describe('sightline-cli mcp', { timeout: 180_000 }, () => {
  let service: ListeningTestService;
  let user: Awaited<ReturnType<typeof signedInDemoService>>['user'];
  const configDir = newConfigDir();
  const env = () => ({ PATH: process.env.PATH ?? '', SIGHTLINE_CONFIG_DIR: configDir });

  /** The server's answers to JSON-RPC lines written on its stdin, which then closes. */
  const rpc = (...messages: object[]): Promise<CliResult> =>
    runCli(['mcp'], { configDir, input: messages.map((message) => `${JSON.stringify(message)}\n`).join('') });

  /** An SDK client connected to a server of its own, closed after `work`. */
  const withClient = async (work: (client: Client) => Promise<void>): Promise<void> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [builtCli(), 'mcp'],
      env: env(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await work(client);
    } finally {
      await client.close();
    }
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> =>
    (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const textOf = (answer: ToolAnswer): string => answer.content[0]!.text;

  beforeAll(async () => {
    ({ service, user } = await signedInDemoService(configDir));
  });
  afterAll(async () => {
    await service?.close();
    removeBuiltCli();
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

  it('mcp: exits 0 when stdin closes, with nothing read, from /dev/null, and after initialize', async () => {
    // A host stops a stdio server by closing its stdin: that is the end of the command, not a failure.
    const nothing = await runCli(['mcp'], { configDir, input: '' });
    expect([nothing.code, nothing.stdout, nothing.stderr]).toEqual([0, '', '']);

    const devNull = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [builtCli(), 'mcp'], { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
      child.on('close', (code) => resolve(code));
    });
    expect(devNull).toBe(0);

    const initialized = await rpc(INITIALIZE, INITIALIZED);
    expect(initialized.code, initialized.stderr).toBe(0);
    expect(rpcLines(initialized)).toEqual([
      expect.objectContaining({ id: 0, result: expect.objectContaining({ serverInfo: expect.anything() }) }),
    ]);
  });

  it('mcp: answers every request read before stdin closed, then exits 0', async () => {
    const result = await rpc(
      INITIALIZE,
      INITIALIZED,
      toolCall(1, 'list_endpoints', { since: '1h', limit: 3 }),
      toolCall(2, 'show_issue', { hash: 'zz' }),
      toolCall(3, 'list_projects', {}),
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = rpcLines(result);
    expect(lines.map((line) => line.id).sort()).toEqual([0, 1, 2, 3]);
    const endpoints = lines.find((line) => line.id === 1)!.result as ToolAnswer;
    expect(endpoints.isError).toBeFalsy();
    expect(endpoints.content[0]!.text).toMatch(/^name\s+requests/);
    expect((lines.find((line) => line.id === 2)!.result as ToolAnswer).isError).toBe(true);
  });

  it('mcp: the list tools take page; their "more rows" note names the tool and its page parameter', async () => {
    await withClient(async (client) => {
      const { tools } = await client.listTools();
      for (const name of ['list_issues', 'list_endpoints', 'list_tasks', 'list_ai_traces', 'search_logs'])
        expect(tools.find((tool) => tool.name === name)!.inputSchema.properties, name).toHaveProperty('page');

      for (const [name, args] of [
        ['list_endpoints', { since: '1h', limit: 2 }],
        ['list_issues', { since: '1h', limit: 1 }],
        ['search_logs', { since: '1h', limit: 2 }],
      ] as const) {
        const first = await call(client, name, args);
        const second = await call(client, name, { ...args, page: 2 });
        expect(first.isError || second.isError, name).toBeFalsy();
        const [firstRows, secondRows] = [rowsOf(textOf(first)), rowsOf(textOf(second))];
        expect([firstRows.length, secondRows.length], name).toEqual([args.limit, args.limit]);
        // Page 2 goes on where page 1 stopped.
        expect(
          secondRows.filter((row) => firstRows.includes(row)),
          name,
        ).toEqual([]);
        expect(noteOf(textOf(first)), name).toBe(
          `more rows: call ${name} again with page 2 (and the same other arguments)`,
        );
        expect(noteOf(textOf(second)), name).toBe(
          `more rows: call ${name} again with page 3 (and the same other arguments)`,
        );
        expect(textOf(first), name).not.toContain('--page');
      }
      const past = await call(client, 'list_endpoints', { since: '1h', limit: 2, page: 1000 });
      expect(textOf(past)).toBe('(none)');
      const zero = await call(client, 'list_endpoints', { page: 0 });
      expect(zero.isError).toBe(true);
      expect(textOf(zero)).toMatch(/\bpage\b/);
    });
  });

  it('mcp: show_endpoint and the not-found hints name tools, not CLI commands', async () => {
    await withClient(async (client) => {
      const endpoint = await call(client, 'show_endpoint', { name: 'POST /api/checkout', since: '1h' });
      expect(endpoint.isError).toBeFalsy();
      expect(textOf(endpoint)).toContain('\nslowest (see show_trace with the id):\n');
      expect(textOf(endpoint)).not.toContain('traces show');

      const noEndpoint = await call(client, 'show_endpoint', { name: 'GET /nowhere' });
      expect([noEndpoint.isError, textOf(noEndpoint)]).toEqual([
        true,
        'error: no calls of endpoint "GET /nowhere" in the range (names are "METHOD /route", see list_endpoints)',
      ]);
      const noIssue = await call(client, 'show_issue', { hash: 'ffffffffffffffff' });
      expect(noIssue.isError).toBe(true);
      expect(textOf(noIssue)).toMatch(
        /^error: no occurrences of issue ffffffffffffffff in the range \(.*list_issues\)$/,
      );
      expect(textOf(noIssue)).not.toMatch(/--since|issues list/);
      const noProject = await call(client, 'list_issues', { project: 'No Such Project' });
      expect([noProject.isError, textOf(noProject)]).toEqual([
        true,
        'error: no project "No Such Project" among yours (see list_projects)',
      ]);
      const noMetric = await call(client, 'query_metrics', { name: 'no.such.metric' });
      expect(noMetric.isError).toBeFalsy();
      expect(textOf(noMetric)).toContain('list_metrics shows the names with points');
    });
  });

  it('mcp: bad inputs are tool errors naming the parameter, as the CLI checks them', async () => {
    await withClient(async (client) => {
      const refused = async (name: string, args: Record<string, unknown>): Promise<string> => {
        const answer = await call(client, name, args);
        expect(answer.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
        // Neither the API's paths and patterns nor the CLI's flags: the tool's own parameters.
        expect(textOf(answer)).not.toMatch(/params\/|body\/|\(400\)|--[a-z]/);
        return textOf(answer);
      };
      expect(await refused('show_issue', { hash: 'zz' })).toBe(
        'error: hash "zz" is not an issue hash (an issue hash is 16 hex digits (0-9, a-f), the hash column of list_issues)',
      );
      expect(await refused('show_trace', { id: 'not-a-trace' })).toMatch(
        /^error: id "not-a-trace" is not a trace id \(.*show_endpoint.*\)$/,
      );
      expect(await refused('search_logs', { traceId: 'abc' })).toMatch(/^error: traceId "abc" is not a trace id/);
      expect(await refused('list_issues', { since: 'soon' })).toMatch(/^error: since "soon" is not a duration/);
      expect(await refused('list_endpoints', { since: '1h', from: '2026-01-01T00:00:00Z' })).toBe(
        'error: since cannot be combined with from (use since alone (up to now) or with to (the duration before it), or from with to)',
      );
      expect(await refused('list_tasks', { from: 'yesterday' })).toMatch(/^error: from "yesterday" is not a time/);
      expect(await refused('search_logs', { search: 'checkout', since: '7d' })).toMatch(
        /^error: search over more than 24 hours needs another filter \(add service, minSeverity or traceId/,
      );
      expect(await refused('show_endpoint', { name: '' })).toMatch(/\bname\b/);

      // Either spelling of a trace id, and an issue hash in upper case, are taken as the CLI takes them.
      const ids = await call(client, 'show_endpoint', { name: 'POST /api/checkout', since: '1h' });
      const id = /^([0-9a-f-]{36})\s/m.exec(textOf(ids))![1]!;
      const trace = await call(client, 'show_trace', { id: id.replace(/-/g, '').toUpperCase() });
      expect(trace.isError).toBeFalsy();
      expect(textOf(trace)).toContain(`id ${id}`);
      const issues = await call(client, 'list_issues', { since: '1h', limit: 1 });
      const hash = rowsOf(textOf(issues))[0]!.split(/\s+/)[0]!;
      const issue = await call(client, 'show_issue', { hash: hash.toUpperCase(), since: '1h' });
      expect(issue.isError).toBeFalsy();
      // The title first, as the dashboard's issue page; then the hash as the service keys it.
      expect(textOf(issue)).toMatch(new RegExp(`^.+\\nissue ${hash} `));
    });
  });
  it('mcp: a default project deleted since is told in tool terms: list_projects and the project parameter', async () => {
    const created = await runCli(['projects', 'create', 'Doomed', '--framework', 'nodejs', '-o', 'json'], {
      configDir,
    });
    expect(created.code, created.stderr).toBe(0);
    const doomed = JSON.parse(created.stdout) as { id: string };
    const before = JSON.parse((await runCli(['whoami', '-o', 'json'], { configDir })).stdout) as {
      project: { id: string };
    };
    expect((await runCli(['projects', 'use', doomed.id], { configDir })).code).toBe(0);
    await callOk(service.app, user.token, 'DELETE', `/api/projects?projectId=${doomed.id}`);
    try {
      await withClient(async (client) => {
        const answer = await call(client, 'list_issues', { since: '1h' });
        expect([answer.isError, textOf(answer)]).toEqual([
          true,
          `error: the default project "Doomed" (${doomed.id}) of profile default no longer exists or is not reachable (choose another: list_projects, then \`sightline-cli projects use <id|name>\` (or pass project))`,
        ]);
      });
    } finally {
      expect((await runCli(['projects', 'use', before.project.id], { configDir })).code).toBe(0);
    }
  });
});
