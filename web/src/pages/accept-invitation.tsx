import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi } from '@tanstack/react-router';
import { CheckCircle2, CircleHelp, Users } from 'lucide-react';
import { Button, buttonVariants } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/card';
import { ApiError, api, read } from '@/lib/api';
import { meQuery } from '@/lib/queries';
import { sessionToken } from '@/lib/session';
import { AuthLayout, EndState, FormError } from './auth-layout';

const route = getRouteApi('/accept-invitation');

interface Accepted {
  organization: { id: string; name: string; role: string };
}

/**
 * The page of an invitation link (`acceptUrl`, also mailed): a signed-in person accepts into the
 * organization; a signed-out one signs in (and comes back here) or registers with the invitation.
 */
export function AcceptInvitationPage() {
  const { token } = route.useSearch();
  if (!token) {
    return (
      <EndState
        icon={<CircleHelp className="size-8 text-muted-foreground" />}
        title="This invitation link is incomplete"
        text="The link has no invitation token. Open the whole link from the invitation mail, or ask the person who invited you to send it again."
      />
    );
  }
  return sessionToken() === null ? <SignedOut token={token} /> : <Accept token={token} />;
}

function SignedOut({ token }: { token: string }) {
  const here = `/accept-invitation?token=${encodeURIComponent(token)}`;
  return (
    <AuthLayout title="Join your team on Sightline" subtitle="You were invited to an organization. Sign in to accept, or create an account to join it.">
      <div className="grid justify-items-center">
        <Users className="size-8 text-muted-foreground" aria-hidden />
      </div>
      <Link to="/login" search={{ redirect: here }} className={buttonVariants({ variant: 'primary', size: 'lg' })}>
        Sign in to accept
      </Link>
      <Link to="/register" search={{ invitation: token }} className={buttonVariants({ variant: 'secondary', size: 'lg' })}>
        Create an account
      </Link>
    </AuthLayout>
  );
}

function Accept({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const accept = useMutation({
    mutationFn: () => read<Accepted>(api.POST('/api/invitations/accept', { body: { token } })),
    onSuccess: () => queryClient.invalidateQueries(),
  });

  if (accept.data) {
    const { organization } = accept.data;
    return (
      <EndState
        icon={<CheckCircle2 className="size-8 text-success" />}
        title={`You joined ${organization.name}`}
        text={`You are a member with the ${organization.role} role: its projects are in the project switcher.`}
      >
        <Link to="/" className={buttonVariants({ variant: 'primary', size: 'lg' })}>
          Open the dashboard
        </Link>
      </EndState>
    );
  }
  if (accept.error instanceof ApiError && accept.error.status === 404) {
    return (
      <EndState
        icon={<CircleHelp className="size-8 text-muted-foreground" />}
        title="Invitation not found"
        text="This invitation has expired (they last 7 days), was revoked or was used already. Ask an administrator of the organization to invite you again."
      >
        <Link to="/" className={buttonVariants({ variant: 'secondary', size: 'lg' })}>
          Go to the dashboard
        </Link>
      </EndState>
    );
  }
  return (
    <AuthLayout title="Accept the invitation?" subtitle="You were invited to join an organization on Sightline.">
      {me.data ? (
        <p className="text-sm">
          You will join as <span className="font-medium">{me.data.user.name || me.data.user.email}</span>{' '}
          <span className="text-muted-foreground">({me.data.user.email})</span>.
        </p>
      ) : (
        <Skeleton className="h-5" aria-busy="true" />
      )}
      <FormError message={accept.error?.message} />
      <Button size="lg" variant="primary" disabled={accept.isPending} onClick={() => accept.mutate()}>
        {accept.isPending ? 'Accepting…' : 'Accept invitation'}
      </Button>
    </AuthLayout>
  );
}
