/**
 * The app's one query cache. A module of its own so route loaders can start a page's requests
 * (prefetch) while the page's code is still loading, into the same cache the page then reads.
 */
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A refused call (4xx) will not change by asking again; a network blip or 5xx might.
      retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
    },
  },
});
