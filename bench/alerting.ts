/**
 * Issue detection and alert evaluation costs, each against a baseline of the same run:
 *
 *   node --import tsx bench/alerting.ts
 *
 * 1. Ingest with new/regression detection against ingest with detection switched off, on the
 *    report-ingest bodies (250 traces and 6 exceptions a frame, 2 frames a body), 16 in flight:
 *    once with recurring issues (the steady state: the open-hash cache answers) and once with
 *    every exception a new issue (each body's hashes go to the metadata store). The "with" time
 *    includes waiting for the background detection to finish.
 * 2. One evaluation pass over 1,000 rules (new issue, regression, issue frequency, endpoint
 *    latency, error rate, metric threshold, log match) against the same reads alone (what the
 *    rules query, at the job's concurrency, without claims and state writes).
 */
import { gzipSync } from 'node:zlib';
import { parseRuleParams, RULE_KINDS, type RuleKind, type RuleParams } from '../src/core/alerts.js';
import { readRule } from '../src/application/alerting/evaluate.js';
import { insertRule } from '../src/store/meta/repositories/alerts.js';
import { buildReportPayload } from './report-payloads.js';
import { sendReports, startBenchService } from './service.js';
import { fmt, report } from './support.js';

const BODIES = Number(process.env.BENCH_ALERT_BODIES ?? 96);
const IN_FLIGHT = 16;
const RULES = 1000;

type Payload = { collectionFrames: Array<{ stackTraces: Array<{ stackTrace: string }> }> };

async function main(): Promise<void> {
  // The job is driven by hand: its timer would evaluate the rules while the baseline reads run.
  const { services, app, owner, close } = await startBenchService('alerting', { ALERTS_INTERVAL_SECONDS: '0' });
  const project = owner.project;
  const detect = services.issues.afterWrite.bind(services.issues);

  const bodiesOf = (seed: number, uniqueIssues: boolean): Buffer[] =>
    Array.from({ length: BODIES }, (_, i) => {
      const payload = buildReportPayload(seed + i, 2) as Payload;
      if (uniqueIssues) {
        for (const [f, frame] of payload.collectionFrames.entries()) {
          for (const [e, exception] of frame.stackTraces.entries())
            exception.stackTrace = exception.stackTrace.replace(/^[^:\n]+/, `BenchError${seed}x${i}x${f}x${e}`);
        }
      }
      return gzipSync(JSON.stringify(payload));
    });
  const send = async (list: Buffer[]): Promise<number> => {
    const started = performance.now();
    await sendReports(app, project.token, list, IN_FLIGHT);
    await services.issues.idle();
    return (performance.now() - started) / 1000;
  };

  await send(bodiesOf(1_000_000, false)); // warm-up, registers the recurring issues
  const lines: Array<[string, string]> = [];
  for (const [label, unique] of [
    ['recurring issues', false],
    ['every exception a new issue', true],
  ] as const) {
    // Alternate off/on passes on fresh bodies; keep the best of each.
    let off = Infinity;
    let on = Infinity;
    for (let pass = 0; pass < 3; pass++) {
      services.issues.afterWrite = () => undefined;
      off = Math.min(off, await send(bodiesOf(2_000_000 + pass * 10_000 + (unique ? 500_000 : 0), unique)));
      services.issues.afterWrite = detect;
      on = Math.min(on, await send(bodiesOf(3_000_000 + pass * 10_000 + (unique ? 500_000 : 0), unique)));
    }
    lines.push(
      [`${label}: without detection`, `${fmt(BODIES / off, 1)} bodies/s (${fmt(off * 1000)} ms for ${BODIES})`],
      [`${label}: with detection`, `${fmt(BODIES / on, 1)} bodies/s (${fmt(on * 1000)} ms)`],
      [`${label}: ratio with / without`, `${fmt(on / off, 2)}x the time`],
    );
  }
  report('Issue detection on the ingest path (bench/alerting.ts)', lines);

  // 1,000 rules over the data just ingested, spread over every kind.
  const now = new Date();
  const paramsOf = (kind: RuleKind, i: number): unknown => {
    switch (kind) {
      case 'issue_frequency':
        return { threshold: 1000 + i, windowMinutes: 5 };
      case 'endpoint_latency':
        return {
          percentile: i % 2 ? 'p95' : 'p99',
          thresholdMs: 10_000,
          windowMinutes: 5,
          ...(i % 3 === 0 ? { endpoint: 'GET /api/products' } : {}),
        };
      case 'error_rate':
        return { thresholdPercent: 90, windowMinutes: 5 };
      case 'metric_threshold':
        return { metric: 'mem.used', aggregation: 'avg', comparator: 'gt', threshold: 1e12, windowMinutes: 5 };
      case 'log_match':
        return { minSeverity: 17, threshold: 10, windowMinutes: 5 };
      default:
        return {};
    }
  };
  const userId = (await services.meta.query<{ id: string }>('SELECT id FROM users LIMIT 1'))[0]!.id;
  const rules: RuleParams[] = [];
  for (let i = 0; i < RULES; i++) {
    const kind = RULE_KINDS[i % RULE_KINDS.length]!;
    const params = parseRuleParams(kind, paramsOf(kind, i));
    rules.push(params);
    await services.meta.transaction((tx) =>
      insertRule(tx, project.id, {
        name: `rule ${i}`,
        kind,
        params,
        channelIds: [],
        enabled: true,
        cooldownSeconds: 0,
        snoozedUntil: null,
        repeatIntervalSeconds: null,
        activityCursor: 0,
        now,
        createdBy: userId,
      }),
    );
  }
  // Baseline: the reads alone, 8 at a time as the job runs them.
  const readsStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < rules.length)
        await readRule(
          { meta: services.meta, telemetry: services.telemetry },
          project.id,
          rules[next++]!,
          0,
          Date.now(),
          'UTC',
        );
    }),
  );
  const readsSeconds = (performance.now() - readsStarted) / 1000;
  const started = performance.now();
  const evaluated = await services.alerts.evaluateDue();
  const jobSeconds = (performance.now() - started) / 1000;
  if (evaluated !== RULES) throw new Error(`evaluated ${evaluated} rules, expected ${RULES}`);
  report('Alert evaluation of 1,000 rules (bench/alerting.ts)', [
    [
      'reads alone (8 at a time)',
      `${fmt(readsSeconds * 1000)} ms (${fmt((readsSeconds * 1000) / RULES, 2)} ms a rule)`,
    ],
    [
      'evaluation pass (claims, reads, state writes)',
      `${fmt(jobSeconds * 1000)} ms (${fmt((jobSeconds * 1000) / RULES, 2)} ms a rule)`,
    ],
    ['ratio pass / reads', `${fmt(jobSeconds / readsSeconds, 2)}x`],
    ['share of the minute one pass takes', `${fmt((100 * jobSeconds) / 60, 1)}%`],
  ]);
  await close();
}

await main();
