/** The AI traces list's URL state; anything malformed is dropped rather than shown as an error. */
import { oneOf, pageParam, textParam } from '../../lib/search-params';
import type { AiSort, AiTracesSearch } from './types';

const SORTS: readonly AiSort[] = ['totalCost', 'recordedAt', 'durationMs', 'totalTokens'];

/** Every key it owns is returned, undefined when unusable (lib/search-params.ts says why). */
export function parseAiTracesSearch(search: Record<string, unknown>): AiTracesSearch {
  return {
    q: textParam(search.q),
    model: textParam(search.model),
    provider: textParam(search.provider),
    sort: oneOf(SORTS, search.sort),
    dir: oneOf(['asc', 'desc'], search.dir),
    page: pageParam(search.page),
  };
}
