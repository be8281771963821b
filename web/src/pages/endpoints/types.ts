/**
 * The answers of the endpoint and task routes, taken from the generated client's schema (these
 * routes declare their responses), so a changed route breaks the build, not the page.
 */
import type { paths } from '@sightline/api-client';

type JsonOf<Path extends keyof paths, Method extends 'get' | 'post'> = paths[Path][Method] extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

export type EndpointList = JsonOf<'/api/endpoints', 'post'>;
export type EndpointItem = EndpointList['items'][number];
export type TaskList = JsonOf<'/api/tasks', 'post'>;
export type TaskItem = TaskList['items'][number];
/** The same shape for endpoints and tasks. */
export type EntityDetail = JsonOf<'/api/endpoints/detail', 'post'>;
export type CallSummary = EntityDetail['slowest'][number];
export type TimeByEntity = JsonOf<'/api/endpoints/series', 'post'>;
export type Overview = JsonOf<'/api/dashboard/overview', 'get'>;
export type DashboardSeries = JsonOf<'/api/dashboard', 'get'>;
export type Stats = JsonOf<'/api/stats', 'post'>;

/** The filters body of the list routes. */
export type Filters = NonNullable<
  NonNullable<paths['/api/endpoints']['post']['requestBody']>['content']['application/json']['filters']
>;
