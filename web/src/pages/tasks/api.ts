/** Where the task list's rows and chart come from (endpoints/api.ts has the queries both lists share). */
import { api, read } from '@/lib/api';
import type { EntityListSource } from '../endpoints/api';
import type { TaskList, TimeByEntity } from '../endpoints/types';

export type TaskOrder = 'rank' | 'count' | 'failures' | 'p50' | 'p95' | 'p99' | 'name';

export const TASK_SOURCE: EntityListSource<TaskList['items'][number], TaskOrder> = {
  feature: 'tasks',
  sortKeys: ['rank', 'count', 'failures', 'p50', 'p95', 'p99', 'name'],
  defaultSort: { sort: 'rank', dir: 'desc' },
  fetchList: (scope, query) =>
    read<TaskList>(api.POST('/api/tasks', { params: { query: { projectId: scope.projectId } }, body: query })),
  fetchSeries: (scope, query) =>
    read<TimeByEntity>(
      api.POST('/api/tasks/series', { params: { query: { projectId: scope.projectId } }, body: query }),
    ),
};
