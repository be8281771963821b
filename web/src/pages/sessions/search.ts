/** The URL state of the sessions pages (DASHBOARD.md §1.1), validated by their routes. */
import { numberParam, oneOf, pageParam, textParam } from '../../lib/search-params';

export interface SessionsSearch {
  /** URL contains. */
  url?: string;
  /** Browser or system contains (matched against the raw user agent). */
  agent?: string;
  errors?: 'with' | 'without';
  /** Start time order; newest first when absent. */
  order?: 'asc';
  page?: number;
}

export interface SessionSearch {
  /** Seconds into the replay. */
  t?: number;
  /** An instant to open the replay at (sessionReplayLink), turned into `t` once the recording is read. */
  at?: string;
}

/** Every key it owns is returned, undefined when unusable (lib/search-params.ts says why). */
export function validateSessionsSearch(search: Record<string, unknown>): SessionsSearch {
  return {
    url: textParam(search.url),
    agent: textParam(search.agent),
    errors: oneOf(['with', 'without'], search.errors),
    order: oneOf(['asc'], search.order),
    page: pageParam(search.page),
  };
}

export function validateSessionSearch(search: Record<string, unknown>): SessionSearch {
  const t = numberParam(search.t);
  const at = typeof search.at === 'string' && /^\d{4}-\d{2}-\d{2}/.test(search.at) ? search.at : undefined;
  return {
    t: Number.isFinite(t) && t >= 0 ? t : undefined,
    at: at !== undefined && Number.isFinite(Date.parse(at)) ? at : undefined,
  };
}
