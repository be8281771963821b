/**
 * Read API latency over a large store, next to the same aggregation as one raw SQL statement on
 * chDB in the same run. The data set is bench/read-data.ts's (READ_BENCH_ROWS trace rows, default
 * 10 million, over the last 7 days, with spans, exceptions, metric points, logs and sessions). Then every
 * list route is called READ_BENCH_REPEAT times through HTTP (fastify inject, authenticated, with
 * the project scope) for a 24 h and a 7 d range; median and p95 are reported with the raw SQL's
 * median and the ratio. The hourly endpoint rollup is built after the load (READ_BENCH_ROLLUP=0:
 * not), so the endpoint, stats and dashboard routes read whole hours from it.
 *
 * Then READ_BENCH_USERS "users" (default 8; 0: skip) each make READ_BENCH_VISITS visits at once:
 * the dashboard home (stats, dashboard series, top endpoints and newest issues, requested
 * together as the page does) followed by the endpoint list, over 24 h; p50/p95 of every request
 * are set against the same visits made by one user alone. READ_BENCH_ROUTES=0 skips the
 * per-route phase.
 *
 *   READ_BENCH_ROWS=1000000 npm run bench read-api
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bucketSecondsOf } from '../src/api/telemetry/conventions.js';
import { loadConfig } from '../src/config.js';
import { buildApps } from '../src/server/app.js';
import { useServiceHeapGrowth } from '../src/server/garbage-collection.js';
import { openServices } from '../src/server/services.js';
import { observeQueries } from '../src/store/telemetry/queries/run.js';
import { loadReadBenchData } from './read-data.js';
import { fmt, percentile, report, timed } from './support.js';

const REPEAT = Number(process.env.READ_BENCH_REPEAT ?? 11);
const USERS = Number(process.env.READ_BENCH_USERS ?? 8);
const VISITS = Number(process.env.READ_BENCH_VISITS ?? 5);
const WEEK_MS = 7 * 86400_000;

interface Figures {
  median: number;
  p95: number;
  /** Median over the calls of the time the engine spent in the call's statements. */
  engineMedian: number;
  /** Median time of each statement of the call, by its tag. */
  statements: Array<[tag: string, ms: number]>;
}

