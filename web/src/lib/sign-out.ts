import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { clearSession } from './session';

/**
 * Signing out forgets the session token and every cached answer. The session token itself has no
 * revoke route on the API; it expires after SESSION_TTL_HOURS.
 */
export function useSignOut(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return () => {
    clearSession();
    queryClient.clear();
    void navigate({ to: '/login', search: {} });
  };
}
