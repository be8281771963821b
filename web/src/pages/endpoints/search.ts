/**
 * The URL state of the endpoint and task pages, validated by their routes. Kept apart from the
 * pages so the router (in the first screen's bundle) does not pull the pages or the chart in.
 */
import type { SortDirection } from '@/components/ui/table';

export interface ListSearch {
  q?: string;
  sort?: string;
  dir?: SortDirection;
  page?: number;
  root?: 'root' | 'nested';
  group?: 'route';
}

/** The list's URL state; anything malformed is dropped rather than refused. */
export function parseListSearch(search: Record<string, unknown>): ListSearch {
  const page = typeof search.page === 'number' ? search.page : Number(search.page);
  // The router parses `?q=404` as a number.
  const q = typeof search.q === 'number' ? String(search.q) : search.q;
  return {
    ...(typeof q === 'string' && q !== '' ? { q } : {}),
    ...(typeof search.sort === 'string' && /^[a-zA-Z]+$/.test(search.sort) ? { sort: search.sort } : {}),
    ...(search.dir === 'asc' || search.dir === 'desc' ? { dir: search.dir } : {}),
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    ...(search.root === 'root' || search.root === 'nested' ? { root: search.root } : {}),
    ...(search.group === 'route' ? { group: search.group } : {}),
  };
}

export type CallsTab = 'slowest' | 'failing' | 'recent';

export interface DetailSearch {
  name?: string;
  calls?: CallsTab;
}

export function parseDetailSearch(search: Record<string, unknown>): DetailSearch {
  return {
    ...(typeof search.name === 'string' && search.name !== '' ? { name: search.name } : {}),
    ...(search.calls === 'failing' || search.calls === 'recent' ? { calls: search.calls } : {}),
  };
}
