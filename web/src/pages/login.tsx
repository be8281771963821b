import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, getRouteApi, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { TextField } from '@/components/ui/input';
import { FormError } from '@/components/ui/form';
import { api, read } from '@/lib/api';
import { providersQuery } from '@/lib/queries';
import { storeSession } from '@/lib/session';
import type { SessionAnswer } from '@/lib/types';
import { AuthForm, AuthLayout, EmailField, SocialSignIn } from './auth-layout';

const route = getRouteApi('/login');

export function LoginPage() {
  const { redirect, error, ended } = route.useSearch();
  const router = useRouter();
  const providers = useQuery(providersQuery);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Come from an invitation link: registering from here joins through it (not a new organization).
  const invitation = redirect?.startsWith('/accept-invitation?')
    ? (new URLSearchParams(redirect.slice(redirect.indexOf('?'))).get('token') ?? undefined)
    : undefined;

  const signIn = useMutation({
    mutationFn: () => read<SessionAnswer>(api.POST('/api/auth/login', { body: { email, password } })),
    onSuccess: (answer) => {
      storeSession(answer.token);
      router.history.replace(redirect ?? '/');
    },
  });

  return (
    <AuthLayout
      title="Sign in to Sightline"
      footer={
        providers.data?.registrationOpen !== false && (
          <>
            New here?{' '}
            <Link to="/register" search={{ invitation }} className="font-medium text-accent hover:underline">
              Create an account
            </Link>
          </>
        )
      }
    >
      {ended && !error && (
        <p role="status" className="rounded-md border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
          Your session ended (it expired or was signed out elsewhere). Sign in again to go back where you were.
        </p>
      )}
      <FormError message={error && `Sign-in failed: ${error}`} />
      <AuthForm
        onSubmit={() => signIn.mutate()}
        error={signIn.error?.message}
        pending={signIn.isPending}
        label="Sign in"
        pendingLabel="Signing in…"
      >
        <EmailField value={email} onValue={setEmail} autoFocus />
        <TextField
          label="Password"
          id="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
          required
        />
        {providers.data?.passwordReset && (
          <Link to="/forgot-password" className="justify-self-end text-xs text-accent hover:underline">
            Forgot your password?
          </Link>
        )}
      </AuthForm>
      <SocialSignIn providers={providers.data} params={{ redirect, invitation }} />
    </AuthLayout>
  );
}
