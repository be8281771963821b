import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, SubmitButton } from '@/components/ui/button';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { CodeBlock } from '@/components/ui/code';
import { ConfirmDialog, ItemConfirm } from '@/components/ui/dialog';
import { AddRowForm, Form, ShownOnce } from '@/components/ui/form';
import { NewPasswordFields, useNewPassword } from '@/components/ui/new-password';
import { SelectField, TextField } from '@/components/ui/input';
import { RelativeTime } from '@/components/ui/relative-time';
import { DangerActionCell, QueryTable, TD, TITLE_CELL, TR } from '@/components/ui/table';
import { toast } from '@/components/shell/toasts';
import { api, read } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { meQuery } from '@/lib/queries';
import { storeSession } from '@/lib/session';
import { useRowAction } from '@/lib/use-row-action';
import { humanizeUserAgent } from '@/lib/user-agent';
import type { AccountSession, Answer, DeviceSession, Me, SessionAnswer, User } from '@/lib/types';
import { PageHeader } from './page-header';

type AccessToken = Answer<'/api/personal-access-tokens', 'get'>['tokens'][number];

const deviceSessionsQuery = {
  queryKey: ['device-sessions'],
  queryFn: async () => (await read<{ sessions: DeviceSession[] }>(api.GET('/api/auth/device-sessions'))).sessions,
};

const accountSessionsQuery = {
  queryKey: ['account-sessions'],
  queryFn: async () => (await read<{ sessions: AccountSession[] }>(api.GET('/api/auth/sessions'))).sessions,
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
    <div className="grid grid-cols-1 gap-4 px-6 py-5">
      <PageHeader
        title="Account"
        description="Your profile, your password, where you are signed in and the tokens that act as you."
      />
      <Profile />
      <ChangePassword />
      <Sessions />
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
  const unchanged = value.trim() === current || value.trim() === '';

  return (
    <Card>
      <CardHeader
        title="Profile"
        description="Your name is what other members see; the e-mail address is how you sign in."
      />
      <Form className="max-w-sm px-4 py-3" onSubmit={() => save.mutate()} error={save.error?.message}>
        {me.data ? (
          <TextField
            label="Name"
            id="profile-name"
            autoComplete="name"
            value={value}
            onValue={setName}
            maxLength={200}
            required
          />
        ) : (
          <Skeleton className="h-14" />
        )}
        <div className="grid gap-1.5">
          <span className="text-xs font-medium text-muted-foreground">E-mail</span>
          <span className="text-sm">{me.data?.user.email ?? <Skeleton className="h-4 w-56" />}</span>
        </div>
        <SubmitButton pending={save.isPending} pendingLabel="Saving…" disabled={unchanged}>
          Save profile
        </SubmitButton>
      </Form>
    </Card>
  );
}

/** What a sign-in reads as: the browser and system of a dashboard session, or a CLI password login. */
function sessionDevice(session: AccountSession): string {
  if (session.kind === 'cli') return 'CLI (password login)';
  const agent = humanizeUserAgent(session.userAgent);
  return agent.browser && agent.system ? agent.label : (agent.browser ?? agent.system ?? 'Unknown browser');
}

/**
 * Dashboard sessions and CLI password logins, each ended on its own; "sign out everywhere else"
 * also ends the CLI device logins listed below, and says so.
 */
function Sessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery(accountSessionsQuery);
  const deviceSessions = useQuery(deviceSessionsQuery);
  const [confirming, setConfirming] = useState(false);
  const end = useRowAction({
    call: (session: AccountSession) =>
      read(api.DELETE('/api/auth/sessions/{id}', { params: { path: { id: session.id } } })),
    refresh: [accountSessionsQuery.queryKey],
    success: (session) => `${sessionDevice(session)} signed out`,
  });
  const endOthers = useMutation({
    mutationFn: () => read<Answer<'/api/auth/sessions/end-others', 'post'>>(api.POST('/api/auth/sessions/end-others')),
    onSuccess: async (ended) => {
      setConfirming(false);
      toast.success(
        `Signed out of ${plural(ended.endedSessions, 'other session')} and ${plural(ended.revokedDeviceLogins, 'CLI login')}`,
      );
      await Promise.all(
        [accountSessionsQuery.queryKey, deviceSessionsQuery.queryKey].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
  const nothingElse = sessions.data?.every((s) => s.current) === true && deviceSessions.data?.length === 0;

  return (
    <Card>
      <CardHeader
        title="Sessions"
        description="Where you are signed in: browsers and CLI password logins. Signing one out ends it at its next request."
        actions={
          <Button
            // On a phone the long label breaks over lines rather than running out of the card.
            className="max-sm:h-auto max-sm:max-w-full max-sm:py-1.5 max-sm:whitespace-normal"
            onClick={() => setConfirming(true)}
            disabled={!sessions.data || nothingElse}
            title={nothingElse ? 'You are signed in nowhere else' : undefined}
          >
            Sign out of all other sessions and CLI logins…
          </Button>
        }
      />
      <QueryTable
        query={sessions}
        label="Sessions"
        columns={['Device', 'Address', 'Signed in', 'Last active']}
        actions
        empty="No sessions. Signed in with a personal access token, you have no session here."
        row={(session) => (
          <TR key={session.id}>
            <TD className={TITLE_CELL} title={session.userAgent ?? undefined}>
              <span className="flex items-center gap-2">
                <span className="truncate font-medium">{sessionDevice(session)}</span>
                {session.current && (
                  <span className="shrink-0 rounded-sm bg-accent-soft px-1.5 py-0.5 text-xs text-foreground">
                    this session
                  </span>
                )}
              </span>
            </TD>
            <TD className="font-mono text-xs whitespace-nowrap">{session.ip ?? 'unknown'}</TD>
            <TD className="tabular whitespace-nowrap">{formatDateTime(session.createdAt)}</TD>
            <TD className="tabular whitespace-nowrap">
              {session.current ? 'Now' : <RelativeTime value={session.lastUsedAt} />}
            </TD>
            <DangerActionCell
              action={end}
              row={session}
              label={`Sign out ${sessionDevice(session)} from ${formatDateTime(session.createdAt)}`}
              available={!session.current}
            >
              Sign out
            </DangerActionCell>
          </TR>
        )}
      />
      <ItemConfirm
        action={end}
        title={`Sign out ${end.item ? sessionDevice(end.item) : 'this session'}?`}
        description="That browser or CLI is signed out at its next request; signing in there again starts a new session."
        confirmLabel="Sign out"
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          setConfirming(open);
          if (!open) endOthers.reset();
        }}
        title="Sign out of all other sessions and CLI logins?"
        description="Every other browser session, every CLI password login and every CLI device login is signed out at once. This session stays signed in; personal access tokens keep working."
        confirmLabel="Sign out everywhere else"
        pending={endOthers.isPending}
        error={endOthers.error}
        onConfirm={() => endOthers.mutate()}
      />
    </Card>
  );
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Device logins of the CLI (`npx sightline-cli login`): each one refresh-token family, revocable. */
function CliLogins() {
  const sessions = useQuery(deviceSessionsQuery);
  const revoke = useRowAction({
    call: (session: DeviceSession) =>
      read(api.DELETE('/api/auth/device-sessions/{id}', { params: { path: { id: session.id } } })),
    refresh: [deviceSessionsQuery.queryKey],
    success: (session) => `${session.clientName} login revoked`,
  });

  return (
    <Card>
      <CardHeader
        title="CLI logins"
        description="Devices signed in with the CLI. Revoking one signs that device out at its next command."
      />
      <QueryTable
        query={sessions}
        label="CLI logins"
        columns={['Client', 'From', 'Signed in', 'Last used', 'Expires']}
        actions
        empty={
          <div className="grid gap-2 px-4 py-4 text-sm text-muted-foreground">
            <p>No CLI logins. Sign the CLI in from a terminal; it opens this dashboard to approve the device:</p>
            {/* The CLI has no service until one is named: without --url a first login exits with a usage error. */}
            <CodeBlock code={`npx sightline-cli login --url ${window.location.origin}`} label="CLI login command" />
            <p>From a checkout of Sightline (after npm install), the CLI it builds:</p>
            <CodeBlock
              code={`node cli/dist/sightline-cli.js login --url ${window.location.origin}`}
              label="CLI login command from a checkout"
            />
          </div>
        }
        row={(session) => (
          <TR key={session.id}>
            <TD>
              <span className="font-medium">{session.clientName}</span>{' '}
              <span className="font-mono text-xs text-muted-foreground">{session.clientId}</span>
            </TD>
            {/* As the approval page showed it; a login older than the record of its origin has none. */}
            <TD className="max-w-56" title={session.requesterUserAgent ?? undefined}>
              <span className="font-mono text-xs">{session.requesterIp ?? 'unknown'}</span>
              {session.requesterUserAgent && (
                <span className="block truncate text-xs text-muted-foreground">{session.requesterUserAgent}</span>
              )}
            </TD>
            <TD className="tabular">{formatDateTime(session.createdAt)}</TD>
            <TD
              className="tabular"
              title="The CLI's latest sign-in or token refresh (it refreshes every 15 minutes while in use)"
            >
              {formatDateTime(session.lastUsedAt)}
            </TD>
            <TD className="tabular">{formatDateTime(session.expiresAt)}</TD>
            <DangerActionCell
              action={revoke}
              row={session}
              label={`Revoke ${session.clientName} login from ${formatDateTime(session.createdAt)}`}
            >
              Revoke
            </DangerActionCell>
          </TR>
        )}
      />
      <ItemConfirm
        action={revoke}
        title={`Revoke this ${revoke.item?.clientName ?? 'CLI'} login?`}
        description="The device is signed out: its next command fails until someone signs in there again."
        confirmLabel="Revoke login"
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
  const newPassword = useNewPassword();
  const { mismatch } = newPassword;
  const change = useMutation({
    mutationFn: async () => {
      const answer = await read<SessionAnswer>(
        api.POST('/api/auth/password', { body: { currentPassword, newPassword: newPassword.password } }),
      );
      storeSession(answer.token);
      return answer;
    },
    onSuccess: () => {
      setCurrentPassword('');
      newPassword.clear();
      toast.success('Password changed; your other sessions are signed out');
    },
  });

  return (
    <Card>
      <CardHeader
        title="Password"
        description="Changing it signs out your other sessions and CLI logins. Personal access tokens keep working."
      />
      <Form
        className="max-w-sm px-4 py-3"
        onSubmit={() => !mismatch && change.mutate()}
        error={mismatch ? 'The two new passwords differ.' : change.error?.message}
      >
        <TextField
          label="Current password"
          id="current-password"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onValue={setCurrentPassword}
          required
        />
        <NewPasswordFields state={newPassword} />
        <SubmitButton pending={change.isPending} pendingLabel="Changing…" disabled={mismatch}>
          Change password
        </SubmitButton>
      </Form>
    </Card>
  );
}

function PersonalAccessTokens() {
  const queryClient = useQueryClient();
  const tokens = useQuery(tokensQuery);
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('90');
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);

  const create = useMutation({
    mutationFn: () =>
      read<Answer<'/api/personal-access-tokens', 'post', 201>>(
        api.POST('/api/personal-access-tokens', {
          body: { name, ...(expiry ? { expiresInDays: Number(expiry) } : {}) },
        }),
      ),
    onSuccess: async (created) => {
      setSecret({ name: created.name, token: created.token });
      setName('');
      await queryClient.invalidateQueries({ queryKey: tokensQuery.queryKey });
    },
  });
  const revoke = useRowAction({
    call: (token: AccessToken) =>
      read(api.DELETE('/api/personal-access-tokens/{id}', { params: { path: { id: token.id } } })),
    refresh: [tokensQuery.queryKey],
    success: (token) => `Token ${token.name} revoked`,
  });
  // The count the person confirmed, kept while the dialog is open so the title does not change under them.
  const [confirmingCount, setConfirmingCount] = useState<number | null>(null);
  const revokeAll = useMutation({
    mutationFn: () => read<Answer<'/api/personal-access-tokens', 'delete'>>(api.DELETE('/api/personal-access-tokens')),
    onSuccess: async ({ revoked }) => {
      setConfirmingCount(null);
      setSecret(null);
      toast.success(`Revoked ${plural(revoked, 'token')}`);
      await queryClient.invalidateQueries({ queryKey: tokensQuery.queryKey });
    },
  });
  const count = tokens.data?.length ?? 0;

  return (
    <Card>
      <CardHeader
        title="Personal access tokens"
        description="For scripts and the CLI: a token acts as you wherever you can act. The secret is shown once."
        actions={
          <Button
            onClick={() => setConfirmingCount(count)}
            disabled={count === 0}
            title={tokens.data && count === 0 ? 'You have no tokens to revoke' : undefined}
          >
            Revoke all…
          </Button>
        }
      />
      <AddRowForm mutation={create} label="Create token" pendingLabel="Creating…" disabled={name.trim() === ''}>
        <TextField
          className="w-72"
          label="Token name"
          id="token-name"
          value={name}
          onValue={setName}
          maxLength={100}
          required
          placeholder="e.g. deploy from CI"
        />
        <SelectField
          className="w-36"
          label="Expires after"
          id="token-expiry"
          value={expiry}
          onValue={setExpiry}
          options={EXPIRIES}
        />
      </AddRowForm>
      {secret && (
        <ShownOnce code={secret.token} label="new token">
          <span className="font-medium break-all">{secret.name}</span> created. Copy the token now: it will not be shown
          again.
        </ShownOnce>
      )}
      <QueryTable
        query={tokens}
        label="Personal access tokens"
        columns={['Name', 'Token', 'Created', 'Last used', 'Expires']}
        actions
        empty="No tokens yet. Create one above for a script or the CLI."
        row={(token) => (
          <TR key={token.id}>
            {/* The name takes the room left and is cut with its whole text on hover: a 100-letter name stays in the card. */}
            <TD className="w-full max-w-0 font-medium">
              <span className="block truncate" title={token.name}>
                {token.name}
              </span>
            </TD>
            <TD className="font-mono text-xs whitespace-nowrap text-muted-foreground">{token.prefix}…</TD>
            <TD className="tabular whitespace-nowrap">{formatDateTime(token.createdAt)}</TD>
            <TD className="tabular whitespace-nowrap">
              {token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never'}
            </TD>
            <TD className="tabular whitespace-nowrap">{token.expiresAt ? formatDateTime(token.expiresAt) : 'Never'}</TD>
            <DangerActionCell action={revoke} row={token} label={`Revoke ${token.name}`}>
              Revoke
            </DangerActionCell>
          </TR>
        )}
      />
      <ItemConfirm
        action={revoke}
        title={`Revoke ${revoke.item?.name ?? 'token'}?`}
        description="Anything using it stops working at once. This cannot be undone."
        confirmLabel="Revoke token"
      />
      <ConfirmDialog
        open={confirmingCount !== null}
        onOpenChange={(open) => {
          if (!open) {
            setConfirmingCount(null);
            revokeAll.reset();
          }
        }}
        title={
          confirmingCount === 1
            ? 'Revoke your only personal access token?'
            : `Revoke all ${confirmingCount} personal access tokens?`
        }
        description="Every script, CI job and CLI using one of them stops working at once. This cannot be undone: create new tokens for what should keep running."
        confirmLabel={confirmingCount === 1 ? 'Revoke token' : `Revoke ${confirmingCount} tokens`}
        pending={revokeAll.isPending}
        error={revokeAll.error}
        onConfirm={() => revokeAll.mutate()}
      />
    </Card>
  );
}
