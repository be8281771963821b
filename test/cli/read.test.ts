/**
 * The read commands of the built CLI against a real service filled through the real ingest routes
 * (src/demo/demo-data.ts), in table and JSON form; `logs tail` seeing logs sent while it runs; every
 * flag checked (exit 2) before the sign-in and the project. The MCP server: mcp.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORKS } from '../../src/core/projects.js';
import type { registerUser, ListeningTestService } from '../support/service.js';
import { jsonOf, newConfigDir, removeBuiltCli, runCli, signedInDemoService, startCli } from './helpers.js';

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
    ({ service, user } = await signedInDemoService(configDir));
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
    const notAnOrganization = await cli('projects', 'create', 'Bad', '--framework', 'nodejs', '--organization', 'acme');
    expect([notAnOrganization.code, notAnOrganization.stderr]).toEqual([
      5,
      'error: no organization "acme" among yours — see `sightline-cli organizations list`\n',
    ]);
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
    // Fitted to a terminal, the title gives way last: at 120 columns both it and the linked endpoint show;
    // at 80 the endpoint is left out (and named) so the title keeps its width (before: both cut to 16).
    const fitted = async (columns: string) => {
      const result = await runCli(['issues', 'list', '-o', 'table'], { configDir, env: { COLUMNS: columns } });
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(Number(columns));
      return lines;
    };
    const wide = await fitted('120');
    expect(wide[0]).toMatch(/^hash\s+count\s+lastSeen \(UTC\)\s+linkedName\s+title$/);
    const narrowList = await fitted('80');
    expect(narrowList[0]).toMatch(/^hash\s+count\s+lastSeen \(UTC\)\s+title$/);
    expect(narrowList.slice(issues.length + 1).join(' ')).toBe(
      '(left out to fit 80 columns: linkedName; --fields picks columns, -o json shows all)',
    );
    for (const issue of issues) {
      const startOfTitle = (issue.title as string).slice(0, 30);
      expect(wide.find((line) => line.startsWith(issue.hash as string))).toContain(startOfTitle);
      expect(narrowList.find((line) => line.startsWith(issue.hash as string))).toContain(startOfTitle);
    }
    const picked = await table('issues', 'list', '--fields', 'hash,firstSeen,lastSeen');
    expect(picked.split('\n')[0]).toMatch(/^hash\s+firstSeen \(UTC\)\s+lastSeen \(UTC\)$/);
    // A time copied from a table is read back as UTC, whatever the machine's zone.
    const copied = await runCli(['issues', 'list', '--from', utcSecond(issues[0]!.firstSeen as string), '-o', 'json'], {
      configDir,
      env: { TZ: 'America/New_York' },
    });
    expect(jsonOf<Rows>(copied).map((issue) => issue.hash)).toContain(hash);
    // --since before --to: the hour up to a second after the issue was last seen holds it; the hour before its first sighting does not.
    const lastPlus = new Date(Date.parse(lastSeen) + 1000).toISOString();
    const firstSeen = issues[0]!.firstSeen as string;
    expect((await json('issues', 'list', '--since', '1h', '--to', lastPlus)).map((issue) => issue.hash)).toContain(
      hash,
    );
    expect(
      (await json('issues', 'list', '--since', '1h', '--to', `${firstSeen.slice(0, 19)}Z`)).map((issue) => issue.hash),
    ).not.toContain(hash);
    const twice = await cli('issues', 'list', '--since', '1h', '--from', firstSeen);
    expect([twice.code, twice.stderr]).toEqual([2, expect.stringContaining('--since cannot be combined with --from')]);

    const shown = await json<Record<string, unknown> & { hash: string; stackTrace: string; occurrences: Rows }>(
      'issues',
      'show',
      hash,
    );
    expect(shown.hash).toBe(hash);
    expect(shown.occurrences.length).toBeGreaterThan(0);
    // What the list knows of the issue (same range: show's default is 7 days, the list's 24 h; the demo's data is recent).
    const listed = (await json('issues', 'list', '--since', '7d')).find((issue) => issue.hash === hash)!;
    expect(shown).toMatchObject({
      title: listed.title,
      count: listed.count,
      kind: listed.kind,
      firstSeen: listed.firstSeen,
      lastSeen: listed.lastSeen,
      status: 'open',
    });
    expect(shown.count).toBeGreaterThan(0);
    // The title read as `Type: message` (the demo's are errors with a type).
    expect(`${shown.type}: ${shown.message}`).toBe(listed.title);
    expect(shown).toHaveProperty('topFrame');
    const text = await table('issues', 'show', hash);
    expect(text.split('\n')[0]).toBe(listed.title);
    expect(text).toContain(`status open`);
    expect(text).toContain(
      `count ${listed.count}  first seen ${utcSecond(listed.firstSeen as string)} UTC  last seen ${utcSecond(listed.lastSeen as string)} UTC`,
    );
    expect(text).toMatch(/\ntop in-app frame: \S/);
    // Its occurrences table fits an 80-column terminal too, the trace ids whole; the note names -o json (show takes no --fields).
    const narrow = await runCli(['issues', 'show', hash, '-o', 'table'], { configDir, env: { COLUMNS: '80' } });
    expect(narrow.code, narrow.stderr).toBe(0);
    const occurrenceLines = narrow.stdout.trimEnd().split('\nlatest occurrences')[1]!.split('\n').slice(1);
    for (const line of occurrenceLines) expect(line.length).toBeLessThanOrEqual(80);
    expect(occurrenceLines[1]).toContain(shown.occurrences[0]!.traceId as string);
    expect(narrow.stdout.replaceAll('\n', ' ')).toMatch(
      / \(left out to fit 80 columns: [\w, ]+; -o json shows all\) $/,
    );
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
    // On an 80-column terminal (COLUMNS, as a terminal's width) the table fits it; the ids stay whole.
    const narrow = await runCli(['ai-traces', 'list', '-o', 'table'], { configDir, env: { COLUMNS: '80' } });
    expect(narrow.code, narrow.stderr).toBe(0);
    const narrowLines = narrow.stdout.trimEnd().split('\n');
    for (const line of narrowLines.filter((line) => !line.startsWith('more rows')))
      expect(line.length).toBeLessThanOrEqual(80);
    const tableLines = narrowLines.slice(
      0,
      narrowLines.findIndex((line) => line.startsWith('(left out')),
    );
    expect(tableLines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(
      ai.slice(0, tableLines.length - 1).map((row) => row.id),
    );
    expect(narrow.stdout.replaceAll('\n', ' ')).toMatch(
      / \(left out to fit 80 columns: [\w, ]+; --fields picks columns, -o json shows all\) /,
    );
    // The columns a narrow terminal keeps first: the id, the model and what the call cost.
    expect(tableLines[0]).toMatch(/^id\s+model\s+totalCost\s/);
    // Into a pipe, without COLUMNS: every character, as before.
    expect((await table('ai-traces', 'list')).split('\n')[0]!.length).toBeGreaterThan(80);
    // Costs in dollars and booleans as words, as the dashboard shows them.
    for (const line of costs
      .trim()
      .split('\n')
      .slice(1)
      .filter((row) => !row.startsWith('more rows')))
      expect(line).toMatch(/\s(\$\d+(\.\d+)?|-)\s+(yes|no)$/);
  });

  it('logs query with filters, and a search over more than 24 h without a selector is a usage error naming the flags', async () => {
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
    expect(wide.code).toBe(2);
    expect(wide.stderr).toMatch(/^error: --search over more than 24 hours needs another filter: /);
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

  /** One OTLP/JSON log record of a service through the real ingest route. */
  const sendLog = async (record: { service: string; body: string; atMs: number; observedMs?: number }) => {
    const nanos = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;
    const response = await fetch(new URL('/api/otel/v1/logs', service.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${user.project.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceLogs: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: record.service } }] },
            scopeLogs: [
              {
                logRecords: [
                  {
                    timeUnixNano: nanos(record.atMs),
                    ...(record.observedMs === undefined ? {} : { observedTimeUnixNano: nanos(record.observedMs) }),
                    severityNumber: 9,
                    body: { stringValue: record.body },
                    attributes: [{ key: 'test.case', value: { stringValue: 'read' } }],
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
  };
  /** A usage error (exit 2) whose one line says `message`, and never what only the service names. */
  const expectUsage = (result: { code: number | null; stderr: string }, message: string) => {
    expect([result.code, result.stderr]).toEqual([2, expect.stringContaining(message)]);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/fromDate|toDate|bucketSeconds|serviceName|minSeverity|\(4\d\d\)/);
  };

  it('every flag and argument is checked before the sign-in and the project: exit 2 signed out, with a wrong --project or profile', async () => {
    const signedOut = newConfigDir();
    const cases: Array<[string[], string]> = [
      [['issues', 'show', '0123456789abcdef', '--limit', '0'], '--limit must be a whole number from 1 to 500'],
      [['issues', 'show', 'nothex'], '"nothex" is not an issue hash'],
      [['logs', 'query', '--min-severity', 'bogus'], '--min-severity "bogus" is not a severity'],
      [['logs', 'query', '--attribute', 'novalue'], '--attribute "novalue" is not key=value'],
      [['logs', 'tail', '--interval', '0'], '--interval must be a whole number'],
      [['logs', 'tail', '--since', '5q'], '--since "5q" is not a duration'],
      [['metrics', 'query', 'x', '--bucket', '0'], '--bucket must be a whole number of seconds from 10 to 86400'],
      [['metrics', 'list', '--since', '5q'], '--since "5q" is not a duration'],
      [['issues', 'list', '--since', '5q'], '--since "5q" is not a duration'],
      [['endpoints', 'list', '--page', '0'], '--page must be a whole number'],
      [['endpoints', 'show', 'GET /x', '--from', 'yesterday'], '--from "yesterday" is not a time'],
    ];
    const results = await Promise.all(
      cases.flatMap(([args]) => [runCli(args, { configDir: signedOut }), cli('--project', 'no such project', ...args)]),
    );
    cases.forEach(([args, message], i) => {
      expectUsage(results[2 * i]!, message);
      expect(results[2 * i]!.stderr, args.join(' ')).not.toContain('not signed in');
      expectUsage(results[2 * i + 1]!, message);
    });
    // A profile that does not exist, named by --profile: the argument is still what is reported.
    expectUsage(await cli('--profile', 'two', 'issues', 'show', 'nothex'), '"nothex" is not an issue hash');
    // With -o json, the error is one JSON object saying exit 2.
    const asJson = await runCli(['issues', 'list', '--since', '5q', '-o', 'json'], { configDir: signedOut });
    expect(asJson.code).toBe(2);
    expect(JSON.parse(asJson.stderr)).toMatchObject({
      error: { message: '--since "5q" is not a duration', exitCode: 2 },
    });
  });

  it('input only the service would refuse is a usage error naming the flag: --bucket, a bare --search over 24 h, ranges past 31 days or 1970', async () => {
    const [hash] = (await json('issues', 'list', '--since', '1h')).map((issue) => issue.hash as string);
    const [tooFine, tooCoarse, tooMany, searchWeek, tailSearch, farBack, longSince, before1970, longFromTo, earlyTo] =
      await Promise.all([
        cli('metrics', 'query', 'http.server.active_requests', '--bucket', '1', '--since', '7d'),
        cli('metrics', 'query', 'http.server.active_requests', '--bucket', '86401'),
        cli('metrics', 'query', 'http.server.active_requests', '--bucket', '10', '--since', '7d'),
        cli('logs', 'query', '--search', 'ETIMEDOUT', '--since', '7d'),
        cli('logs', 'tail', '--search', 'ETIMEDOUT', '--since', '25h'),
        cli('issues', 'show', hash!, '--since', '99999999d'),
        cli('issues', 'list', '--since', '32d'),
        cli('issues', 'list', '--from', '1969-12-31T23:00:00Z'),
        cli('issues', 'list', '--from', '2025-01-01', '--to', '2025-03-01'),
        cli('issues', 'list', '--to', '1970-01-01T01:00:00Z'),
      ]);
    expectUsage(tooFine, '--bucket must be a whole number of seconds from 10 to 86400 (1 day), not "1"');
    expectUsage(tooCoarse, '--bucket must be a whole number of seconds from 10 to 86400 (1 day), not "86401"');
    expectUsage(tooMany, '--bucket 10 gives more than 2000 buckets over the range');
    expect(tooMany.stderr).toContain('use --bucket 303 or more');
    const selectors =
      '--search over more than 24 hours needs another filter: --service, --min-severity, --trace-id or --attribute';
    expectUsage(searchWeek, selectors);
    expectUsage(tailSearch, selectors);
    expectUsage(farBack, '--since "99999999d" is longer than 31 days');
    expectUsage(longSince, '--since "32d" is longer than 31 days');
    expectUsage(before1970, '--from "1969-12-31T23:00:00Z" is out of range');
    expectUsage(longFromTo, 'the range from --from to --to is longer than 31 days');
    expectUsage(earlyTo, 'the range starts before 1970');

    // Within the limits the same commands answer.
    const metric = await json<{ bucketSeconds: number }>(
      'metrics',
      'query',
      'http.server.active_requests',
      '--bucket',
      '60',
      '--since',
      '24h',
    );
    expect(metric.bucketSeconds).toBe(60);
    const [withSeverity, daySearch, month] = await Promise.all([
      cli('logs', 'query', '--search', 'ETIMEDOUT', '--since', '7d', '--min-severity', 'info', '-o', 'json'),
      cli('logs', 'query', '--search', 'ETIMEDOUT', '--since', '24h', '-o', 'json'),
      cli('issues', 'list', '--since', '31d', '-o', 'json'),
    ]);
    for (const result of [withSeverity, daySearch, month]) expect(result.code, result.stderr).toBe(0);
  });

  it('--fields: logs tail picks its fields in JSON lines and the table; commands printing one answer refuse it', async () => {
    const detail = await json<{ slowest: Rows }>('endpoints', 'show', 'GET /api/products');
    const [hash] = (await json('issues', 'list', '--since', '1h')).map((issue) => issue.hash as string);
    const refused = await Promise.all([
      cli('issues', 'show', hash!, '--fields', 'hash'),
      cli('endpoints', 'show', 'GET /api/products', '--fields', 'name'),
      cli('traces', 'show', detail.slowest[0]!.id as string, '--fields', 'id'),
      cli('metrics', 'query', 'http.server.active_requests', '--fields', 'time'),
      // A tail that takes the flag runs until stopped: stopped after a while, it would exit 0.
      (async () => {
        const badTail = startCli(['logs', 'tail', '--fields', 'body,nope'], { configDir });
        const timer = setTimeout(() => badTail.child.kill('SIGINT'), 20_000);
        const result = await badTail.exited;
        clearTimeout(timer);
        return result;
      })(),
    ]);
    expectUsage(refused[0]!, 'issues show does not take --fields');
    expectUsage(refused[1]!, 'endpoints show does not take --fields');
    expectUsage(refused[2]!, 'traces show does not take --fields');
    expectUsage(refused[3]!, 'metrics query does not take --fields');
    expectUsage(refused[4]!, 'unknown field nope');

    const jsonTail = startCli(['logs', 'tail', '-o', 'json', '--since', '1h', '--fields', 'service,body'], {
      configDir,
    });
    const tableTail = startCli(['logs', 'tail', '-o', 'table', '--since', '1h', '--fields', 'severity,body'], {
      configDir,
    });
    await Promise.all([jsonTail.waitFor('stdout', /\n.*\n/), tableTail.waitFor('stdout', /\n.*\n/)]);
    jsonTail.child.kill('SIGINT');
    tableTail.child.kill('SIGINT');
    const [jsonLines, tableLines] = await Promise.all([jsonTail.exited, tableTail.exited]);
    expect(jsonLines.code).toBe(0);
    const lines = jsonLines.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(Object.keys(JSON.parse(line) as object)).toEqual(['service', 'body']);
    // That form is the documented one: the help says JSON lines, not an array.
    const help = await cli('logs', 'tail', '--help');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'JSON lines: one object a line, as each log arrives, not an array',
    );
    expect(tableLines.code).toBe(0);
    const table = tableLines.stdout.split('\n');
    expect(table[0]).toBe('severity  body');
    expect(table[1]).toMatch(/^[A-Z]+\d?\s+\S/);
  });

  it('logs tail prints a re-sent record once, whichever copy of it the service answers', async () => {
    const tail = startCli(
      ['logs', 'tail', '-o', 'json', '--since', '5m', '--interval', '1', '--service', 'tail-resend'],
      {
        configDir,
      },
    );
    const atMs = Date.now() - 1000;
    await sendLog({ service: 'tail-resend', body: 'a record sent twice', atMs, observedMs: atMs + 100 });
    await tail.waitFor('stdout', /a record sent twice/);
    // The exporter sends it again: another copy under the same dedup key, observed later. Once the
    // store merges the copies, the service answers the later one.
    await sendLog({ service: 'tail-resend', body: 'a record sent twice', atMs, observedMs: atMs + 5000 });
    await service.services.writer.drain();
    await service.services.telemetry.command('OPTIMIZE TABLE logs FINAL');
    const answered = await service.app.inject({
      method: 'POST',
      url: `/api/logs?projectId=${user.project.id}`,
      headers: { authorization: `Bearer ${user.token}` },
      payload: {
        fromDate: new Date(atMs - 60_000).toISOString(),
        serviceName: 'tail-resend',
        pagination: { page: 1, pageSize: 10 },
      },
    });
    const copies = (answered.json() as { items: Array<{ observedTimestamp: string }> }).items;
    expect(copies).toHaveLength(1);
    expect(Date.parse(copies[0]!.observedTimestamp)).toBe(atMs + 5000);
    // A later record, and two more polls, re-reading the first one (the overlap) in its other copy.
    await sendLog({ service: 'tail-resend', body: 'a record sent after', atMs: Date.now() });
    await tail.waitFor('stdout', /a record sent after/);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    tail.child.kill('SIGINT');
    const result = await tail.exited;
    expect(result.code).toBe(0);
    const bodies = result.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { body: string }).body);
    expect(bodies).toEqual(['a record sent twice', 'a record sent after']);
  });

  it('an upper-case issue hash, --since 0m named as what is wrong, and logs tail starting exactly at --since', async () => {
    const [hash] = (await json('issues', 'list', '--since', '1h')).map((issue) => issue.hash as string);
    const shown = await json<{ hash: string }>('issues', 'show', hash!.toUpperCase());
    expect(shown.hash).toBe(hash);

    const empty = await cli('issues', 'list', '--since', '0m');
    expectUsage(empty, '--since "0m" is an empty range');
    expect(empty.stderr).not.toContain('--from');
    expectUsage(await cli('issues', 'list', '--from', '2999-01-01'), 'the range is empty: --from must be before now');

    // 2 min 3 s ago is older than --since 2m, though within the overlap later polls re-read: never printed.
    const now = Date.now();
    await sendLog({ service: 'tail-since', body: 'older than --since', atMs: now - 123_000 });
    await sendLog({ service: 'tail-since', body: 'within --since', atMs: now - 60_000 });
    await service.services.writer.drain();
    const tail = startCli(
      ['logs', 'tail', '-o', 'json', '--since', '2m', '--interval', '1', '--service', 'tail-since'],
      {
        configDir,
      },
    );
    await tail.waitFor('stdout', /within --since/);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    tail.child.kill('SIGINT');
    const result = await tail.exited;
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { body: string }).body),
    ).toEqual(['within --since']);
  });
});
