import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, getRouteApi, useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { FormError } from '@/components/ui/form';
import { Skeleton } from '@/components/ui/card';
import { TextField } from '@/components/ui/input';
import { NewPasswordField } from '@/components/ui/new-password';
import { ApiError, api, read } from '@/lib/api';
import { invitationQuery, providersQuery } from '@/lib/queries';
import { storeSession } from '@/lib/session';
import type { Answer } from '@/lib/types';
import { Joined } from './accept-invitation';
import { AuthForm, AuthLayout, EmailField, SocialSignIn } from './auth-layout';

const route = getRouteApi('/register');

type Registered = Answer<'/api/auth/register', 'post', 201>;

export function RegisterPage() {
  const { invitation } = route.useSearch();
  const router = useRouter();
  const providers = useQuery(providersQuery);
  const [form, setForm] = useState({ name: '', email: '', password: '', organizationName: '' });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  // With an invitation: its organization, and the invited address filled in.
  const invited = useQuery({ ...invitationQuery(invitation ?? ''), enabled: invitation !== undefined });
  const invitedEmail = invited.data?.email;
  useEffect(() => {
    if (invitedEmail) setForm((current) => (current.email === '' ? { ...current, email: invitedEmail } : current));
  }, [invitedEmail]);

  const register = useMutation({
    mutationFn: () =>
      read<Registered>(
        api.POST('/api/auth/register', {
          body: {
            name: form.name,
            email: form.email,
            password: form.password,
            ...(invitation
              ? { invitationToken: invitation }
              : form.organizationName.trim()
                ? { organizationName: form.organizationName }
                : {}),
          },
        }),
      ),
    onSuccess: (answer) => {
      storeSession(answer.token);
      // Joined through an invitation (no project of their own): <Joined> below takes them there.
      if (answer.project) router.history.replace(`/connection?projectId=${answer.project.id}`);
    },
  });
  if (register.data && !register.data.project) return <Joined organization={register.data.organization} />;

  // The policy, read up front: without an invitation a closed registration shows why, not a form.
  const closed = !invitation && providers.data?.registrationOpen === false;
  return (
    <AuthLayout
      title={
        invitation
          ? `Join ${invited.data?.organization?.name ?? 'your team'} on Sightline`
          : 'Create your Sightline account'
      }
      subtitle={
        invitation
          ? invited.data?.organization?.name
            ? `You were invited to ${invited.data.organization.name} with the ${invited.data.role ?? 'member'} role: create your account to join it.`
            : 'You were invited to an organization: create your account to join it.'
          : 'Your account comes with an organization and a first project.'
      }
      footer={
        <>
          Have an account?{' '}
          <Link to="/login" className="font-medium text-accent hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      {invited.error ? (
        <FormError
          message={
            invited.error instanceof ApiError && invited.error.status === 404
              ? 'This invitation has expired, was revoked or was used already: ask for a new one.'
              : invited.error.message
          }
        />
      ) : providers.isLoading || (invitation && invited.isLoading) ? (
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      ) : closed ? (
        <p className="text-sm text-muted-foreground">
          Registration on this server is by invitation. Ask an administrator of your organization to invite you; the
          invitation link opens this page with everything filled in.
        </p>
      ) : (
        <AuthForm
          onSubmit={() => register.mutate()}
          error={register.error?.message}
          pending={register.isPending}
          label={invitation ? 'Create account and join' : 'Create account'}
          pendingLabel="Creating account…"
        >
          <TextField
            label="Name"
            id="name"
            autoComplete="name"
            value={form.name}
            onValue={set('name')}
            required
            maxLength={200}
            autoFocus
          />
          <EmailField value={form.email} onValue={set('email')} />
          <NewPasswordField label="Password" id="password" value={form.password} onValue={set('password')} />
          {!invitation && (
            <TextField
              label="Organization name (optional)"
              id="organization"
              value={form.organizationName}
              onValue={set('organizationName')}
              maxLength={100}
              placeholder="Your team or company"
            />
          )}
        </AuthForm>
      )}
      {!closed && !invited.error && (
        <SocialSignIn
          providers={providers.data}
          // An existing account's invitation stays open: its page then asks to accept, as after a password sign-in.
          params={{ invitation, redirect: invitation && `/accept-invitation?token=${encodeURIComponent(invitation)}` }}
        />
      )}
    </AuthLayout>
  );
}
