/**
 * The read benchmarks' data set (`bench/read-api.ts`, `bench/dashboard-pages.ts`): a seeded
 * generator (INSERT ... SELECT over numbers(), every value a cityHash64 of the row number and the
 * seed, so a run is reproducible) loads READ_BENCH_ROWS trace rows (default 10 million: 80%
 * endpoints, 15% tasks, 5% AI traces) over the 7 days before `nowMs` (so about a seventh of every
 * table falls in the last 24 h), with spans (one per trace: a span's trace_id is its endpoint,
 * task or AI trace's id, so every trace has a one-span waterfall), exceptions (1 per 20 traces),
 * metric points (1 per 10), logs (1 per 2) and sessions (1 per 100), in blocks of 1 million rows
 * through the engine, into one project.
 *
 * READ_BENCH_MERGED=1 merges every table's parts afterwards (OPTIMIZE FINAL); READ_BENCH_ROLLUP=0
 * skips building the hourly endpoint rollup. The 10M load takes minutes on the 2-core machine
 * (docs/PERFORMANCE.md); READ_BENCH_ROWS=1000000 for a quick run.
 */
import type { Services } from '../src/application/services.js';
import { fmt, report, timed } from './support.js';

export const READ_BENCH_ROWS = Number(process.env.READ_BENCH_ROWS ?? 10_000_000);
export const READ_BENCH_SEED = Number(process.env.READ_BENCH_SEED ?? 42);
/**
 * `time` (default): each table's rows in time order, so its 1M-row blocks (its parts) cover
 * successive stretches of the week, as ingest writes them; `random`: every block spread over the
 * whole week, so every part overlaps every hour (the worst case for FINAL, which merges
 * overlapping parts; the figures before 2026-11-26 were taken this way).
 */
export const READ_BENCH_ORDER = process.env.READ_BENCH_ORDER === 'random' ? 'random' : 'time';
const BLOCK = 1_000_000;
const WEEK_MS = 7 * 86400_000;

interface BenchTable {
  table: string;
  rows: number;
  /** The row number the table's generator starts at: the entity tables number their traces one after the other. */
  first?: number;
  select: string;
}

/** The id of trace number `n` (an endpoint, task or AI trace, and the trace_id of its span): seeded, not random. */
function traceIdOf(n: string, seed: number): string {
  return `reinterpretAsUUID(concat(reinterpretAsFixedString(cityHash64(${n}, ${seed}, 100)), reinterpretAsFixedString(cityHash64(${n}, ${seed}, 101))))`;
}

