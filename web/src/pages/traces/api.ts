/**
 * The trace page's first read as a query, shared by the page and its route's loader (which starts
 * it while the page's code loads). A light module: the router imports it into the first bundle.
 */
import { queryOptions, skipToken } from '@tanstack/react-query';
import { api, read } from '@/lib/api';
import type { TraceDetail } from './types';

export const traceQuery = (projectId: string | undefined, id: string) =>
  queryOptions({
    queryKey: ['trace', projectId, id],
    queryFn: projectId
      ? () => read<TraceDetail>(api.GET('/api/traces/{id}', { params: { query: { projectId }, path: { id } } }))
      : skipToken,
  });
