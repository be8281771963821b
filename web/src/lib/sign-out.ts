import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api } from './api';
import { clearSession } from './session';

/**
 * Signing out ends the session token on the server first (POST /api/auth/sign-out, so a copy of
 * it left in this browser's storage or history is refused from then on), then forgets it and
 * every cached answer. The route answers 204 even for a token already ended; if the service
 * cannot be reached the person is signed out here all the same.
 */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    await api.POST('/api/auth/sign-out').catch(() => undefined);
    clearSession();
    queryClient.clear();
    await navigate({ to: '/login', search: {} });
  };
}