function benchTables(rows: number, seed: number, nowMs: number): BenchTable[] {
  const traceId = (n: string) => traceIdOf(n, seed);
  const h = (salt: number) => `cityHash64(number, ${seed}, ${salt})`;
  const [endpoints, tasks, aiTraces] = [Math.round(rows * 0.8), Math.round(rows * 0.15), Math.round(rows * 0.05)];
  // Where in the week a row falls (0 to 1) in time order: a trace by its place in its own table,
  // so a span (numbered as its trace) shares its trace's time; the other tables by their own row number.
  const traceFraction = `multiIf(number < ${endpoints}, number / ${endpoints}, number < ${endpoints + tasks},
    (number - ${endpoints}) / ${tasks}, (number - ${endpoints + tasks}) / ${aiTraces})`;
  const atOf = (fraction: string) =>
    READ_BENCH_ORDER === 'random'
      ? `fromUnixTimestamp64Milli(toInt64(${nowMs} - ${h(1)} % ${WEEK_MS}), 'UTC')`
      : `fromUnixTimestamp64Milli(toInt64(${nowMs - WEEK_MS} + ${fraction} * ${WEEK_MS - 60_000} + ${h(1)} % 60000), 'UTC')`;
  const at = atOf(traceFraction);
  const atOfRow = (tableRows: number) => atOf(`number / ${tableRows}`);
  const common = (_kind: string) =>
    `toUUID({project:String}), ${traceId('number')}, generateUUIDv4(number + 1000000000), toUUID('00000000-0000-0000-0000-000000000000'), true, ${at}`;
  return [
    {
      table: 'endpoints',
      rows: endpoints,
      select: `SELECT ${common('endpoint')}, toInt64(1000000 + ${h(2)} % 400000000) AS duration_ns,
                 concat(['GET','POST','PUT','DELETE'][1 + ${h(3)} % 4], ' /api/r', toString(${h(4)} % 200)) AS name,
                 splitByChar(' ', name)[1], splitByChar(' ', name)[2],
                 toUInt16(if(${h(5)} % 50 = 0, 500, if(${h(5)} % 20 = 1, 404, 200))), 512, '203.0.113.7', ${h(6)} % 100 = 0,
                 concat('api-', toString(${h(7)} % 4)), '1.4.2', map('user.id', toString(${h(8)} % 5000), 'region', 'eu-west-1'), 'report'`,
    },
    {
      table: 'tasks',
      rows: tasks,
      first: endpoints,
      select: `SELECT ${common('task')}, toInt64(1000000 + ${h(2)} % 2000000000), concat('job-', toString(${h(4)} % 30)),
                 toUInt16(if(${h(5)} % 40 = 0, 500, 0)), 'worker-1', '1.4.2', map('queue', toString(${h(8)} % 5)), 'report'`,
    },
    {
      table: 'ai_traces',
      rows: aiTraces,
      first: endpoints + tasks,
      select: `SELECT ${common('ai')}, toInt64(100000000 + ${h(2)} % 9000000000), 'chat',
                 ['gpt-4o','gpt-4o-mini','claude-sonnet','llama-3','mistral'][1 + ${h(3)} % 5] AS model, 'openai', 'chat',
                 ${h(4)} % 4000 AS it, ${h(5)} % 800 AS ot, 0, 0, it * 2.5e-6, ot * 1e-5, it * 2.5e-6 + ot * 1e-5, 'stop', 0, '', '', ${h(6)} % 100 = 0,
                 'api-1', '1.4.2', map(), 'otlp'`,
    },
    {
      table: 'spans',
      rows: rows,
      select: `SELECT toUUID({project:String}), ${traceId('number')}, generateUUIDv4(number + 2000000000), toUUID('00000000-0000-0000-0000-000000000000'),
                 concat('db.query.', toString(${h(2)} % 20)), 'CLIENT', ${at}, toInt64(${h(3)} % 50000000), 0, map('db.system', 'postgresql'), []`,
    },
    {
      table: 'exceptions',
      rows: Math.round(rows / 20),
      select: `SELECT toUUID({project:String}), toFixedString(leftPad(lower(hex(cityHash64(${h(2)} % 500))), 16, '0'), 16) AS hash, toString(number), ${atOfRow(Math.round(rows / 20))},
                 concat('Error', toString(${h(2)} % 500), ': failed\\nhandler()\\n    app/handler.go:', toString(${h(2)} % 500)), '', false,
                 generateUUIDv4(number), false, if(${h(3)} % 3 = 0, generateUUIDv4(${h(4)} % 100000), toUUID('00000000-0000-0000-0000-000000000000')),
                 toUUID('00000000-0000-0000-0000-000000000000'), toUUID('00000000-0000-0000-0000-000000000000'), 'api-1', '1.4.2',
                 map('user.id', toString(${h(5)} % 5000)), 'report'`,
    },
    {
      table: 'metric_points',
      rows: Math.round(rows / 10),
      select: `SELECT toUUID({project:String}), concat('metric.', toString(${h(2)} % 10)), ${atOfRow(Math.round(rows / 10))}, (${h(3)} % 10000) / 100.0,
                 map('host', concat('h', toString(${h(4)} % 8)), 'region', ['eu','us'][1 + ${h(5)} % 2]), 'api-1', toString(number), 'otlp'`,
    },
    {
      table: 'logs',
      rows: Math.round(rows / 2),
      select: `SELECT toUUID({project:String}), ${atOfRow(Math.round(rows / 2))}, ${atOfRow(Math.round(rows / 2))}, [5, 9, 9, 9, 13, 17][1 + ${h(2)} % 6] AS sev, ['DEBUG','INFO','INFO','INFO','WARN','ERROR'][1 + ${h(2)} % 6],
                 concat('request ', toString(number), ' handled by worker ', toString(${h(3)} % 64)), lower(hex(${h(4)})), '', concat('svc-', toString(${h(5)} % 6)),
                 map('tenant', toString(${h(6)} % 50)), map('service.name', 'svc'), toString(number)`,
    },
    {
      table: 'sessions',
      rows: Math.round(rows / 100),
      select: `SELECT toUUID({project:String}), generateUUIDv4(number), ${atOfRow(Math.round(rows / 100))}, NULL, NULL, '198.51.100.1',
                 map('url', concat('https://shop.example/p', toString(${h(2)} % 100)), 'userAgent', ['Firefox/140','Chrome/130','Safari/18'][1 + ${h(3)} % 3]),
                 toUUID('00000000-0000-0000-0000-000000000000'), ${atOfRow(Math.round(rows / 100))}`,
    },
  ];
}

/** Loads the data set into `projectId`'s telemetry, then merges and rolls up as the environment asks; reports under `bench`. */
export async function loadReadBenchData(
  services: Services,
  projectId: string,
  nowMs: number,
  bench: string,
): Promise<void> {
  const engine = services.telemetry;
  const tables = benchTables(READ_BENCH_ROWS, READ_BENCH_SEED, nowMs);
  const load = await timed(async () => {
    for (const { table, rows, first = 0, select } of tables) {
      for (let offset = 0; offset < rows; offset += BLOCK) {
        const count = Math.min(BLOCK, rows - offset);
        await engine.command(
          `INSERT INTO ${table} ${select.replace(/\bnumber\b/g, `(number + ${first + offset})`)} FROM numbers(${count})`,
          { project: projectId },
        );
      }
    }
  });
  // READ_BENCH_MERGED=1: merge every table's parts first (OPTIMIZE FINAL), the steady state a
  // store reaches through background merges; otherwise the figures are of freshly loaded parts.
  const merged = process.env.READ_BENCH_MERGED === '1';
  const merge = await timed(async () => {
    if (merged) for (const { table } of tables) await engine.command(`OPTIMIZE TABLE ${table} FINAL`);
  });
  // The load bypasses ingest, so the job finds its hours as it does for data older than the
  // rollup; READ_BENCH_ROLLUP=0 measures the raw tables alone.
  const withRollup = process.env.READ_BENCH_ROLLUP !== '0';
  const rollup = await timed(async () => (withRollup ? services.rollups.runOnce() : 0));
  report(`${bench}: load (${fmt(READ_BENCH_ROWS)} trace rows, seed ${READ_BENCH_SEED}, ${READ_BENCH_ORDER} order)`, [
    ['parts', merged ? `merged (OPTIMIZE FINAL, ${fmt(merge.seconds, 1)} s)` : 'as loaded (1M-row blocks, unmerged)'],
    [
      'endpoint rollup',
      withRollup ? `${fmt(rollup.result)} hours rolled in ${fmt(rollup.seconds, 1)} s` : 'off (READ_BENCH_ROLLUP=0)',
    ],
    ['load seconds', fmt(load.seconds, 1)],
    ...tables.map((t): [string, string] => [t.table, fmt(t.rows)]),
  ]);
}
