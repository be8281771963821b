/**
 * The read of one session, shared by the pages that show it (use-session-replay.ts) and those that
 * only need to know whether it is there (the issue page's session link): one key, one request.
 */
import { queryOptions } from '@tanstack/react-query';
import { api, read } from '@/lib/api';
import type { SessionDetail } from './types';

export const sessionQuery = (projectId: string | undefined, id: string) =>
  queryOptions({
    queryKey: ['session', projectId, id],
    enabled: projectId !== undefined,
    queryFn: () =>
      read<SessionDetail>(
        api.GET('/api/sessions/{id}', { params: { path: { id }, query: { projectId: projectId! } } }),
      ),
  });
