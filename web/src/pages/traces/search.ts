/** The URL state of the trace pages: the selected span and the span search. */
import { textParam } from '../../lib/search-params.js';

export interface TraceSearch {
  span?: string;
  q?: string;
}

export interface DistributedTraceSearch extends TraceSearch {
  /** Entities whose spans are shown, by entity id. */
  open?: string[];
}

/** Every key it owns is returned, undefined when unusable (lib/search-params.ts says why). */
export function validateTraceSearch(search: Record<string, unknown>): TraceSearch {
  return { span: textParam(search.span), q: textParam(search.q) };
}

export function validateDistributedTraceSearch(search: Record<string, unknown>): DistributedTraceSearch {
  const open = Array.isArray(search.open)
    ? search.open.filter((id): id is string => typeof id === 'string')
    : typeof search.open === 'string'
      ? [search.open]
      : [];
  return { ...validateTraceSearch(search), open: open.length > 0 ? open : undefined };
}
