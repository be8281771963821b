/**
 * The read commands' queries, shared by the command line and the MCP server: each asks the typed
 * API and answers rows (stable field names) or a detail with its text form.
 */
import type { paths } from '@sightline/api-client';
import { parseStackTrace } from '@sightline/stack-frames';
import { CliError, EXIT } from './errors.js';
import {
  formatTime,
  humanDuration,
  renderTable,
  type DetailView,
  type Json,
  type Row,
  type RowsView,
} from './output.js';
import type { Session } from './session.js';
import type { TimeRange } from './time-range.js';

type Filter = {
  field: string;
  op: 'eq' | 'neq' | 'contains' | 'gt' | 'gte' | 'lt' | 'lte';
  value: string | number | boolean;
};
type JsonBody<P extends keyof paths, M extends 'post' | 'get'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export interface Page {
  page: number;
  pageSize: number;
}

/** The note under a list with more rows, given the next page's number: it names how the caller asks for that page. */
export type MoreNote = (nextPage: number) => string;

/** The CLI's note: its --page flag. */
export const CLI_MORE_NOTE: MoreNote = (nextPage) => `more rows: add --page ${nextPage}`;

export interface ListOptions extends Page {
  search?: string;
  /** Default: the CLI's note (CLI_MORE_NOTE). */
  moreNote?: MoreNote;
}

/** How a detail's text and its hints name what the caller can do next: the CLI's commands and flags by default. */
export interface Terms {
  /** Shows one trace by the id a detail lists. */
  showTrace: string;
  /** Lists the issues (their hashes). */
  listIssues: string;
  /** Lists the endpoints (their names). */
  listEndpoints: string;
  /** A wider time range than the default one. */
  widerRange: string;
}

export const CLI_TERMS: Terms = {
  showTrace: '`traces show <id>`',
  listIssues: '`issues list`',
  listEndpoints: '`endpoints list`',
  widerRange: '--since 7d',
};

/** Where a detail's table columns left out to fit a terminal are (the show commands take no --fields). */
const DETAIL_LEFT_OUT = '-o json shows all';

/** An issue hash, the first column of the issue list: 16 hex digits (the service keys issues by the lower-case spelling). */
export const ISSUE_HASH = /^[0-9a-f]{16}$/i;

/** The ranked lists: issues, endpoints, tasks, AI traces. */
export type ListQuery = (
  session: Session,
  projectId: string,
  range: TimeRange,
  options: ListOptions,
) => Promise<RowsView>;

const moreNote = (answer: { hasMore: boolean; page: number }, note: MoreNote = CLI_MORE_NOTE): string | undefined =>
  answer.hasMore ? note(answer.page + 1) : undefined;

const query = (projectId: string) => ({ params: { query: { projectId } } });

export const listIssues: ListQuery = async (session, projectId, range, options) => {
  const answer = await session.call((api) =>
    api.POST('/api/exception-stack-traces', {
      ...query(projectId),
      body: { ...range, pagination: page(options), search: options.search, orderBy: 'lastSeen', sortDirection: 'desc' },
    }),
  );
  return {
    rows: answer.items.map((item) => ({
      hash: item.hash,
      title: item.title,
      count: item.count,
      kind: item.isMessage ? 'message' : 'error',
      firstSeen: item.firstSeen,
      lastSeen: item.lastSeen,
      linkedKind: item.linked?.kind ?? null,
      linkedId: item.linked?.id ?? null,
      linkedName: item.linked?.name ?? null,
    })),
    columns: ['hash', 'count', 'lastSeen', 'linkedName', 'title'],
    // What the issue is matters more than where it was raised: at 80 columns the endpoint is left out, not cut to a stub.
    priority: ['title'],
    note: moreNote(answer, options.moreNote),
  };
};

/** The top frame of the app, read with the stack-trace reader the dashboard's issue page uses, so both mark the same frame. */
function topAppFrame(stackTrace: string): string | null {
  for (const entry of parseStackTrace(stackTrace).entries)
    if (entry.kind === 'frame' && entry.frame.inApp) return entry.frame.raw.trim().replace(/\s*\n\s*/g, ' ');
  return null;
}

/** "TypeError: x is undefined" as its type and message; a captured message (or a title without a type) is all message. */
function typeAndMessage(title: string, isMessage: boolean): { type: string | null; message: string } {
  const match = isMessage ? null : /^([\w$.]+):\s(.*)$/s.exec(title);
  return match ? { type: match[1]!, message: match[2]! } : { type: null, message: title };
}

/**
 * One issue as the dashboard's issue page reads it: the group from the issue list (title, count,
 * first and last seen, status; the list filtered by hash) and its latest occurrences.
 */
