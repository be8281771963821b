/** The URL state of the issue pages (validated here, so a pasted link with junk falls back to defaults). */
import { numberParam, oneOf, pageParam, textParam } from '../../lib/search-params.js';
import { ISSUE_SORTS, type IssueSort } from './types.js';

export type IssueKind = 'exceptions' | 'messages';
/** The status filter of /issues; absent means open. */
export type IssueStatusFilter = 'open' | 'resolved' | 'ignored' | 'all';

export interface IssuesSearch {
  q?: string;
  kind?: IssueKind;
  status?: Exclude<IssueStatusFilter, 'open'>;
  sort?: IssueSort;
  dir?: 'asc' | 'desc';
  page?: number;
}

export interface IssueSearch {
  /** Page of the occurrence list. */
  page?: number;
  /** The selected occurrence: its index on the page (occurrences have no id of their own). */
  occurrence?: number;
  /** Show the trace as received, before symbolication. */
  raw?: boolean;
}

const index = (value: unknown): number | undefined => {
  const number = numberParam(value);
  return Number.isSafeInteger(number) && number >= 0 ? number : undefined;
};

/** Every key it owns is returned, undefined when unusable (lib/search-params.ts says why). */
export function validateIssuesSearch(search: Record<string, unknown>): IssuesSearch {
  return {
    q: textParam(search.q),
    kind: oneOf(['exceptions', 'messages'], search.kind),
    status: oneOf(['resolved', 'ignored', 'all'], search.status),
    sort: oneOf(ISSUE_SORTS, search.sort),
    dir: oneOf(['asc', 'desc'], search.dir),
    page: pageParam(search.page),
  };
}

export function validateIssueSearch(search: Record<string, unknown>): IssueSearch {
  return {
    page: pageParam(search.page),
    occurrence: index(search.occurrence),
    raw: search.raw === true || search.raw === 'true' ? true : undefined,
  };
}
