import { useMutation } from '@tanstack/react-query';
import { Link, getRouteApi, useRouter } from '@tanstack/react-router';
import { toast } from '@/components/shell/toasts';
import { buttonVariants } from '@/components/ui/button';
import { NewPasswordFields, useNewPassword } from '@/components/ui/new-password';
import { api, read } from '@/lib/api';
import { storeSession } from '@/lib/session';
import type { SessionAnswer } from '@/lib/types';
import { AuthForm, AuthLayout, EndState } from './auth-layout';

const route = getRouteApi('/reset-password');

/** The page of a mailed reset link: choose a new password, which also signs in. */
export function ResetPasswordPage() {
  const { token } = route.useSearch();
  const router = useRouter();
  const newPassword = useNewPassword();
  const { mismatch } = newPassword;
  const reset = useMutation({
    mutationFn: () =>
      read<SessionAnswer>(
        api.POST('/api/auth/password-reset/confirm', { body: { token: token ?? '', password: newPassword.password } }),
      ),
    onSuccess: (answer) => {
      storeSession(answer.token);
      toast.success('Password changed; you are signed in');
      router.history.replace('/');
    },
  });
  if (!token) {
    return (
      <EndState
        outcome="unknown"
        title="This reset link is incomplete"
        text="The link has no reset token. Open the whole link from the mail, or ask for a new one."
      >
        <Link to="/forgot-password" className={buttonVariants({ variant: 'primary', size: 'lg' })}>
          Ask for a new link
        </Link>
      </EndState>
    );
  }
  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="Signing in with the new password ends your other sessions and CLI logins."
      footer={
        <Link to="/forgot-password" className="font-medium text-accent hover:underline">
          Ask for a new link
        </Link>
      }
    >
      <AuthForm
        onSubmit={() => !mismatch && reset.mutate()}
        error={mismatch ? 'The two passwords differ.' : reset.error?.message}
        pending={reset.isPending}
        disabled={mismatch}
        label="Set password and sign in"
        pendingLabel="Saving…"
      >
        <NewPasswordFields state={newPassword} autoFocus />
      </AuthForm>
    </AuthLayout>
  );
}