async function measure(fn: () => Promise<unknown>): Promise<Figures> {
  await fn();
  const samples: number[] = [];
  const engine: number[] = [];
  const byTag = new Map<string, number[]>();
  for (let i = 0; i < REPEAT; i++) {
    let spent = 0;
    observeQueries((tag, seconds) => {
      spent += seconds * 1000;
      byTag.set(tag, [...(byTag.get(tag) ?? []), seconds * 1000]);
    });
    samples.push((await timed(fn)).seconds * 1000);
    observeQueries(null);
    engine.push(spent);
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  return {
    median: percentile(sorted(samples), 0.5),
    p95: percentile(sorted(samples), 0.95),
    engineMedian: percentile(sorted(engine), 0.5),
    statements: [...byTag].map(([tag, values]) => [tag, percentile(sorted(values), 0.5)]),
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-read-'));
  const services = await openServices(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REGISTRATION: 'open', ROLLUP_INTERVAL_SECONDS: '0' }),
  );
  const { app } = await buildApps(services);
  useServiceHeapGrowth(); // as serve() does once the service is ready
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email: 'bench@example.com', password: 'correct horse battery', name: 'Bench' },
  });
  const { token, project } = registered.json() as { token: string; project: { id: string } };
  const engine = services.telemetry;
  const nowMs = Date.now();

  await loadReadBenchData(services, project.id, nowMs, 'read-api');

  // ---- measure ----------------------------------------------------------------------------
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => async () => {
    const response = await app.inject({
      method,
      url: `${url}${url.includes('?') ? '&' : '?'}projectId=${project.id}`,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    if (response.statusCode !== 200)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  };
  // The baseline of each route is the same aggregation, computing the same figures, written as
  // one SQL statement and run directly on chDB: it deduplicates like the route (FINAL; "{final}"
  // in the text), and the same statement without FINAL is reported beside it to show what
  // deduplication costs. What a route adds on top — HTTP, authentication, the project-role
  // lookup, a page's follow-up lookups (stack-trace texts, linked entity names, a session page's
  // counts) — is what the ratio measures.
  const raw = (sql: string, rangeMs: number, final: boolean) => async () => {
    await engine.query(
      sql.replace(/\{final\}/g, final ? ' FINAL' : ''),
      {
        project: project.id,
        fromMs: nowMs - rangeMs,
        toMs: nowMs,
        bucket: bucketSecondsOf({ fromMs: nowMs - rangeMs, toMs: nowMs }),
        tNs: 500_000_000,
      },
      { do_not_merge_across_partitions_select_final: 1 },
    );
  };
  const inRange = (column: string) =>
    `project_id = {project:UUID} AND ${column} >= fromUnixTimestamp64Milli({fromMs:Int64}) AND ${column} < fromUnixTimestamp64Milli({toMs:Int64})`;
  const range = inRange('recorded_at');
  const bucket = 'intDiv(toUnixTimestamp(recorded_at), {bucket:UInt32}) * {bucket:UInt32}';
  const endpointFigures = `count() AS requests, countIf(status_code >= 500) AS server_errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors,
    countIf(NOT streaming) AS latency_requests, countIf(NOT streaming AND duration_ns <= {tNs:Int64}) AS satisfied,
    countIf(NOT streaming AND duration_ns > {tNs:Int64} AND duration_ns <= 4 * {tNs:Int64}) AS tolerating, countIf(streaming) AS streaming_requests,
    quantilesIf(0.5, 0.95, 0.99)(duration_ns, NOT streaming) AS q, max(recorded_at) AS last_seen`;
  const user =
    "if(attributes['user.id'] != '', attributes['user.id'], if(attributes['enduser.id'] != '', attributes['enduser.id'], attributes['userId']))";
  const cases: Array<{
    name: string;
    api: (r: { fromDate: string; toDate: string }) => () => Promise<void>;
    sql: string;
  }> = [
    {
      name: 'POST /api/endpoints',
      api: (r) => call('POST', '/api/endpoints', r),
      sql: `SELECT name, any(route), any(method), ${endpointFigures} FROM endpoints{final} WHERE ${range} GROUP BY name ORDER BY requests DESC LIMIT 10000`,
    },
    {
      name: 'POST /api/endpoints/grouped',
      api: (r) => call('POST', '/api/endpoints/grouped', r),
      sql: `SELECT route, groupUniqArray(method), ${endpointFigures} FROM endpoints{final} WHERE ${range} GROUP BY route ORDER BY requests DESC LIMIT 10000`,
    },
    {
      name: 'POST /api/tasks',
      api: (r) => call('POST', '/api/tasks', r),
      sql: `SELECT name, count() AS n, countIf(status_code >= 500), quantiles(0.5, 0.95, 0.99)(duration_ns), max(recorded_at) FROM tasks{final} WHERE ${range} GROUP BY name ORDER BY n DESC LIMIT 10000`,
    },
    {
      // The page ranked by cost and the totals per model, per day and overall.
      name: 'POST /api/ai-traces',
      api: (r) => call('POST', '/api/ai-traces', r),
      sql: `SELECT (SELECT groupArray(tuple(*)) FROM (SELECT * FROM ai_traces{final} WHERE ${range} ORDER BY total_cost DESC, id LIMIT 50)) AS page,
                   (SELECT groupArray(tuple(*)) FROM (SELECT model, toDate(recorded_at) AS day, any(provider), count(), sum(input_tokens), sum(output_tokens), sum(total_cost) AS cost
                      FROM ai_traces{final} WHERE ${range} GROUP BY GROUPING SETS ((model), (day), ()) ORDER BY cost DESC LIMIT 2000)) AS totals`,
    },
    {
      // Ranked groups with sessions and users affected, first and last seen, the last linked
      // entity and the sparkline; the route then reads the page's texts and linked names.
      name: 'POST /api/exception-stack-traces',
      api: (r) => call('POST', '/api/exception-stack-traces', r),
      sql: `SELECT hash, any(is_message), count() AS n, uniqExactIf(session_id, session_id != toUUID('00000000-0000-0000-0000-000000000000')),
                   uniqExactIf(${user}, ${user} != ''), min(recorded_at), max(recorded_at), argMax(trace_id, recorded_at), argMax(is_task, recorded_at),
                   sumMap([${bucket}], [toUInt64(1)]), count() OVER ()
              FROM exceptions{final} WHERE ${range} GROUP BY hash ORDER BY n DESC, hash LIMIT 50`,
    },
    {
      name: 'POST /api/logs',
      api: (r) => call('POST', '/api/logs', { ...r, pagination: { page: 1, pageSize: 100 } }),
      sql: `SELECT * FROM logs{final} WHERE ${inRange('timestamp')} ORDER BY timestamp DESC, dedup_key LIMIT 101`,
    },
    {
      name: 'POST /api/logs (serviceName, minSeverity)',
      api: (r) =>
        call('POST', '/api/logs', {
          ...r,
          serviceName: 'svc-1',
          minSeverity: 17,
          pagination: { page: 1, pageSize: 100 },
        }),
      sql: `SELECT * FROM logs{final} WHERE ${inRange('timestamp')} AND service_name = 'svc-1' AND severity_number >= 17 ORDER BY timestamp DESC, dedup_key LIMIT 101`,
    },
    {
      // A page of sessions with each one's error and recording-segment counts.
      name: 'POST /api/sessions',
      api: (r) => call('POST', '/api/sessions', r),
      sql: `SELECT s.*, ifNull(e.n, 0), ifNull(g.n, 0)
              FROM (SELECT * FROM sessions{final} WHERE ${inRange('started_at')} ORDER BY started_at DESC, id LIMIT 51) AS s
              LEFT JOIN (SELECT session_id, count() AS n FROM exceptions WHERE project_id = {project:UUID} AND session_id != toUUID('00000000-0000-0000-0000-000000000000')
                           AND recorded_at >= fromUnixTimestamp64Milli({fromMs:Int64}) AND recorded_at < fromUnixTimestamp64Milli({toMs:Int64}) + INTERVAL 2 HOUR GROUP BY session_id) AS e ON e.session_id = s.id
              LEFT JOIN (SELECT session_id, uniqExact(segment_index) AS n FROM session_recordings WHERE project_id = {project:UUID} GROUP BY session_id) AS g ON g.session_id = s.id
             ORDER BY s.started_at DESC, s.id`,
    },
    {
      // p95 per host and bucket, the 50 hosts with the most points.
      name: 'POST /api/metrics/query',
      api: (r) => call('POST', '/api/metrics/query', { ...r, name: 'metric.3', aggregation: 'p95', groupBy: ['host'] }),
      sql: `SELECT grp, t, v FROM (SELECT grp, t, v, dense_rank() OVER (ORDER BY points DESC, grp) AS series_rank FROM (
              SELECT dimensions['host'] AS grp, ${bucket} AS t, quantile(0.95)(value) AS v, sum(count()) OVER (PARTITION BY grp) AS points
                FROM metric_points{final} WHERE ${range} AND name = 'metric.3' GROUP BY grp, t)) WHERE series_rank <= 50 ORDER BY grp, t`,
    },
    {
      // Requests, errors and P95, task runs and failures, exceptions and issues, AI calls and cost, sessions.
      name: 'POST /api/stats',
      api: (r) => call('POST', '/api/stats', r),
      sql: `SELECT * FROM (SELECT count(), countIf(status_code >= 500), countIf(status_code >= 400 AND status_code < 500), quantileIf(0.95)(duration_ns, NOT streaming) FROM endpoints{final} WHERE ${range}) AS e
              CROSS JOIN (SELECT count(), countIf(status_code >= 500) FROM tasks{final} WHERE ${range}) AS t
              CROSS JOIN (SELECT count(), uniqExact(hash) FROM exceptions{final} WHERE ${range}) AS x
              CROSS JOIN (SELECT count(), sum(total_cost) FROM ai_traces{final} WHERE ${range}) AS a
              CROSS JOIN (SELECT uniqExact(id) FROM sessions WHERE ${inRange('started_at')}) AS s`,
    },
    {
      // Per bucket: requests, server errors and P95; exceptions; task runs.
      name: 'GET /api/dashboard',
      api: (r) => call('GET', `/api/dashboard?fromDate=${r.fromDate}&toDate=${r.toDate}`),
      sql: `SELECT 'requests' AS series, ${bucket} AS t, count(), countIf(status_code >= 500), quantile(0.95)(duration_ns) FROM endpoints{final} WHERE ${range} GROUP BY t
            UNION ALL SELECT 'exceptions', ${bucket} AS t, count(), 0, 0 FROM exceptions{final} WHERE ${range} GROUP BY t
            UNION ALL SELECT 'tasks', ${bucket} AS t, count(), 0, 0 FROM tasks{final} WHERE ${range} GROUP BY t`,
    },
  ];
  const lines: Array<[string, string]> = [];
  const failures: string[] = [];
  for (const [label, rangeMs] of process.env.READ_BENCH_ROUTES === '0'
    ? []
    : ([
        ['24 h', 86400_000],
        ['7 d', WEEK_MS],
      ] as const)) {
    const r = { fromDate: new Date(nowMs - rangeMs).toISOString(), toDate: new Date(nowMs).toISOString() };
    for (const c of cases) {
      const api = await measure(c.api(r));
      const base = await measure(raw(c.sql, rangeMs, true));
      const plain = await measure(raw(c.sql, rangeMs, false));
      const ratio = api.median / base.median;
      if (ratio > 2 || api.median > 500) failures.push(`${label} ${c.name}`);
      lines.push([
        `${label}  ${c.name}`,
        `median ${fmt(api.median, 1)} ms  p95 ${fmt(api.p95, 1)} ms | in engine ${fmt(api.engineMedian, 1)} ms (${api.statements.map(([tag, ms]) => `${tag} ${fmt(ms, 1)}`).join(', ')}) | raw SQL (FINAL) median ${fmt(base.median, 1)} ms | ratio ${fmt(ratio, 2)} | raw without FINAL ${fmt(plain.median, 1)} ms`,
      ]);
    }
  }
  if (lines.length > 0) {
    report(
      `read-api: latency over ${REPEAT} calls (fastify inject, authenticated) vs one raw SQL statement on chDB`,
      lines,
    );
    report('read-api: goal (within 2x of raw SQL and under 500 ms median)', [
      ['misses', failures.length === 0 ? 'none' : failures.join('; ')],
    ]);
  }

  // ---- concurrent users -------------------------------------------------------------------
  if (USERS > 0) {
    const day = { fromDate: new Date(nowMs - 86400_000).toISOString(), toDate: new Date(nowMs).toISOString() };
    const home = [
      ['POST /api/stats', call('POST', '/api/stats', day)],
      ['GET /api/dashboard', call('GET', `/api/dashboard?fromDate=${day.fromDate}&toDate=${day.toDate}`)],
      ['POST /api/endpoints', call('POST', '/api/endpoints', day)],
      ['POST /api/exception-stack-traces', call('POST', '/api/exception-stack-traces', day)],
    ] as const;
    const endpointList = call('POST', '/api/endpoints', day);
    /** `users` users make `VISITS` visits each, all at once; every request's milliseconds by route. */
    const visits = async (users: number): Promise<Map<string, number[]>> => {
      const byRoute = new Map<string, number[]>();
      const request = async (route: string, fn: () => Promise<void>) => {
        const { seconds } = await timed(fn);
        byRoute.set(route, [...(byRoute.get(route) ?? []), seconds * 1000]);
      };
      const user = async () => {
        for (let visit = 0; visit < VISITS; visit++) {
          await Promise.all(home.map(([route, fn]) => request(route, fn)));
          await request('POST /api/endpoints (list page)', endpointList);
        }
      };
      await Promise.all(Array.from({ length: users }, user));
      return byRoute;
    };
    await visits(1); // warm
    const alone = await visits(1);
    const together = await visits(USERS);
    const figures = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `p50 ${fmt(percentile(sorted, 0.5), 1)} ms  p95 ${fmt(percentile(sorted, 0.95), 1)} ms`;
    };
    const all = (byRoute: Map<string, number[]>) => [...byRoute.values()].flat();
    report(`read-api: ${USERS} users at once vs one alone, ${VISITS} visits each (home + endpoint list, 24 h)`, [
      ['every request', `alone ${figures(all(alone))} | ${USERS} users ${figures(all(together))}`],
      ...[...alone.keys()].map((route): [string, string] => [
        route,
        `alone ${figures(alone.get(route)!)} | ${USERS} users ${figures(together.get(route)!)}`,
      ]),
    ]);
  }
  await app.close();
  await services.close();
  // READ_BENCH_KEEP=1 leaves the loaded store for inspection (DATA_DIR of a service or a chDB session).
  if (process.env.READ_BENCH_KEEP === '1') process.stdout.write(`\nread-api: store kept in ${dataDir}\n`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}

await main();