export async function showIssue(
  session: Session,
  projectId: string,
  hash: string,
  range: TimeRange,
  limit: number,
  terms: Terms = CLI_TERMS,
): Promise<DetailView> {
  const [groups, answer] = await Promise.all([
    session.call((api) =>
      api.POST('/api/exception-stack-traces', {
        ...query(projectId),
        body: { ...range, filters: [{ field: 'hash', op: 'eq', value: hash }], pagination: { page: 1, pageSize: 1 } },
      }),
    ),
    session.call((api) =>
      api.POST('/api/exception-stack-traces/{hash}', {
        params: { query: { projectId }, path: { hash } },
        body: { ...range, pagination: { page: 1, pageSize: limit }, orderBy: 'recordedAt', sortDirection: 'desc' },
      }),
    ),
  ]);
  const group = groups.items[0];
  const latest = answer.items[0];
  if (!latest)
    throw new CliError(
      `no occurrences of issue ${hash} in the range`,
      EXIT.notFound,
      `widen the range with ${terms.widerRange}, or check the hash with ${terms.listIssues}`,
    );
  const occurrences: Row[] = answer.items.map((item) => ({
    recordedAt: item.recordedAt,
    traceId: item.traceId,
    linkedKind: item.linked?.kind ?? null,
    linkedName: item.linked?.name ?? null,
    serverName: item.serverName,
    appVersion: item.appVersion,
    sessionId: item.sessionId,
  }));
  const title = group?.title ?? latest.stackTrace.split('\n', 1)[0] ?? '';
  const { type, message } = typeAndMessage(title, latest.isMessage);
  const topFrame = topAppFrame(latest.stackTrace);
  // The group's figures as `issues list` names them; null only if the list and the occurrences disagree (a write between the two reads).
  const json = {
    hash,
    title,
    kind: latest.isMessage ? 'message' : 'error',
    type,
    message,
    status: group?.status ?? null,
    count: group?.count ?? null,
    firstSeen: group?.firstSeen ?? null,
    lastSeen: group?.lastSeen ?? null,
    usersAffected: group?.usersAffected ?? null,
    sessionsAffected: group?.sessionsAffected ?? null,
    linkedKind: group?.linked?.kind ?? null,
    linkedId: group?.linked?.id ?? null,
    linkedName: group?.linked?.name ?? null,
    topFrame,
    stackTrace: latest.stackTrace,
    rawStackTrace: latest.rawStackTrace,
    isMessage: latest.isMessage,
    attributes: latest.attributes,
    occurrences,
  };
  const time = (value: string | null | undefined) => (value ? `${formatTime(value)} UTC` : '-');
  const linked = group?.linked ? `${group.linked.kind} ${group.linked.name ?? group.linked.id}` : null;
  const text = (width?: number) =>
    [
      title || '(empty message)',
      `issue ${hash}  ${json.kind}${type ? ` ${type}` : ''}  status ${json.status ?? '-'}`,
      `count ${json.count ?? '-'}  first seen ${time(json.firstSeen)}  last seen ${time(json.lastSeen)}`,
      ...(linked ? [`linked ${linked}`] : []),
      `top in-app frame: ${topFrame ?? '-'}`,
      '',
      latest.stackTrace,
      '',
      `latest occurrences${answer.hasMore ? ` (first ${answer.items.length})` : ''}:`,
      renderTable(
        { rows: occurrences, columns: ['recordedAt', 'linkedName', 'traceId', 'serverName', 'appVersion'] },
        undefined,
        width,
        DETAIL_LEFT_OUT,
      ),
    ].join('\n');
  return { json: json as Json, text: text(), fitted: text };
}

const endpointRow = (item: JsonBody<'/api/endpoints', 'post'>['items'][number]): Row => ({
  name: item.name,
  requests: item.requests,
  p50Ms: item.p50Ms,
  p95Ms: item.p95Ms,
  p99Ms: item.p99Ms,
  errorRate: item.errorRate,
  clientErrorRate: item.clientErrorRate,
  apdex: item.apdex,
  impact: item.impact,
  serverErrors: item.serverErrors,
  clientErrors: item.clientErrors,
  lastSeen: item.lastSeen,
});

export const listEndpoints: ListQuery = async (session, projectId, range, options) => {
  const answer = await session.call((api) =>
    api.POST('/api/endpoints', {
      ...query(projectId),
      body: { ...range, pagination: page(options), search: options.search },
    }),
  );
  return {
    rows: answer.items.map(endpointRow),
    columns: ['name', 'requests', 'p50Ms', 'p95Ms', 'p99Ms', 'errorRate', 'apdex', 'impact'],
    note: moreNote(answer, options.moreNote),
  };
};

