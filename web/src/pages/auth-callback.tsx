import { useQuery } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Skeleton } from '@/components/ui/card';
import { meQuery } from '@/lib/queries';
import { storeSession } from '@/lib/session';
import { safeRedirect } from '@/router';
import { Joined } from './accept-invitation';
import { AuthLayout } from './auth-layout';

/** Why a sign-in failed, from an OAuth `error` (RFC 6749 §4.1.2.1) and its `error_description`. */
interface Failure {
  error: string | null;
  description: string | null;
}

/**
 * Social sign-in ends here with `#token=<session token>` (a fragment: it never reaches a server
 * log). The token is stored, the fragment dropped, and the person lands where they started — or,
 * with `joined=<organization id>` (a new account that joined through an invitation, used up now),
 * where registering with the invitation lands: the joined organization (<Joined>). Without a
 * token, the OAuth `error` and `error_description` of the query or the fragment say why.
 */
export function AuthCallbackPage() {
  const router = useRouter();
  const [failed, setFailed] = useState<Failure | null>(null);
  const [joined, setJoined] = useState<string | null>(null);
  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const query = new URLSearchParams(window.location.search);
    const token = fragment.get('token');
    if (!token) {
      const param = (name: string) => query.get(name) || fragment.get(name) || null;
      setFailed({ error: param('error'), description: param('error_description') });
      return;
    }
    storeSession(token);
    const organizationId = fragment.get('joined');
    if (organizationId) {
      window.history.replaceState(null, '', window.location.pathname);
      setJoined(organizationId);
      return;
    }
    const back = safeRedirect(new URLSearchParams(window.location.search).get('redirect'));
    router.history.replace(back ?? '/');
  }, [router]);
  if (joined) return <JoinedOrganization id={joined} />;
  return (
    <AuthLayout title={failed ? 'Sign-in did not finish' : 'Signing you in…'}>
      {failed ? (
        <div className="grid gap-3 text-sm">
          <p role="alert" className="break-words">
            {failed.error === 'access_denied'
              ? 'The sign-in was cancelled or refused at the provider.'
              : failed.error
                ? 'The provider did not sign you in.'
                : 'The provider sent no session back.'}
            {failed.description && <> {failed.description}</>}
            {failed.error && (
              <span className="text-muted-foreground">
                {' '}
                (<code className="font-mono text-xs">{failed.error}</code>)
              </span>
            )}
          </p>
          <Link to="/login" className="font-medium text-accent hover:underline">
            Back to sign-in
          </Link>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">One moment.</p>
      )}
    </AuthLayout>
  );
}

/** The organization a new account joined, by id: its name and the role, from /api/me. */
function JoinedOrganization({ id }: { id: string }) {
  const me = useQuery(meQuery);
  const organization = me.data?.organizations.find((o) => o.id === id);
  if (organization) return <Joined organization={organization} />;
  if (me.data) {
    // Signed in, though the organization is not (or no longer) theirs: the dashboard, as any sign-in.
    return (
      <AuthLayout title="You are signed in">
        <Link to="/" className="font-medium text-accent hover:underline">
          Open the dashboard
        </Link>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={me.isError ? 'Sign-in did not finish' : 'Signing you in…'}>
      {me.isError ? (
        <p role="alert" className="text-sm">
          {me.error.message}
        </p>
      ) : (
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-5" />
          <Skeleton className="h-8" />
        </div>
      )}
    </AuthLayout>
  );
}
