/** The saved-dashboard routes as queries and calls, shared by the list, one dashboard, /metrics and home. */
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api, read } from '@/lib/api';
import type { RangeSearch } from '@/lib/time-range';
import type { DashboardDefinition, SavedDashboard } from './types';

/** The search of a link between dashboard pages: the project and range carry over, a page's own state does not. */
export const keepScope = (prev: RangeSearch & { projectId?: string }) => ({
  projectId: prev.projectId,
  range: prev.range,
  from: prev.from,
  to: prev.to,
});

export const dashboardsKey = (projectId: string) => ['dashboards', projectId] as const;
export const dashboardKey = (projectId: string, id: string) => ['dashboards', projectId, id] as const;

export const dashboardsQuery = (projectId: string) =>
  queryOptions({
    queryKey: dashboardsKey(projectId),
    queryFn: async () =>
      (await read<{ dashboards: SavedDashboard[] }>(api.GET('/api/dashboards', { params: { query: { projectId } } })))
        .dashboards,
  });

/**
 * Whether a stored definition stars any widget, read without validating it (home asks this of
 * every dashboard before it loads the starred widgets' code; StarredWidgets validates).
 */
export const hasStarredWidget = (definition: unknown): boolean => {
  const widgets = (definition as { widgets?: unknown } | null)?.widgets;
  return Array.isArray(widgets) && widgets.some((widget) => (widget as { starred?: unknown } | null)?.starred === true);
};

export const dashboardQuery = (projectId: string, id: string) =>
  queryOptions({
    queryKey: dashboardKey(projectId, id),
    queryFn: () =>
      read<SavedDashboard>(api.GET('/api/dashboards/{id}', { params: { query: { projectId }, path: { id } } })),
    // A dashboard that is not there (deleted, another project's id) will not appear by asking again.
    retry: (count, error) =>
      count < 2 && !(error instanceof ApiError && (error.status === 404 || error.status === 400)),
  });

export const createDashboard = (projectId: string, name: string, definition: DashboardDefinition) =>
  read<SavedDashboard>(
    api.POST('/api/dashboards', { params: { query: { projectId } }, body: { name, definition: { ...definition } } }),
  );

export const updateDashboard = (
  projectId: string,
  id: string,
  change: { name?: string; definition?: DashboardDefinition },
) =>
  read<SavedDashboard>(
    api.PUT('/api/dashboards/{id}', {
      params: { query: { projectId }, path: { id } },
      body: {
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.definition ? { definition: { ...change.definition } } : {}),
      },
    }),
  );

export const deleteDashboard = (projectId: string, id: string) =>
  read<{ deleted: boolean }>(api.DELETE('/api/dashboards/{id}', { params: { query: { projectId }, path: { id } } }));

/** Write controls show only for members who may save (the routes answer 403 to read-only members). */
export const canWrite = (role: string | undefined): boolean => role === 'admin' || role === 'write';
