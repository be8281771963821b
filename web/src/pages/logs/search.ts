/**
 * The logs page's URL state: parsing (anything malformed is dropped, never an error page), the
 * route body it becomes, and the stable identity of a log row (logs have no id).
 */
import { flagParam, numberParam, textParam } from '../../lib/search-params.js';
import { SEVERITY_LEVELS, severityLevelOf } from '../../lib/severity.js';
import type { ChipOp, LogFilter, LogRecord, LogSearchBody, LogsSearch } from './types.js';

/** The minimum severities the page offers: every level above TRACE (OpenTelemetry severity numbers). */
export const SEVERITIES = SEVERITY_LEVELS.filter((level) => level.value > 1);

export const CHIP_OPS: ReadonlyArray<{ op: ChipOp; symbol: string; label: string }> = [
  { op: 'eq', symbol: '=', label: 'equals' },
  { op: 'neq', symbol: '≠', label: 'does not equal' },
  { op: 'contains', symbol: '∋', label: 'contains' },
];

const TRACE_ID = /^[0-9a-fA-F]{32}$|^[0-9a-fA-F-]{36}$/;
const FILTER_FIELD = /^(attributes|resource)\..+/;

function parseFilters(value: unknown): LogFilter[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { field, op, value: text } = item as Record<string, unknown>;
    if (typeof field !== 'string' || !FILTER_FIELD.test(field) || typeof text !== 'string') return [];
    if (op !== 'eq' && op !== 'neq' && op !== 'contains') return [];
    return [{ field, op, value: text }];
  });
}

/** Every key it owns is returned, undefined when unusable (lib/search-params.ts says why). */
export function parseLogsSearch(search: Record<string, unknown>): LogsSearch {
  const severity = numberParam(search.severity);
  const traceId = textParam(search.traceId);
  const filters = parseFilters(search.filters);
  return {
    q: textParam(search.q),
    severity: SEVERITIES.some((s) => s.value === severity) ? severity : undefined,
    service: textParam(search.service),
    traceId: traceId && TRACE_ID.test(traceId) ? traceId : undefined,
    filters: filters.length > 0 ? filters : undefined,
    open: textParam(search.open),
    live: flagParam(search.live),
  };
}

/** The route body of the page's filters (without range and pagination). */
export function filterBody(search: LogsSearch): Omit<LogSearchBody, 'pagination'> {
  return {
    ...(search.q ? { search: search.q } : {}),
    ...(search.severity !== undefined ? { minSeverity: search.severity } : {}),
    ...(search.service ? { serviceName: search.service } : {}),
    ...(search.traceId ? { traceId: search.traceId } : {}),
    ...(search.filters?.length ? { filters: search.filters } : {}),
  };
}

/** A short, stable hash (FNV-1a, 32 bit) so a row's identity fits in the URL. */
function hash(value: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i += 1) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/**
 * The identity of a log row across pages and live-tail polls: the same record answered twice
 * (overlapping polls, a page boundary that moved) has the same key.
 */
export function rowKey(row: LogRecord): string {
  const identity = [
    row.timestamp,
    row.observedTimestamp,
    row.serviceName,
    row.traceId,
    row.spanId,
    row.severityNumber,
    row.severityText,
    row.body,
  ].join('\u0000');
  return `${row.timestamp ?? ''}~${hash(identity)}${hash(`${identity}\u0001`)}`;
}

/** A record's severity as a word: its own text, else the name of its number's band. */
export function severityName(row: Pick<LogRecord, 'severityNumber' | 'severityText'>): string {
  if (row.severityText) return row.severityText;
  return severityLevelOf(row.severityNumber)?.name ?? 'UNSET';
}

/** Colour only where it means something: errors red, warnings amber, the rest neutral. */
export function severityTone(severityNumber: number): 'danger' | 'warning' | 'neutral' {
  if (severityNumber >= 17) return 'danger';
  if (severityNumber >= 13) return 'warning';
  return 'neutral';
}

/** `attributes.http.method` → `http.method`; resource attributes keep a prefix to tell them apart. */
export function chipLabel(field: string): string {
  return field.startsWith('attributes.') ? field.slice('attributes.'.length) : field;
}
