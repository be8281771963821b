import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Users } from 'lucide-react';
import { FormError } from '@/components/ui/form';
import { Button, buttonVariants } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/card';
import { ApiError, api, read } from '@/lib/api';
import { rememberProject } from '@/lib/current-project';
import { invitationQuery, meQuery, projectsQuery } from '@/lib/queries';
import { sessionToken } from '@/lib/session';
import type { InvitationPreview } from '@/lib/types';
import { AuthLayout, EndState } from './auth-layout';

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
        outcome="unknown"
        title="This invitation link is incomplete"
        text="The link has no invitation token. Open the whole link from the invitation mail, or ask the person who invited you to send it again."
      />
    );
  }
  return <Invitation token={token} />;
}

function Invitation({ token }: { token: string }) {
  const invitation = useQuery(invitationQuery(token));
  if (invitation.error) return <NotFound error={invitation.error} />;
  if (!invitation.data) {
    return (
      <AuthLayout title="Opening the invitation…">
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-5" />
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      </AuthLayout>
    );
  }
  return sessionToken() === null ? (
    <SignedOut token={token} invitation={invitation.data} />
  ) : (
    <Accept token={token} invitation={invitation.data} />
  );
}

function NotFound({ error }: { error: Error }) {
  if (!(error instanceof ApiError && error.status === 404)) {
    return <EndState outcome="unknown" title="Could not open the invitation" text={error.message} />;
  }
  return (
    <EndState
      outcome="unknown"
      title="Invitation not found"
      text="This invitation has expired (they last 7 days), was revoked or was used already. Ask an administrator of the organization to invite you again."
    >
      <Link to="/" className={buttonVariants({ variant: 'secondary', size: 'lg' })}>
        Go to the dashboard
      </Link>
    </EndState>
  );
}

function SignedOut({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const here = `/accept-invitation?token=${encodeURIComponent(token)}`;
  return (
    <AuthLayout
      title={`Join ${invitation.organization?.name ?? 'your team'} on Sightline`}
      subtitle={`${invitation.email ?? 'You'} ${invitation.email ? 'was' : 'were'} invited with the ${invitation.role ?? 'member'} role. Sign in to accept, or create an account to join.`}
    >
      <div className="grid justify-items-center">
        <Users className="size-8 text-muted-foreground" aria-hidden />
      </div>
      <Link to="/login" search={{ redirect: here }} className={buttonVariants({ variant: 'primary', size: 'lg' })}>
        Sign in to accept
      </Link>
      <Link
        to="/register"
        search={{ invitation: token }}
        className={buttonVariants({ variant: 'secondary', size: 'lg' })}
      >
        Create an account
      </Link>
    </AuthLayout>
  );
}

function Accept({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const accept = useMutation({
    mutationFn: () => read<Accepted>(api.POST('/api/invitations/accept', { body: { token } })),
    // The new organization's projects and membership; not the invitation, which is used up now.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: ['projects'] }),
      ]),
  });

  if (accept.data) return <Joined organization={accept.data.organization} />;
  if (accept.error instanceof ApiError && accept.error.status === 404) return <NotFound error={accept.error} />;
  return (
    <AuthLayout
      title={`Join ${invitation.organization?.name ?? 'the organization'}?`}
      subtitle={`You were invited with the ${invitation.role ?? 'member'} role.`}
    >
      {me.data ? (
        <div className="grid gap-0.5 text-sm">
          <p className="text-muted-foreground">You will join as</p>
          <p className="font-medium">{me.data.user.name || me.data.user.email}</p>
          <p className="break-all text-muted-foreground">{me.data.user.email}</p>
          {invitation.email && invitation.email.toLowerCase() !== me.data.user.email.toLowerCase() && (
            <p className="mt-2 text-muted-foreground">The invitation was sent to {invitation.email}.</p>
          )}
        </div>
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

/**
 * Where a person lands who just joined an organization (accepted an invitation, or registered with
 * one): its first project's overview, made the current project — not the project they last used,
 * which for someone who registered before accepting is their own empty first project. An
 * organization without projects gets a page that says so instead.
 */
export function Joined({ organization }: { organization: { id: string; name: string; role: string } }) {
  const router = useRouter();
  // Read again: the list cached before the acceptance lacks the organization's projects.
  const projects = useQuery({ ...projectsQuery, refetchOnMount: 'always' });
  const first = projects.isFetching ? undefined : projects.data?.find((p) => p.organizationId === organization.id);
  useEffect(() => {
    if (!first) return;
    rememberProject(first.id);
    router.history.replace(`/?projectId=${encodeURIComponent(first.id)}`);
  }, [first, router]);

  if (projects.error && !projects.isFetching) {
    return (
      <EndState outcome="done" title={`You joined ${organization.name}`} text={projects.error.message}>
        <Link to="/" className={buttonVariants({ variant: 'primary', size: 'lg' })}>
          Open the dashboard
        </Link>
      </EndState>
    );
  }
  if (projects.isFetching || !projects.data || first) {
    return (
      <AuthLayout title={`Opening ${organization.name}…`}>
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-5" />
          <Skeleton className="h-8" />
        </div>
      </AuthLayout>
    );
  }
  const mayCreate = organization.role === 'admin' || organization.role === 'write';
  const others = projects.data.length > 0;
  return (
    <EndState
      outcome="done"
      title={`You joined ${organization.name}`}
      text={`${organization.name} has no projects yet. ${
        mayCreate
          ? 'With your role you can create its first one.'
          : 'A member with the write or admin role creates them; they will appear in the project switcher.'
      }`}
    >
      {/* Never a dead end: home lists the person's organizations and offers Create project where they may. */}
      <Link to="/" className={buttonVariants({ variant: others ? 'secondary' : 'primary', size: 'lg' })}>
        {others ? 'Open your other projects' : 'Open the dashboard'}
      </Link>
    </EndState>
  );
}
