import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { storeSession } from '@/lib/session';
import { safeRedirect } from '@/router';
import { AuthLayout } from './auth-layout';

/**
 * Social sign-in ends here with `#token=<session token>` (a fragment: it never reaches a server
 * log). The token is stored, the fragment dropped, and the person lands where they started.
 */
export function AuthCallbackPage() {
  const router = useRouter();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const token = fragment.get('token');
    if (!token) {
      setFailed(true);
      return;
    }
    storeSession(token);
    const back = safeRedirect(new URLSearchParams(window.location.search).get('redirect'));
    router.history.replace(back ?? '/');
  }, [router]);
  return (
    <AuthLayout title={failed ? 'Sign-in did not finish' : 'Signing you in…'}>
      {failed ? (
        <Link to="/login" className="text-sm font-medium text-accent hover:underline">
          Back to sign-in
        </Link>
      ) : (
        <p className="text-sm text-muted-foreground">One moment.</p>
      )}
    </AuthLayout>
  );
}