export async function showEndpoint(
  session: Session,
  projectId: string,
  name: string,
  range: TimeRange,
  limit: number,
  terms: Terms = CLI_TERMS,
): Promise<DetailView> {
  const detail = await session.call((api) =>
    api.POST('/api/endpoints/detail', { ...query(projectId), body: { ...range, name, limit } }),
  );
  if (detail.count === 0)
    throw new CliError(
      `no calls of endpoint "${name}" in the range`,
      EXIT.notFound,
      `names are "METHOD /route", see ${terms.listEndpoints}`,
    );
  const traceRow = (trace: (typeof detail.slowest)[number]): Row => ({
    id: trace.id,
    recordedAt: trace.recordedAt,
    durationMs: trace.durationMs,
    statusCode: trace.statusCode,
    serverName: trace.serverName,
  });
  const slowest = detail.slowest.map(traceRow);
  const failing = detail.failing.map(traceRow);
  // The totals as the API names them; the series is for charts and stays out.
  const { series: _series, slowest: _slowest, failing: _failing, ...totals } = detail;
  const json = { ...totals, slowest, failing };
  const ms = (value: number | null) => (value === null ? '-' : humanDuration(value));
  const columns = ['id', 'recordedAt', 'durationMs', 'statusCode', 'serverName'];
  const text = (width?: number) =>
    [
      `${detail.name}: ${detail.count} calls, ${detail.serverErrors} server errors, ${detail.clientErrors} client errors`,
      `p50 ${ms(detail.p50Ms)}  p95 ${ms(detail.p95Ms)}  p99 ${ms(detail.p99Ms)}`,
      '',
      `slowest (see ${terms.showTrace}):`,
      renderTable({ rows: slowest, columns }, undefined, width, DETAIL_LEFT_OUT),
      '',
      'failing:',
      renderTable({ rows: failing, columns }, undefined, width, DETAIL_LEFT_OUT),
    ].join('\n');
  return { json, text: text(), fitted: text };
}

export const listTasks: ListQuery = async (session, projectId, range, options) => {
  const answer = await session.call((api) =>
    api.POST('/api/tasks', {
      ...query(projectId),
      body: { ...range, pagination: page(options), search: options.search },
    }),
  );
  return {
    rows: answer.items.map((item) => ({
      name: item.name,
      count: item.count,
      failures: item.failures,
      p50Ms: item.p50Ms,
      p95Ms: item.p95Ms,
      p99Ms: item.p99Ms,
      rank: item.rank,
      lastSeen: item.lastSeen,
    })),
    columns: ['name', 'count', 'failures', 'p50Ms', 'p95Ms', 'p99Ms', 'lastSeen'],
    note: moreNote(answer, options.moreNote),
  };
};

export const listAiTraces: ListQuery = async (session, projectId, range, options) => {
  const answer = await session.call((api) =>
    api.POST('/api/ai-traces', {
      ...query(projectId),
      body: { ...range, pagination: page(options), search: options.search },
    }),
  );
  return {
    rows: answer.items.map((item) => ({
      id: item.id,
      name: item.name,
      recordedAt: item.recordedAt,
      model: item.model,
      provider: item.provider,
      operation: item.operation,
      durationMs: item.durationMs,
      inputTokens: item.inputTokens,
      outputTokens: item.outputTokens,
      totalCost: item.totalCost,
      finishReason: item.finishReason,
      isError: item.isError,
    })),
    // What a narrow terminal keeps first: the id to show, the model and what the call cost.
    columns: ['id', 'model', 'totalCost', 'durationMs', 'recordedAt', 'name', 'inputTokens', 'outputTokens'],
    note: moreNote(answer, options.moreNote),
  };
};

/**
 * The service refuses free-text search with no other selector over more than 24 hours
 * (src/api/telemetry/logs.ts, FREE_TEXT_LIMIT_MS): the longest range such a search may cover.
 */
export const FREE_TEXT_LIMIT_MS = 24 * 3_600_000;

/** A log search by free text alone, which the service limits to FREE_TEXT_LIMIT_MS. */
export function searchOnly(filters: LogFilters): boolean {
  const selective =
    filters.service !== undefined ||
    filters.minSeverity !== undefined ||
    filters.traceId !== undefined ||
    (filters.attributes ?? []).length > 0;
  return Boolean(filters.search) && !selective;
}

