/**
 * Reads the value one rule watches: one bounded query per rule, through the existing read-side
 * functions (endpoint figures, queryMetric, searchLogs) or the issue activity list.
 */
import type { RuleParams } from '../../core/alerts.js';
import { formatInstantInZone } from '../../core/time-zones.js';
import { activityAfter } from '../../store/meta/repositories/issues.js';
import type { MetaTx } from '../../store/meta/types.js';
import type { TelemetryEngine } from '../../store/telemetry/engine.js';
import { busiestIssue, endpointWindow } from '../../store/telemetry/queries/alerts.js';
import { groupTexts } from '../../store/telemetry/queries/exceptions.js';
import { searchLogs } from '../../store/telemetry/queries/logs.js';
import { Filters, type Filter } from '../../store/telemetry/queries/filters.js';
import { METRIC_FILTERS, queryMetric } from '../../store/telemetry/queries/metrics.js';

const DAY_MS = 86_400_000;
/** Signals read per event-rule evaluation (the rest are read on the next one). */
const MAX_SIGNALS = 50;
/**
 * A metric bucket wider than any timestamp (epoch seconds / 4e9 = 0 until the year 2096), so
 * queryMetric aggregates the whole window into one value.
 */
const WHOLE_WINDOW_BUCKET = 4_000_000_000;

export interface Reading {
  /** The value compared with the threshold, or for event rules the number of new signals. */
  value: number | null;
  /** Event rules: something happened since the cursor. Threshold rules: the value breaches (decided by the caller). */
  title: string;
  lines: string[];
  /** Event rules: the cursor after the signals read. */
  cursor?: number;
  /** A dashboard path to open. */
  path: string;
  /** That page's URL state (its search params), so the link opens on what the rule watched. */
  query?: Record<string, string>;
}

/**
 * The minimum severities the logs page's URL accepts (web/src/pages/logs/search.ts SEVERITIES);
 * any other number is dropped there, so a rule's is lowered to the level at or below it.
 */
const LOGS_PAGE_SEVERITIES = [21, 17, 13, 9, 5] as const;

