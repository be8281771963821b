/** The URL state of the trace pages: the selected span and the span search. */
export interface TraceSearch {
  span?: string;
  q?: string;
}

export interface DistributedTraceSearch extends TraceSearch {
  /** Entities whose spans are shown, by entity id. */
  open?: string[];
}

export function validateTraceSearch(search: Record<string, unknown>): TraceSearch {
  return {
    ...(typeof search.span === 'string' && search.span !== '' ? { span: search.span } : {}),
    ...(typeof search.q === 'string' && search.q !== '' ? { q: search.q } : {}),
  };
}

export function validateDistributedTraceSearch(search: Record<string, unknown>): DistributedTraceSearch {
  const open = Array.isArray(search.open)
    ? search.open.filter((id): id is string => typeof id === 'string')
    : typeof search.open === 'string'
      ? [search.open]
      : [];
  return { ...validateTraceSearch(search), ...(open.length > 0 ? { open } : {}) };
}
