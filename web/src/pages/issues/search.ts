/** The URL state of the issue pages (validated here, so a pasted link with junk falls back to defaults). */
import { ISSUE_SORTS, type IssueSort } from './types';

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

const positive = (value: unknown): number | undefined => {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isInteger(number) && number >= 1 ? number : undefined;
};
const index = (value: unknown): number | undefined => {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isInteger(number) && number >= 0 ? number : undefined;
};

export function validateIssuesSearch(search: Record<string, unknown>): IssuesSearch {
  const sort = ISSUE_SORTS.find((value) => value === search.sort);
  const page = positive(search.page);
  return {
    ...(typeof search.q === 'string' && search.q !== '' ? { q: search.q } : {}),
    ...(search.kind === 'exceptions' || search.kind === 'messages' ? { kind: search.kind } : {}),
    ...(search.status === 'resolved' || search.status === 'ignored' || search.status === 'all'
      ? { status: search.status }
      : {}),
    ...(sort ? { sort } : {}),
    ...(search.dir === 'asc' || search.dir === 'desc' ? { dir: search.dir } : {}),
    ...(page !== undefined && page > 1 ? { page } : {}),
  };
}

export function validateIssueSearch(search: Record<string, unknown>): IssueSearch {
  const page = positive(search.page);
  const occurrence = index(search.occurrence);
  return {
    ...(page !== undefined && page > 1 ? { page } : {}),
    ...(occurrence !== undefined ? { occurrence } : {}),
    ...(search.raw === true || search.raw === 'true' ? { raw: true } : {}),
  };
}
