/** The AI traces list's URL state; anything malformed is dropped rather than shown as an error. */
import type { AiSort, AiTracesSearch } from './types';

const SORTS: readonly AiSort[] = ['totalCost', 'recordedAt', 'durationMs', 'totalTokens'];
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

export function parseAiTracesSearch(search: Record<string, unknown>): AiTracesSearch {
  const page = Number(search.page);
  return {
    ...(text(search.q) ? { q: text(search.q) } : {}),
    ...(text(search.model) ? { model: text(search.model) } : {}),
    ...(text(search.provider) ? { provider: text(search.provider) } : {}),
    ...(SORTS.includes(search.sort as AiSort) ? { sort: search.sort as AiSort } : {}),
    ...(search.dir === 'asc' || search.dir === 'desc' ? { dir: search.dir } : {}),
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
  };
}
