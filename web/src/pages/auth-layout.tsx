import { CheckCircle2, CircleHelp, MailCheck, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button, buttonVariants } from '@/components/ui/button';
import { Form, FormError } from '@/components/ui/form';
import { TextField } from '@/components/ui/input';
import type { Providers } from '@/lib/types';

/** The frame of the sign-in pages: the mark, a title and one narrow panel. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-background p-6">
      <div className="grid justify-items-center gap-3 text-center">
        <img src="/favicon.svg" alt="Sightline" className="size-9" />
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        {subtitle && <p className="max-w-sm text-sm text-muted-foreground">{subtitle}</p>}
      </div>
      <div className="grid w-full max-w-sm gap-4 rounded-lg border bg-panel p-6 shadow-sm">{children}</div>
      {footer && <div className="text-sm text-muted-foreground">{footer}</div>}
    </main>
  );
}

/** The form of a sign-in page: its fields, then the server's (or the form's) complaint and one wide submit button. */
export function AuthForm({
  onSubmit,
  error,
  pending = false,
  disabled = false,
  label,
  pendingLabel,
  children,
}: {
  onSubmit: () => void;
  error?: string | null;
  pending?: boolean;
  disabled?: boolean;
  label: string;
  pendingLabel?: string;
  children: ReactNode;
}) {
  return (
    <Form onSubmit={onSubmit}>
      {children}
      <FormError message={error} />
      <Button type="submit" variant="primary" size="lg" disabled={pending || disabled}>
        {pending ? pendingLabel : label}
      </Button>
    </Form>
  );
}

/** The address an account signs in with, as the sign-in, registration and reset forms ask for it. */
export function EmailField({
  value,
  onValue,
  autoFocus = false,
}: {
  value: string;
  onValue: (value: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label="E-mail"
      id="email"
      type="email"
      autoComplete="email"
      value={value}
      onValue={onValue}
      required
      autoFocus={autoFocus}
    />
  );
}

/** The icon of how a flow ended: green for done, red for refused, grey for a link that leads nowhere. */
const OUTCOME_ICONS = {
  done: <CheckCircle2 className="size-8 text-success" />,
  mailed: <MailCheck className="size-8 text-success" />,
  refused: <XCircle className="size-8 text-danger" />,
  unknown: <CircleHelp className="size-8 text-muted-foreground" />,
};

/** A page that ends a flow: an icon of its outcome, a title and what happened (and, optionally, where to go next). */
export function EndState({
  outcome,
  title,
  text,
  children,
}: {
  outcome: keyof typeof OUTCOME_ICONS;
  title: string;
  text: string;
  children?: ReactNode;
}) {
  return (
    <AuthLayout title={title}>
      <div className="grid justify-items-center gap-3 text-center">
        {OUTCOME_ICONS[outcome]}
        <p className="text-sm text-muted-foreground">{text}</p>
      </div>
      {children}
    </AuthLayout>
  );
}

/**
 * "Continue with …" for each configured social provider, below a divider. `redirect` is the page
 * to come back to: through /auth/callback, which keeps the session the provider's sign-in ends
 * with (in the URL fragment) before going there. `invitation` joins a new account through it.
 */
export function SocialSignIn({
  providers,
  params,
}: {
  providers: Providers | undefined;
  params: { redirect?: string | undefined; invitation?: string | undefined };
}) {
  const social = providers?.providers ?? [];
  if (social.length === 0) return null;
  const query = new URLSearchParams();
  if (params.invitation !== undefined) query.set('invitation', params.invitation);
  if (params.redirect !== undefined)
    query.set('redirect', `/auth/callback?${new URLSearchParams({ redirect: params.redirect })}`);
  const search = query.toString();
  return (
    <div className="grid gap-2">
      <div className="flex items-center gap-3 text-xs text-muted-foreground">
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      {social.map((provider) => (
        <a
          key={provider.id}
          className={buttonVariants({ variant: 'secondary', size: 'lg' })}
          href={`${provider.startUrl ?? ''}${search ? `?${search}` : ''}`}
        >
          Continue with {provider.name}
        </a>
      ))}
    </div>
  );
}
