/**
 * The URL state of the endpoint and task pages, validated by their routes. Kept apart from the
 * pages so the router (in the first screen's bundle) does not pull the pages or the chart in.
 */
import type { SortDirection } from '@/components/ui/table';
import { oneOf, pageParam, textParam } from '../../lib/search-params';

export interface ListSearch {
  q?: string;
  sort?: string;
  dir?: SortDirection;
  page?: number;
  root?: 'root' | 'nested';
  group?: 'route';
}

/** The list's URL state; anything malformed is dropped rather than refused (every key returned, see lib/search-params.ts). */
export function parseListSearch(search: Record<string, unknown>): ListSearch {
  return {
    q: textParam(search.q),
    sort: typeof search.sort === 'string' && /^[a-zA-Z]+$/.test(search.sort) ? search.sort : undefined,
    dir: oneOf(['asc', 'desc'], search.dir),
    page: pageParam(search.page),
    root: oneOf(['root', 'nested'], search.root),
    group: oneOf(['route'], search.group),
  };
}

export type CallsTab = 'slowest' | 'failing' | 'recent';

export interface DetailSearch {
  name?: string;
  calls?: CallsTab;
  /** The page of the calls table. */
  page?: number;
}

export function parseDetailSearch(search: Record<string, unknown>): DetailSearch {
  return {
    name: textParam(search.name, 2000),
    calls: oneOf(['failing', 'recent'], search.calls),
    page: pageParam(search.page),
  };
}
