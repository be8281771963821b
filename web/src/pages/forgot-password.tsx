import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Skeleton } from '@/components/ui/card';
import { api, read } from '@/lib/api';
import { providersQuery } from '@/lib/queries';
import { AuthForm, AuthLayout, EmailField, EndState } from './auth-layout';

const backToSignIn = (
  <Link to="/login" className="font-medium text-accent hover:underline">
    Back to sign-in
  </Link>
);

/** Asks for a password reset mail (only where the server can send mail: `passwordReset` of the providers). */
export function ForgotPasswordPage() {
  const providers = useQuery(providersQuery);
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: () => read<{ status: 'sent' }>(api.POST('/api/auth/password-reset', { body: { email } })),
  });

  if (request.isSuccess) {
    return (
      <EndState
        outcome="mailed"
        title="Check your mail"
        text={`If ${email} has a Sightline account, a link to choose a new password is on its way. It works once, for a limited time.`}
      >
        <p className="text-center text-sm">{backToSignIn}</p>
      </EndState>
    );
  }
  return (
    <AuthLayout
      title="Reset your password"
      subtitle={
        providers.data?.passwordReset === false
          ? undefined
          : 'Enter the e-mail address of your account; we mail you a link to choose a new password.'
      }
      footer={backToSignIn}
    >
      {providers.isLoading ? (
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      ) : providers.data?.passwordReset === false ? (
        <p className="text-sm text-muted-foreground">
          This server cannot send mail, so passwords are not reset by mail here. Ask the administrator of this Sightline
          installation to set one for you.
        </p>
      ) : (
        <AuthForm
          onSubmit={() => request.mutate()}
          error={request.error?.message}
          pending={request.isPending}
          label="Send reset link"
          pendingLabel="Sending…"
        >
          <EmailField value={email} onValue={setEmail} autoFocus />
        </AuthForm>
      )}
    </AuthLayout>
  );
}
