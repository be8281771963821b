/**
 * The answer of `POST /api/logs` (src/api/telemetry/logs.ts declares its response schema, so the
 * generated client carries it) and the page's own URL state.
 */
import type { paths } from '@sightline/api-client';

type LogRoute = paths['/api/logs']['post'];
export type LogSearchBody = LogRoute['requestBody']['content']['application/json'];
export type LogPage = LogRoute['responses'][200]['content']['application/json'];
export type LogRecord = LogPage['items'][number];

/** The attribute filter ops a chip offers (a subset of the route's eq/neq/contains/gt/...). */
export type ChipOp = 'eq' | 'neq' | 'contains';

/** One chip: `attributes.<key>` or `resource.<key>`, an op and the text to compare. */
export interface LogFilter {
  field: string;
  op: ChipOp;
  value: string;
}

/** `/logs?…`: every filter of the page, so a reload or a pasted link shows the same rows. */
export interface LogsSearch {
  q?: string;
  severity?: number;
  service?: string;
  traceId?: string;
  filters?: LogFilter[];
  /** The expanded row (its identity, see rowKey). */
  open?: string;
  live?: boolean;
}
