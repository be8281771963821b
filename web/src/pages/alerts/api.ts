/** Queries and calls of the alerting routes, shared by the sections of /alerts. */
import { queryOptions } from '@tanstack/react-query';
import { api, read } from '@/lib/api';
import type { AlertChannel, AlertEvent, AlertRule } from './types';

export const channelsKey = (projectId: string) => ['alert-channels', projectId];
export const rulesKey = (projectId: string) => ['alert-rules', projectId];
export const eventsKey = (projectId: string) => ['alert-events', projectId];

export const channelsQuery = (projectId: string) =>
  queryOptions({
    queryKey: channelsKey(projectId),
    queryFn: async () =>
      (await read<{ items: AlertChannel[] }>(api.GET('/api/alert-channels', { params: { query: { projectId } } })))
        .items,
  });

export const rulesQuery = (projectId: string) =>
  queryOptions({
    queryKey: rulesKey(projectId),
    queryFn: async () =>
      (await read<{ items: AlertRule[] }>(api.GET('/api/alert-rules', { params: { query: { projectId } } }))).items,
  });

/**
 * One page of delivery attempts and people's actions, of every rule or of `ruleId`: `beforeId` is
 * the id of the last event of the previous page.
 */
export const eventsQuery = (
  projectId: string,
  ruleId: string | undefined,
  beforeId: number | undefined,
  limit: number,
) =>
  queryOptions({
    queryKey: [...eventsKey(projectId), ruleId ?? null, beforeId ?? null, limit],
    queryFn: async () =>
      (
        await read<{ items: AlertEvent[] }>(
          api.GET('/api/alert-events', {
            params: {
              query: {
                projectId,
                limit,
                ...(ruleId !== undefined ? { ruleId } : {}),
                ...(beforeId !== undefined ? { beforeId } : {}),
              },
            },
          }),
        )
      ).items,
  });
