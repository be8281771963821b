/** `/endpoints/detail?name=`: one endpoint (DASHBOARD.md §3). */
import { api, read } from '@/lib/api';
import { EntityDetailPage, type EntityDetailConfig } from './entity-detail';
import type { CallsPage, EndpointList, EntityDetail } from './types';

const ENDPOINT_DETAIL: EntityDetailConfig = {
  feature: 'endpoints',
  entity: 'endpoint',
  noun: 'call',
  listPath: '/endpoints',
  listLabel: 'Endpoints',
  fetchDetail: (scope, body) =>
    read<EntityDetail>(api.POST('/api/endpoints/detail', { params: { query: { projectId: scope.projectId } }, body })),
  fetchCalls: (scope, body) =>
    read<CallsPage>(api.POST('/api/endpoints/calls', { params: { query: { projectId: scope.projectId } }, body })),
  // The detail route has no Apdex; the list route scores it, narrowed to this one name.
  fetchApdex: async (scope, range, name) => {
    const list = await read<EndpointList>(
      api.POST('/api/endpoints', {
        params: { query: { projectId: scope.projectId } },
        body: { ...range, filters: [{ field: 'name', op: 'eq', value: name }] },
      }),
    );
    return list.items[0]?.apdex ?? null;
  },
};

export function EndpointDetailPage() {
  return <EntityDetailPage config={ENDPOINT_DETAIL} />;
}
