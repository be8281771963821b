/**
 * The answers of the endpoint and task routes, taken from the generated client's schema (these
 * routes declare their responses), so a changed route breaks the build, not the page.
 */
import type { paths } from '@sightline/api-client';
import type { Answer } from '@/lib/types';

export type EndpointList = Answer<'/api/endpoints', 'post'>;
export type EndpointItem = EndpointList['items'][number];
export type TaskList = Answer<'/api/tasks', 'post'>;
export type TaskItem = TaskList['items'][number];
/** The same shape for endpoints and tasks. */
export type EntityDetail = Answer<'/api/endpoints/detail', 'post'>;
/** A page of one endpoint's calls (a task's runs): the same shape for both. */
export type CallsPage = Answer<'/api/endpoints/calls', 'post'>;
export type CallSummary = CallsPage['items'][number];
export type TimeByEntity = Answer<'/api/endpoints/series', 'post'>;
export type Overview = Answer<'/api/dashboard/overview', 'get'>;
export type DashboardSeries = Answer<'/api/dashboard', 'get'>;
export type Stats = Answer<'/api/stats', 'post'>;

/** The filters body of the list routes. */
export type Filters = NonNullable<
  NonNullable<paths['/api/endpoints']['post']['requestBody']>['content']['application/json']['filters']
>;
