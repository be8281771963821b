/**
 * The app's one query cache. A module of its own so route loaders can start a page's requests
 * (prefetch) while the page's code is still loading, into the same cache the page then reads.
 */
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';
import { projectsQuery } from './queries';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A refused call (4xx) will not change by asking again; a network blip or 5xx might.
      retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
    },
  },
});

/**
 * Runs `start` (a route loader's prefetches) once `projectId` is known to be one of the user's
 * projects: a pasted link may name a project the user cannot read, or a stale one, which the shell
 * replaces before the page mounts; asking for it first would only earn 403s. Never waits: the
 * page's code loads meanwhile, and the project list is the shell's own request (one cache entry).
 */
export function whenProjectKnown(projectId: string | undefined, start: () => void): void {
  if (projectId === undefined) return;
  queryClient.ensureQueryData(projectsQuery).then(
    (projects) => {
      if (projects.some((project) => project.id === projectId)) start();
    },
    // The shell shows a failed project list itself.
    () => undefined,
  );
}
