import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, SubmitButton } from '@/components/ui/button';
import { Card, CardHeader, ListPending, Skeleton } from '@/components/ui/card';
import { CodeBlock } from '@/components/ui/code';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/input';
import { toast } from '@/components/shell/toasts';
import { api, read } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { meQuery } from '@/lib/queries';
import { storeSession } from '@/lib/session';
import type { DeviceSession, Me, SessionAnswer, User } from '@/lib/types';
import { FormError } from './auth-layout';
import { PageHeader } from './page-header';

interface AccessToken {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

const deviceSessionsQuery = {
  queryKey: ['device-sessions'],
  queryFn: async () => (await read<{ sessions: DeviceSession[] }>(api.GET('/api/auth/device-sessions'))).sessions,
};

const tokensQuery = {
  queryKey: ['personal-access-tokens'],
  queryFn: async () => (await read<{ tokens: AccessToken[] }>(api.GET('/api/personal-access-tokens'))).tokens,
};

const EXPIRIES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '', label: 'Never' },
];

export function AccountSettingsPage() {
  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader title="Account" description="Your profile, your password, your CLI logins and the tokens that act as you." />
      <Profile />
      <ChangePassword />
      <CliLogins />
      <PersonalAccessTokens />
    </div>
  );
}

/** The display name is editable (PATCH /api/me); the e-mail address is the sign-in and is shown only. */
function Profile() {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const [name, setName] = useState<string | null>(null);
  const current = me.data?.user.name ?? '';
  const value = name ?? current;
  const save = useMutation({
    mutationFn: () => read<{ user: User }>(api.PATCH('/api/me', { body: { name: value } })),
    onSuccess: ({ user }) => {
      queryClient.setQueryData<Me>(meQuery.queryKey, (old) => old && { ...old, user: { ...old.user, ...user } });
      setName(null);
      toast.success('Profile saved');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const unchanged = value.trim() === current || value.trim() === '';

  return (
    <Card>
      <CardHeader title="Profile" description="Your name is what other members see; the e-mail address is how you sign in." />
      <form onSubmit={submit} className="grid max-w-sm gap-3 px-4 py-3">
        {me.data ? (
          <Field label="Name" htmlFor="profile-name">
            <Input id="profile-name" autoComplete="name" value={value} onChange={(e) => setName(e.target.value)} maxLength={200} required />
          </Field>
        ) : (
          <Skeleton className="h-14" />
        )}
        <div className="grid gap-1.5">
          <span className="text-xs font-medium text-muted-foreground">E-mail</span>
          <span className="text-sm">{me.data?.user.email ?? <Skeleton className="h-4 w-56" />}</span>
        </div>
        <FormError message={save.error?.message} />
        <SubmitButton pending={save.isPending} pendingLabel="Saving…" disabled={unchanged}>
          Save profile
        </SubmitButton>
      </form>
    </Card>
  );
}

/** Device logins of the CLI (`npx sightline-cli login`): each one refresh-token family, revocable. */
function CliLogins() {
  const queryClient = useQueryClient();
  const sessions = useQuery(deviceSessionsQuery);
  const [revoking, setRevoking] = useState<DeviceSession | null>(null);
  const revoke = useMutation({
    mutationFn: (session: DeviceSession) => read(api.DELETE('/api/auth/device-sessions/{id}', { params: { path: { id: session.id } } })),
    onSuccess: async (_answer, session) => {
      setRevoking(null);
      toast.success(`${session.clientName} login revoked`);
      await queryClient.invalidateQueries({ queryKey: deviceSessionsQuery.queryKey });
    },
  });

  return (
    <Card>
      <CardHeader title="CLI logins" description="Devices signed in with the CLI. Revoking one signs that device out at its next command." />
      <ListPending query={sessions} />
      {!sessions.data ? null : sessions.data.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-muted-foreground">
              <tr className="border-b">
                <th className="px-4 py-2 font-medium">Client</th>
                <th className="px-4 py-2 font-medium">Signed in</th>
                <th className="px-4 py-2 font-medium">Last used</th>
                <th className="px-4 py-2 font-medium">Expires</th>
                <th className="px-4 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => (
                <tr key={session.id} className="border-b last:border-0">
                  <td className="px-4 py-2">
                    <span className="font-medium">{session.clientName}</span>{' '}
                    <span className="font-mono text-xs text-muted-foreground">{session.clientId}</span>
                  </td>
                  <td className="px-4 py-2 tabular">{formatDateTime(session.createdAt)}</td>
                  <td className="px-4 py-2 tabular" title="The CLI's latest sign-in or token refresh (it refreshes every 15 minutes while in use)">
                    {formatDateTime(session.lastUsedAt)}
                  </td>
                  <td className="px-4 py-2 tabular">{formatDateTime(session.expiresAt)}</td>
                  <td className="px-4 py-2 text-right">
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-danger"
                      onClick={() => setRevoking(session)}
                      aria-label={`Revoke ${session.clientName} login from ${formatDateTime(session.createdAt)}`}
                    >
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <div className="grid gap-2 px-4 py-4 text-sm text-muted-foreground">
          <p>No CLI logins. Sign the CLI in from a terminal; it opens this dashboard to approve the device:</p>
          <CodeBlock code="npx sightline-cli login" label="CLI login command" />
        </div>
      )}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke this ${revoking?.clientName ?? 'CLI'} login?`}
        description="The device is signed out: its next command fails until someone signs in there again."
        confirmLabel="Revoke login"
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      />
    </Card>
  );
}

/**
 * The change ends the other sessions and CLI logins (as a reset does) and answers a new session,
 * stored at once so this tab stays signed in.
 */
function ChangePassword() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const change = useMutation({
    mutationFn: async () => {
      const answer = await read<SessionAnswer>(api.POST('/api/auth/password', { body: { currentPassword, newPassword } }));
      storeSession(answer.token);
      return answer;
    },
    onSuccess: () => {
      setCurrentPassword('');
      setNewPassword('');
      setRepeated('');
      toast.success('Password changed; your other sessions are signed out');
    },
  });
  const mismatch = repeated !== '' && repeated !== newPassword;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) change.mutate();
  };

  return (
    <Card>
      <CardHeader title="Password" description="Changing it signs out your other sessions and CLI logins. Personal access tokens keep working." />
      <form onSubmit={submit} className="grid max-w-sm gap-3 px-4 py-3">
        <Field label="Current password" htmlFor="current-password">
          <Input
            id="current-password"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
            required
          />
        </Field>
        <Field label="New password" htmlFor="new-password" hint="At least 10 characters; a few words make a good one.">
          <Input id="new-password" type="password" autoComplete="new-password" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} required />
        </Field>
        <Field label="Repeat the new password" htmlFor="repeated-password">
          <Input
            id="repeated-password"
            type="password"
            autoComplete="new-password"
            value={repeated}
            onChange={(e) => setRepeated(e.target.value)}
            required
            aria-invalid={mismatch}
          />
        </Field>
        <FormError message={mismatch ? 'The two new passwords differ.' : change.error?.message} />
        <SubmitButton pending={change.isPending} pendingLabel="Changing…" disabled={mismatch}>
          Change password
        </SubmitButton>
      </form>
    </Card>
  );
}

function PersonalAccessTokens() {
  const queryClient = useQueryClient();
  const tokens = useQuery(tokensQuery);
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('90');
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);

  const create = useMutation({
    mutationFn: () =>
      read<AccessToken & { token: string }>(
        api.POST('/api/personal-access-tokens', { body: { name, ...(expiry ? { expiresInDays: Number(expiry) } : {}) } } as never),
      ),
    onSuccess: async (created) => {
      setSecret({ name: created.name, token: created.token });
      setName('');
      await queryClient.invalidateQueries({ queryKey: tokensQuery.queryKey });
    },
  });

  const revoke = useMutation({
    mutationFn: (token: AccessToken) => read(api.DELETE('/api/personal-access-tokens/{id}', { params: { path: { id: token.id } } } as never)),
    onSuccess: async (_answer, token) => {
      setRevoking(null);
      toast.success(`Token ${token.name} revoked`);
      await queryClient.invalidateQueries({ queryKey: tokensQuery.queryKey });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <Card>
      <CardHeader title="Personal access tokens" description="For scripts and the CLI: a token acts as you wherever you can act. The secret is shown once." />
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 border-b px-4 py-3">
        <div className="w-72">
          <Field label="Token name" htmlFor="token-name">
            <Input id="token-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required placeholder="e.g. deploy from CI" />
          </Field>
        </div>
        <div className="w-36">
          <Field label="Expires after" htmlFor="token-expiry">
            <Select id="token-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
              {EXPIRIES.map((e) => (
                <option key={e.label} value={e.value}>
                  {e.label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Button type="submit" variant="primary" disabled={create.isPending || name.trim() === ''}>
          {create.isPending ? 'Creating…' : 'Create token'}
        </Button>
        {create.error && (
          <p role="alert" className="w-full text-sm text-danger">
            {create.error.message}
          </p>
        )}
      </form>
      {secret && (
        <div className="grid gap-2 border-b bg-accent-soft/50 px-4 py-3" role="status">
          <p className="text-sm">
            <span className="font-medium">{secret.name}</span> created. Copy the token now: it will not be shown again.
          </p>
          <CodeBlock code={secret.token} label="new token" />
        </div>
      )}
      {tokens.isLoading ? (
        <div className="grid gap-2 p-4" aria-busy="true">
          <Skeleton className="h-6" />
          <Skeleton className="h-6" />
        </div>
      ) : tokens.data && tokens.data.length > 0 ? (
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-muted-foreground">
            <tr className="border-b">
              <th className="px-4 py-2 font-medium">Name</th>
              <th className="px-4 py-2 font-medium">Token</th>
              <th className="px-4 py-2 font-medium">Created</th>
              <th className="px-4 py-2 font-medium">Last used</th>
              <th className="px-4 py-2 font-medium">Expires</th>
              <th className="px-4 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token) => (
              <tr key={token.id} className="border-b last:border-0">
                <td className="px-4 py-2 font-medium">{token.name}</td>
                <td className="px-4 py-2 font-mono text-xs text-muted-foreground">{token.prefix}…</td>
                <td className="px-4 py-2 tabular">{formatDateTime(token.createdAt)}</td>
                <td className="px-4 py-2 tabular">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never'}</td>
                <td className="px-4 py-2 tabular">{token.expiresAt ? formatDateTime(token.expiresAt) : 'Never'}</td>
                <td className="px-4 py-2 text-right">
                  <Button size="sm" variant="ghost" className="text-danger" onClick={() => setRevoking(token)} aria-label={`Revoke ${token.name}`}>
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="px-4 py-6 text-sm text-muted-foreground">No tokens yet. Create one above for a script or the CLI.</p>
      )}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke ${revoking?.name ?? 'token'}?`}
        description="Anything using it stops working at once. This cannot be undone."
        confirmLabel="Revoke token"
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      />
    </Card>
  );
}