export interface LogFilters {
  service?: string;
  minSeverity?: number;
  traceId?: string;
  search?: string;
  /** key=value pairs on log attributes, each checked by the command (logFilters) before the sign-in. */
  attributes?: string[];
}

export type LogItem = JsonBody<'/api/logs', 'post'>['items'][number];

export const logRow = (item: LogItem): Row => ({
  timestamp: item.timestamp,
  severity: item.severityText,
  severityNumber: item.severityNumber,
  service: item.serviceName,
  body: item.body,
  traceId: item.traceId,
  spanId: item.spanId,
  attributes: item.attributes,
});

export const LOG_COLUMNS = ['timestamp', 'severity', 'service', 'body'];

export async function searchLogs(
  session: Session,
  projectId: string,
  range: TimeRange,
  filters: LogFilters,
  options: Page & { order?: 'asc' | 'desc' },
): Promise<{ items: LogItem[]; hasMore: boolean; page: number }> {
  const attributeFilters: Filter[] = (filters.attributes ?? []).map((pair) => {
    const at = pair.indexOf('=');
    return { field: `attributes.${pair.slice(0, at)}`, op: 'eq', value: pair.slice(at + 1) };
  });
  return session.call((api) =>
    api.POST('/api/logs', {
      ...query(projectId),
      body: {
        ...range,
        serviceName: filters.service,
        minSeverity: filters.minSeverity,
        traceId: filters.traceId,
        search: filters.search,
        filters: attributeFilters.length > 0 ? attributeFilters : undefined,
        orderBy: 'timestamp',
        sortDirection: options.order ?? 'desc',
        pagination: page(options),
      },
    }),
  );
}

export async function queryLogs(
  session: Session,
  projectId: string,
  range: TimeRange,
  filters: LogFilters,
  options: Page & { moreNote?: MoreNote },
): Promise<RowsView> {
  const answer = await searchLogs(session, projectId, range, filters, options);
  return { rows: answer.items.map(logRow), columns: LOG_COLUMNS, note: moreNote(answer, options.moreNote) };
}

type Trace = JsonBody<'/api/traces/{id}', 'get'>;
type Span = Trace['spans'][number];

export async function showTrace(session: Session, projectId: string, id: string): Promise<DetailView> {
  const trace: Trace = await session.call((api) =>
    api.GET('/api/traces/{id}', { params: { query: { projectId }, path: { id } } }),
  );
  return { json: trace as unknown as Json, text: waterfall(trace) };
}

const BAR_WIDTH = 40;

