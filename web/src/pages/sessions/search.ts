/** The URL state of the sessions pages (DASHBOARD.md §1.1), validated by their routes. */

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

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

export function validateSessionsSearch(search: Record<string, unknown>): SessionsSearch {
  const page = Number(search.page);
  return {
    ...(nonEmpty(search.url) ? { url: search.url } : {}),
    ...(nonEmpty(search.agent) ? { agent: search.agent } : {}),
    ...(search.errors === 'with' || search.errors === 'without' ? { errors: search.errors } : {}),
    ...(search.order === 'asc' ? { order: 'asc' as const } : {}),
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
  };
}

export function validateSessionSearch(search: Record<string, unknown>): SessionSearch {
  const t = Number(search.t);
  return {
    ...(search.t !== undefined && search.t !== '' && Number.isFinite(t) && t >= 0 ? { t } : {}),
    ...(nonEmpty(search.at) && !Number.isNaN(Date.parse(search.at)) ? { at: search.at } : {}),
  };
}
