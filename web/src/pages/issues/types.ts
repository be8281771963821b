/**
 * Answers of the issue routes. Both declare their response schema, so the types come from the
 * generated client: a changed route breaks this build, not the page.
 */
import type { paths } from '@sightline/api-client';

export type IssueList = paths['/api/exception-stack-traces']['post']['responses'][200]['content']['application/json'];
export type IssueGroup = IssueList['items'][number];
export type OccurrenceList =
  paths['/api/exception-stack-traces/{hash}']['post']['responses'][200]['content']['application/json'];
export type Occurrence = OccurrenceList['items'][number];

/** The columns the group list can sort by (the route's orderBy allow-list). */
export const ISSUE_SORTS = ['count', 'lastSeen', 'firstSeen', 'usersAffected', 'sessionsAffected'] as const;
export type IssueSort = (typeof ISSUE_SORTS)[number];