/** Text as the dashboard's URL writes it: quoted when it starts like JSON (web/src/lib/search-params.ts stringifySearch). */
const urlText = (text: string) => (/^["[{]/.test(text) ? JSON.stringify(text) : text);

/** The logs page's URL state for a log-match rule read over `range`: its search, severity, service and window. */
export function logsPageQuery(
  params: Extract<RuleParams, { kind: 'log_match' }>,
  range: { fromMs: number; toMs: number },
): Record<string, string> {
  const severity =
    params.minSeverity === null ? undefined : LOGS_PAGE_SEVERITIES.find((level) => level <= params.minSeverity!);
  return {
    ...(params.search !== null ? { q: urlText(params.search) } : {}),
    ...(severity !== undefined ? { severity: String(severity) } : {}),
    ...(params.serviceName !== null ? { service: urlText(params.serviceName) } : {}),
    ...windowQuery(range),
  };
}

/**
 * The alert's window as every telemetry page's URL carries it, so a link shows the figures the
 * alert read (before: the endpoint, issue and metric links opened on the last 24 hours, where a
 * 5-minute error rate of 14% reads as 1%).
 */
const windowQuery = (range: { fromMs: number; toMs: number }) => ({
  from: new Date(range.fromMs).toISOString(),
  to: new Date(range.toMs).toISOString(),
});

/** An endpoint rule's page: the endpoint's own (on its failing calls for an error rate), else the list. */
function endpointLink(endpoint: string | null, calls: 'failing' | null, range: { fromMs: number; toMs: number }) {
  if (endpoint === null) return { path: '/endpoints', query: windowQuery(range) };
  return {
    path: '/endpoints/detail',
    query: { name: urlText(endpoint), ...(calls ? { calls } : {}), ...windowQuery(range) },
  };
}

export async function readRule(
  deps: { meta: MetaTx; telemetry: TelemetryEngine },
  projectId: string,
  params: RuleParams,
  cursor: number,
  nowMs: number,
  /** The organization's: the lines write an issue's time in it. */
  timeZone: string,
): Promise<Reading> {
  if (params.kind === 'new_issue' || params.kind === 'regression') {
    const kind = params.kind === 'new_issue' ? 'new' : 'regressed';
    const signals = await activityAfter(deps.meta, projectId, kind, cursor, MAX_SIGNALS);
    const label = params.kind === 'new_issue' ? 'New issue' : 'Regression';
    // What each issue is (its trace's first line: type and message), so the notification says what
    // fired (before: only its hash). Read over the day before the first signal: an occurrence is
    // recorded before it is detected, by up to a client's delay in sending.
    const texts =
      signals.length === 0
        ? new Map<string, string>()
        : await groupTexts(
            deps.telemetry,
            projectId,
            signals.map((signal) => signal.hash),
            { fromMs: Math.min(...signals.map((signal) => signal.at.getTime())) - DAY_MS, toMs: nowMs + 60_000 },
          );
    const what = (hash: string) => texts.get(hash)?.split('\n', 1)[0]?.trim().slice(0, 150) || null;
    return {
      value: signals.length,
      title:
        signals.length === 1
          ? `${label}: ${what(signals[0]!.hash) ?? signals[0]!.hash}`
          : `${signals.length} ${params.kind === 'new_issue' ? 'new issues' : 'regressions'}`,
      lines: signals.map(
        (signal) =>
          `${label} ${signal.hash}${what(signal.hash) ? `: ${what(signal.hash)}` : ''} at ${formatInstantInZone(signal.at, timeZone, 'second')}${typeof signal.detail.version === 'string' ? ` (version ${signal.detail.version})` : ''}`,
      ),
      cursor: signals.at(-1)?.id ?? cursor,
      path: signals.length === 1 ? `/issues/${signals[0]!.hash}` : '/issues',
    };
  }
  const range = { fromMs: nowMs - params.windowMinutes * 60_000, toMs: nowMs };
  const window = `the last ${params.windowMinutes} min`;
  switch (params.kind) {
    case 'issue_frequency': {
      const top = await busiestIssue(deps.telemetry, projectId, range, params.hash);
      return {
        value: top?.count ?? 0,
        title: `Issue ${top?.hash ?? params.hash ?? ''} occurred ${top?.count ?? 0} times in ${window}`,
        lines: [`threshold: ${params.threshold} occurrences`],
        path: top ? `/issues/${top.hash}` : '/issues',
        query: windowQuery(range),
      };
    }
    case 'endpoint_latency': {
      const figures = await endpointWindow(deps.telemetry, projectId, range, params.endpoint);
      const value = params.percentile === 'p95' ? figures.p95Ms : figures.p99Ms;
      const what = params.endpoint ?? 'all endpoints';
      return {
        value,
        title: `${params.percentile.toUpperCase()} of ${what} is ${value === null ? 'unknown' : `${Math.round(value)} ms`} over ${window}`,
        lines: [`threshold: ${params.thresholdMs} ms`, `requests: ${figures.requests}`],
        ...endpointLink(params.endpoint, null, range),
      };
    }
    case 'error_rate': {
      const figures = await endpointWindow(deps.telemetry, projectId, range, params.endpoint);
      const value = figures.requests >= params.minRequests ? (100 * figures.serverErrors) / figures.requests : null;
      return {
        value,
        title: `Error rate of ${params.endpoint ?? 'all endpoints'} is ${value === null ? 'unknown' : `${value.toFixed(1)}%`} over ${window}`,
        lines: [
          `threshold: ${params.thresholdPercent}%`,
          `requests: ${figures.requests}, server errors: ${figures.serverErrors}`,
        ],
        ...endpointLink(params.endpoint, 'failing', range),
      };
    }
    case 'metric_threshold': {
      const series = await queryMetric(deps.telemetry, projectId, {
        range,
        bucketSeconds: WHOLE_WINDOW_BUCKET,
        name: params.metric,
        aggregation: params.aggregation,
        groupBy: [],
        filters: Filters.parse(params.filters as Filter[], METRIC_FILTERS),
      });
      const value = series[0]?.points[0]?.value ?? null;
      return {
        value,
        title: `${params.aggregation}(${params.metric}) is ${value === null ? 'unknown' : value} over ${window}`,
        lines: [`condition: ${params.comparator} ${params.threshold}`],
        path: '/metrics',
        query: {
          metric: urlText(params.metric),
          ...(params.aggregation !== 'avg' ? { aggregation: params.aggregation } : {}),
          // The explorer reads its filters as JSON in the URL (web/src/pages/metrics/search.ts).
          ...(params.filters.length > 0 ? { filters: JSON.stringify(params.filters) } : {}),
          ...windowQuery(range),
        },
      };
    }
    case 'log_match': {
      // A page of `threshold` logs says whether there are at least that many, without counting all.
      const page = await searchLogs(deps.telemetry, projectId, {
        range,
        search: params.search ?? undefined,
        minSeverity: params.minSeverity ?? undefined,
        serviceName: params.serviceName ?? undefined,
        orderBy: 'timestamp',
        direction: 'desc',
        page: 1,
        pageSize: params.threshold,
      });
      const value = page.items.length + (page.hasMore ? 1 : 0);
      const sample = page.items[0]?.body;
      return {
        value,
        title: `${page.hasMore ? `More than ${page.items.length}` : value} log${value === 1 ? '' : 's'} matched in ${window}`,
        lines: [`threshold: ${params.threshold}`, ...(sample ? [`latest: ${sample.slice(0, 300)}`] : [])],
        path: '/logs',
        query: logsPageQuery(params, range),
      };
    }
  }
  throw new Error(`unknown rule kind ${(params as { kind: string }).kind}`);
}