/** The span tree as indented lines with a bar placed on the trace's timeline. */
export function waterfall(trace: Trace): string {
  const starts = trace.spans
    .map((span) => (span.startTime ? Date.parse(span.startTime) : Number.NaN))
    .filter((ms) => !Number.isNaN(ms));
  const recorded = trace.recordedAt ? Date.parse(trace.recordedAt) : Number.NaN;
  const origin = Math.min(...starts, Number.isNaN(recorded) ? Infinity : recorded);
  const end = Math.max(
    origin + trace.durationMs,
    ...trace.spans.map((span) => (span.startTime ? Date.parse(span.startTime) + span.durationMs : 0)),
  );
  const total = Math.max(end - origin, 1e-3);
  const ids = new Set(trace.spans.map((span) => span.spanId));
  const children = new Map<string | null, Span[]>();
  for (const span of trace.spans) {
    const parent = span.parentSpanId !== null && ids.has(span.parentSpanId) ? span.parentSpanId : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const lines: Array<{ label: string; span: Span }> = [];
  const visit = (parent: string | null, depth: number) => {
    const spans = (children.get(parent) ?? []).sort((a, b) => (a.startTime ?? '').localeCompare(b.startTime ?? ''));
    for (const span of spans) {
      lines.push({ label: `${'  '.repeat(depth)}${span.name}`, span });
      visit(span.spanId, depth + 1);
    }
  };
  visit(null, 0);
  // The root row (the trace's own name) and every span label, up to 50 columns; longer ones end in '…'.
  const labelWidth = Math.min(50, Math.max(4, trace.name.length, ...lines.map((line) => line.label.length)));
  const fit = (label: string) =>
    label.length > labelWidth ? `${label.slice(0, labelWidth - 1)}…` : label.padEnd(labelWidth);
  const bar = (startMs: number, durationMs: number) => {
    const from = Math.min(BAR_WIDTH - 1, Math.floor(((startMs - origin) / total) * BAR_WIDTH));
    const width = Math.max(1, Math.round((durationMs / total) * BAR_WIDTH));
    return `${' '.repeat(from)}${'█'.repeat(Math.min(width, BAR_WIDTH - from))}`.padEnd(BAR_WIDTH);
  };
  const header = [
    `${trace.kind} ${trace.name}  ${humanDuration(trace.durationMs)}  status ${trace.statusCode}  ${trace.recordedAt ? `${formatTime(trace.recordedAt)} UTC` : ''}`.trimEnd(),
    `id ${trace.id}${trace.distributedTraceId ? `  distributed trace ${trace.distributedTraceId}` : ''}`,
    '',
    `${'span'.padEnd(labelWidth)}  ${'start'.padStart(9)}  ${'duration'.padStart(9)}  |${' '.repeat(BAR_WIDTH)}|`,
    `${fit(trace.name)}  ${'+0 ms'.padStart(9)}  ${humanDuration(trace.durationMs).padStart(9)}  |${bar(Number.isNaN(recorded) ? origin : recorded, trace.durationMs)}|`,
  ];
  const body = lines.map(({ label, span }) => {
    const start = span.startTime ? Date.parse(span.startTime) : origin;
    const failed = span.statusCode === 2 || span.events.some((event) => event.name === 'exception') ? '  ✗' : '';
    return `${fit(label)}  ${`+${humanDuration(start - origin)}`.padStart(9)}  ${humanDuration(span.durationMs).padStart(9)}  |${bar(start, span.durationMs)}|${failed}`;
  });
  return [...header, ...body].join('\n');
}

/** The metric names with points in the range (GET /api/metrics/discover), with their dimension keys and values. */
export async function listMetrics(session: Session, projectId: string, range: TimeRange): Promise<RowsView> {
  const answer = await session.call((api) =>
    api.GET('/api/metrics/discover', { params: { query: { projectId, ...range } } }),
  );
  return {
    rows: answer.metrics.map((metric) => ({
      name: metric.name,
      points: metric.points,
      lastSeen: metric.lastSeen,
      dimensions: metric.dimensions,
    })),
    columns: ['name', 'points', 'lastSeen', 'dimensions'],
    // A table names the dimension keys; their values (up to 50 each) are in -o json.
    cells: {
      dimensions: (value) =>
        Array.isArray(value)
          ? value.map((dimension) => (isRecord(dimension) ? String(dimension.key) : String(dimension))).join(', ') ||
            '-'
          : '-',
    },
  };
}

const isRecord = (value: Json): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export type Aggregation = NonNullable<
  paths['/api/metrics/query']['post']['requestBody']['content']['application/json']['aggregation']
>;
export const AGGREGATIONS: readonly Aggregation[] = ['avg', 'sum', 'min', 'max', 'count', 'p50', 'p90', 'p95', 'p99'];

export async function queryMetrics(
  session: Session,
  projectId: string,
  range: TimeRange,
  options: { name: string; aggregation?: Aggregation; groupBy?: string[]; bucketSeconds?: number },
): Promise<RowsView & { detail: DetailView; hasPoints: boolean }> {
  const answer = await session.call((api) =>
    api.POST('/api/metrics/query', {
      ...query(projectId),
      body: {
        ...range,
        name: options.name,
        aggregation: options.aggregation,
        groupBy: options.groupBy,
        bucketSeconds: options.bucketSeconds,
      },
    }),
  );
  const seriesLabel = (group: Record<string, string>) =>
    Object.entries(group)
      .map(([key, value]) => `${key}=${value}`)
      .join(',') || 'all';
  const rows: Row[] = answer.series.flatMap((series) =>
    answer.bucketStarts.map((start, i) => ({
      time: new Date(start * 1000).toISOString(),
      series: seriesLabel(series.group),
      value: series.values[i] ?? null,
    })),
  );
  const nonEmpty = rows.filter((row) => row.value !== null);
  const json = {
    name: answer.name,
    aggregation: answer.aggregation,
    bucketSeconds: answer.bucketSeconds,
    series: answer.series.map((series) => ({
      group: series.group,
      points: answer.bucketStarts.map((start, i) => ({
        time: new Date(start * 1000).toISOString(),
        value: series.values[i] ?? null,
      })),
    })),
  };
  const text = (width?: number) =>
    `${answer.name} ${answer.aggregation} per ${answer.bucketSeconds} s (${answer.series.length} series; empty buckets left out)\n${renderTable({ rows: nonEmpty, columns: ['time', 'series', 'value'] }, undefined, width, DETAIL_LEFT_OUT)}`;
  return {
    rows,
    columns: ['time', 'series', 'value'],
    detail: { json, text: text(), fitted: text },
    hasPoints: nonEmpty.length > 0,
  };
}

function page(options: Page): Page {
  return { page: options.page, pageSize: options.pageSize };
}
