/** `/tasks/detail?name=`: one background task, on the endpoint detail's layout. */
import { api, read } from '@/lib/api';
import { EntityDetailPage, type EntityDetailConfig } from '../endpoints/entity-detail';
import type { CallsPage, EntityDetail } from '../endpoints/types';

const TASK_DETAIL: EntityDetailConfig = {
  feature: 'tasks',
  entity: 'task',
  noun: 'run',
  listPath: '/tasks',
  listLabel: 'Tasks',
  fetchDetail: (scope, body) =>
    read<EntityDetail>(api.POST('/api/tasks/detail', { params: { query: { projectId: scope.projectId } }, body })),
  fetchCalls: (scope, body) =>
    read<CallsPage>(api.POST('/api/tasks/calls', { params: { query: { projectId: scope.projectId } }, body })),
};

export function TaskDetailPage() {
  return <EntityDetailPage config={TASK_DETAIL} />;
}
