import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api } from './api';
import { clearSession, sessionToken } from './session';

/**
 * Signing out leaves the signed-in pages first (so nothing still polls with the token), forgets
 * the token and every cached answer, then ends the token on the server (POST /api/auth/sign-out,
 * so a copy of it left in this browser's storage or history is refused from then on). The route
 * answers 204 even for a token already ended; if the service cannot be reached the person is
 * signed out here all the same.
 */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    const token = sessionToken();
    await navigate({ to: '/login', search: {} });
    clearSession();
    // Everything the signed-in pages cached goes; the sign-in page's own (public) queries stay.
    queryClient.removeQueries({ type: 'inactive' });
    if (token !== null)
      await api.POST('/api/auth/sign-out', { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
  };
}
