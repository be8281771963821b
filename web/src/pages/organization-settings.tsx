import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, ListPending, Skeleton } from '@/components/ui/card';
import { CodeBlock } from '@/components/ui/code';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/input';
import { toast } from '@/components/shell/toasts';
import { api, read } from '@/lib/api';
import { useCurrentProject } from '@/lib/current-project';
import { formatBytes, formatDateTime } from '@/lib/format';
import { meQuery } from '@/lib/queries';
import type { Role } from '@/lib/types';
import { cn } from '@/lib/utils';
import { PageHeader } from './page-header';

interface Settings {
  name: string;
  timezone: string;
}
interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
}
interface Invitation {
  id: string;
  email: string;
  role: Role;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  createdAt: string;
  expiresAt: string;
}
interface Usage {
  planCode: string;
  periodStart: string;
  counters: { ingest_bytes: number; projects: number; seats: number };
  limits: { ingest_gb_monthly: number; projects: number; seats: number } & Record<string, number>;
}
interface Plan {
  code: string;
  name: string;
  default: boolean;
  currency?: string;
  prices?: { month: number | null; year: number | null };
}

const ROLES: ReadonlyArray<{ value: Role; label: string }> = [
  { value: 'admin', label: 'Admin' },
  { value: 'write', label: 'Write' },
  { value: 'read-only', label: 'Read-only' },
];
const roleLabel = (role: Role) => ROLES.find((r) => r.value === role)?.label ?? role;
const BYTES_PER_GB = 1_000_000_000;
const LAST_ADMIN_EXPLANATION = 'The only admin cannot take a lower role: make another member admin first.';
const formatCount = (n: number) => n.toLocaleString();

/** The organization of the current project: settings, members, invitations, plan and usage. */
export function OrganizationSettingsPage() {
  const { project } = useCurrentProject();
  const me = useQuery(meQuery);
  const organization = me.data?.organizations.find((o) => o.id === project?.organizationId);
  if (!project || !me.data) return null;
  const organizationId = project.organizationId;
  const isAdmin = organization?.role === 'admin';
  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title="Organization"
        description={
          <>
            {organization?.name ?? 'The organization of this project'}
            {organization && ` · your role: ${roleLabel(organization.role)}`}
            {!isAdmin && '. Changes here need the admin role.'}
          </>
        }
      />
      <General key={organizationId} organizationId={organizationId} isAdmin={isAdmin} />
      <Members organizationId={organizationId} isAdmin={isAdmin} myId={me.data.user.id} />
      {isAdmin && <Invitations organizationId={organizationId} />}
      <PlanAndUsage organizationId={organizationId} isAdmin={isAdmin} />
    </div>
  );
}

const settingsKey = (organizationId: string) => ['organization-settings', organizationId];

function General({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: settingsKey(organizationId),
    queryFn: () => read<Settings>(api.GET('/api/organizations/{organizationId}/settings', { params: { path: { organizationId } } } as never)),
  });
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState('UTC');
  useEffect(() => {
    if (settings.data) {
      setName(settings.data.name);
      setTimezone(settings.data.timezone);
    }
  }, [settings.data]);
  const save = useMutation({
    mutationFn: () =>
      read<Settings>(api.PUT('/api/organizations/{organizationId}/settings', { params: { path: { organizationId } }, body: { name, timezone } } as never)),
    onSuccess: async (saved) => {
      toast.success(`Organization ${saved.name} saved`);
      queryClient.setQueryData(settingsKey(organizationId), saved);
      // The name is also in the switcher and the palette.
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  });
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  if (settings.isLoading || !settings.data) {
    return (
      <Card>
        <CardHeader title="General" />
        {settings.error ? (
          <p role="alert" className="p-4 text-sm text-danger">
            {settings.error.message}
          </p>
        ) : (
          <div className="p-4" aria-busy="true">
            <Skeleton className="h-8 w-2/3" />
          </div>
        )}
      </Card>
    );
  }
  if (!isAdmin) {
    return (
      <Card>
        <CardHeader title="General" />
        <dl className="grid grid-cols-[8rem_1fr] gap-y-2 px-4 py-3 text-sm">
          <dt className="text-muted-foreground">Name</dt>
          <dd>{settings.data.name}</dd>
          <dt className="text-muted-foreground">Time zone</dt>
          <dd>{settings.data.timezone}</dd>
        </dl>
      </Card>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const changed = name.trim() !== settings.data.name || timezone !== settings.data.timezone;
  return (
    <Card>
      <CardHeader title="General" description="Times on every page are shown in the organization's time zone." />
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 px-4 py-3">
        <div className="w-72">
          <Field label="Organization name" htmlFor="organization-name">
            <Input id="organization-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
          </Field>
        </div>
        <div className="w-64">
          <Field label="Time zone" htmlFor="organization-timezone">
            <Select id="organization-timezone" value={timezone} onChange={(e) => setTimezone(e.target.value)}>
              {timeZones(timezone).map((zone) => (
                <option key={zone} value={zone}>
                  {zone === browserZone ? `${zone} (this browser)` : zone}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Button type="submit" variant="primary" disabled={save.isPending || !changed || name.trim() === ''}>
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
        {save.error && (
          <p role="alert" className="w-full text-sm text-danger">
            {save.error.message}
          </p>
        )}
      </form>
    </Card>
  );
}

/** Every IANA zone the browser knows, UTC first, and the current value even if the browser lacks it. */
function timeZones(current: string): string[] {
  const zones = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return [...new Set(['UTC', current, ...zones])];
}

const membersKey = (organizationId: string) => ['organization-members', organizationId];

function Members({ organizationId, isAdmin, myId }: { organizationId: string; isAdmin: boolean; myId: string }) {
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: membersKey(organizationId),
    queryFn: async () =>
      (await read<{ members: Member[] }>(api.GET('/api/organizations/{organizationId}/members', { params: { path: { organizationId } } } as never))).members,
  });
  const [removing, setRemoving] = useState<Member | null>(null);
  // Seats in the usage bars count members.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: membersKey(organizationId) }),
      queryClient.invalidateQueries({ queryKey: usageKey(organizationId) }),
    ]);

  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) =>
      read<Member>(
        api.PUT('/api/organizations/{organizationId}/members/{userId}', { params: { path: { organizationId, userId: member.userId } }, body: { role } } as never),
      ),
    onSuccess: async (changed) => {
      toast.success(`${changed.name || changed.email} is now ${roleLabel(changed.role)}`);
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const remove = useMutation({
    mutationFn: (member: Member) =>
      read(api.DELETE('/api/organizations/{organizationId}/members/{userId}', { params: { path: { organizationId, userId: member.userId } } } as never)),
    onSuccess: async (_answer, member) => {
      setRemoving(null);
      toast.success(`${member.name || member.email} removed`);
      await refresh();
    },
  });

  return (
    <Card>
      <CardHeader title="Members" description="Admins manage members, invitations and billing; write members change projects; read-only members look." />
      {members.isLoading ? (
        <div className="grid gap-2 p-4" aria-busy="true">
          <Skeleton className="h-6" />
          <Skeleton className="h-6" />
        </div>
      ) : members.error ? (
        <p role="alert" className="p-4 text-sm text-danger">
          {members.error.message}
        </p>
      ) : (
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-muted-foreground">
            <tr className="border-b">
              <th className="px-4 py-2 font-medium">Name</th>
              <th className="px-4 py-2 font-medium">E-mail</th>
              <th className="px-4 py-2 font-medium">Role</th>
              <th className="px-4 py-2 font-medium">Joined</th>
              {isAdmin && (
                <th className="px-4 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {members.data?.map((member) => {
              const who = member.name || member.email;
              // The API refuses to remove the last admin (anyone else, the caller included, may go).
              const lastAdmin = member.role === 'admin' && members.data.filter((m) => m.role === 'admin').length === 1;
              return (
                <tr key={member.userId} className="border-b last:border-0">
                  <td className="px-4 py-2 font-medium">
                    {member.name || '—'}
                    {member.userId === myId && <span className="ml-1.5 text-xs font-normal text-muted-foreground">(you)</span>}
                  </td>
                  <td className="px-4 py-2">{member.email}</td>
                  <td className="px-4 py-2">
                    {isAdmin ? (
                      <span className="flex items-center gap-2">
                        <Select
                          aria-label={`Role of ${who}`}
                          className="h-7 w-32"
                          value={member.role}
                          // Nor may the last admin be lowered (the API refuses it): the select says why instead of failing.
                          disabled={changeRole.isPending || lastAdmin}
                          title={lastAdmin ? LAST_ADMIN_EXPLANATION : undefined}
                          aria-description={lastAdmin ? LAST_ADMIN_EXPLANATION : undefined}
                          onChange={(e) => changeRole.mutate({ member, role: e.target.value as Role })}
                        >
                          {ROLES.map((r) => (
                            <option key={r.value} value={r.value}>
                              {r.label}
                            </option>
                          ))}
                        </Select>
                        {lastAdmin && (
                          <span className="text-xs text-muted-foreground" aria-hidden>
                            only admin
                          </span>
                        )}
                      </span>
                    ) : (
                      roleLabel(member.role)
                    )}
                  </td>
                  <td className="px-4 py-2 tabular">{formatDateTime(member.joinedAt)}</td>
                  {isAdmin && (
                    <td className="px-4 py-2 text-right">
                      {!lastAdmin && (
                        <Button size="sm" variant="ghost" className="text-danger" onClick={() => setRemoving(member)} aria-label={`Remove ${who}`}>
                          Remove
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) {
            setRemoving(null);
            remove.reset();
          }
        }}
        title={`Remove ${removing ? removing.name || removing.email : 'member'}?`}
        description="They lose access to every project of the organization at once. An invitation brings them back."
        confirmLabel="Remove member"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing)}
      />
    </Card>
  );
}

const invitationsKey = (organizationId: string) => ['organization-invitations', organizationId];

function Invitations({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const invitations = useQuery({
    queryKey: invitationsKey(organizationId),
    queryFn: async () =>
      (await read<{ invitations: Invitation[] }>(api.GET('/api/organizations/{organizationId}/invitations', { params: { path: { organizationId } } } as never)))
        .invitations,
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('write');
  const [sent, setSent] = useState<{ email: string; acceptUrl: string; mailQueued: boolean } | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: invitationsKey(organizationId) }),
      queryClient.invalidateQueries({ queryKey: usageKey(organizationId) }),
    ]);

  const invite = useMutation({
    mutationFn: () =>
      read<Invitation & { acceptUrl: string; mailQueued: boolean }>(
        api.POST('/api/organizations/{organizationId}/invitations', { params: { path: { organizationId } }, body: { email: email.trim(), role } } as never),
      ),
    onSuccess: async (created) => {
      setSent({ email: created.email, acceptUrl: created.acceptUrl, mailQueued: created.mailQueued });
      setEmail('');
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (invitation: Invitation) =>
      read(api.DELETE('/api/organizations/{organizationId}/invitations/{id}', { params: { path: { organizationId, id: invitation.id } } } as never)),
    onSuccess: async (_answer, invitation) => {
      setRevoking(null);
      toast.success(`Invitation to ${invitation.email} revoked`);
      await refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };

  return (
    <Card>
      <CardHeader title="Invitations" description="An invitation lives 7 days and takes a seat until it is accepted, revoked or expired." />
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 border-b px-4 py-3">
        <div className="w-72">
          <Field label="E-mail address" htmlFor="invite-email">
            <Input id="invite-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={320} placeholder="name@example.com" />
          </Field>
        </div>
        <div className="w-36">
          <Field label="Role" htmlFor="invite-role">
            <Select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Button type="submit" variant="primary" disabled={invite.isPending || email.trim() === ''}>
          {invite.isPending ? 'Inviting…' : 'Invite'}
        </Button>
        {invite.error && (
          <p role="alert" className="w-full text-sm text-danger">
            {invite.error.message}
          </p>
        )}
      </form>
      {sent && (
        <div className="grid gap-2 border-b bg-accent-soft/50 px-4 py-3" role="status">
          <p className="text-sm">
            {sent.mailQueued ? (
              <>
                Invitation mailed to <span className="font-medium">{sent.email}</span>. You can also pass on the link:
              </>
            ) : (
              <>
                <span className="font-medium">{sent.email}</span> is invited. This server sends no mail: pass on this link, shown only now.
              </>
            )}
          </p>
          <CodeBlock code={sent.acceptUrl} label="invitation link" />
        </div>
      )}
      <ListPending query={invitations} />
      {!invitations.data ? null : invitations.data.length > 0 ? (
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-muted-foreground">
            <tr className="border-b">
              <th className="px-4 py-2 font-medium">E-mail</th>
              <th className="px-4 py-2 font-medium">Role</th>
              <th className="px-4 py-2 font-medium">Status</th>
              <th className="px-4 py-2 font-medium">Sent</th>
              <th className="px-4 py-2 font-medium">Expires</th>
              <th className="px-4 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invitations.data.map((invitation) => (
              <tr key={invitation.id} className="border-b last:border-0">
                <td className="px-4 py-2 font-medium">{invitation.email}</td>
                <td className="px-4 py-2">{roleLabel(invitation.role)}</td>
                <td className="px-4 py-2">
                  <span
                    className={cn(
                      'rounded-sm px-1.5 py-0.5 text-xs',
                      invitation.status === 'pending' ? 'bg-accent-soft text-foreground' : 'bg-muted text-muted-foreground',
                    )}
                  >
                    {invitation.status}
                  </span>
                </td>
                <td className="px-4 py-2 tabular">{formatDateTime(invitation.createdAt)}</td>
                <td className="px-4 py-2 tabular">{formatDateTime(invitation.expiresAt)}</td>
                <td className="px-4 py-2 text-right">
                  {invitation.status === 'pending' && (
                    <Button size="sm" variant="ghost" className="text-danger" onClick={() => setRevoking(invitation)} aria-label={`Revoke invitation to ${invitation.email}`}>
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="px-4 py-6 text-sm text-muted-foreground">No invitations yet. Invite a teammate above.</p>
      )}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) {
            setRevoking(null);
            revoke.reset();
          }
        }}
        title={`Revoke the invitation to ${revoking?.email ?? ''}?`}
        description="Its link stops working at once and its seat is free again."
        confirmLabel="Revoke invitation"
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      />
    </Card>
  );
}

const usageKey = (organizationId: string) => ['billing-usage', organizationId];

function PlanAndUsage({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const usage = useQuery({
    queryKey: usageKey(organizationId),
    queryFn: async () => (await read<{ usage: Usage }>(api.GET('/api/billing/usage', { params: { query: { organizationId } } } as never))).usage,
  });
  const plans = useQuery({
    queryKey: ['billing-plans'],
    queryFn: () => read<{ plans: Plan[]; billingConfigured: boolean }>(api.GET('/api/billing/plans')),
    staleTime: 5 * 60_000,
  });
  const plan = plans.data?.plans.find((p) => p.code === usage.data?.planCode);
  const upgrades = (plans.data?.plans ?? []).filter((p) => p.code !== usage.data?.planCode && p.prices?.month);

  const go = useMutation({
    mutationFn: (body: { planCode: string; interval: 'month' } | null) =>
      read<{ url: string }>(
        body === null
          ? api.POST('/api/billing/portal', { params: { query: { organizationId } } } as never)
          : api.POST('/api/billing/checkout', { params: { query: { organizationId } }, body } as never),
      ),
    onSuccess: ({ url }) => window.location.assign(url),
  });

  const billing = isAdmin && plans.data?.billingConfigured === true;
  return (
    <Card>
      <CardHeader
        title="Plan and usage"
        description={usage.data ? `${plan?.name ?? usage.data.planCode} plan · usage of ${usage.data.periodStart} (UTC month)` : 'The plan and what this month used of it.'}
        actions={
          billing && (
            <div className="flex gap-2">
              {upgrades.map((p) => (
                <Button key={p.code} variant="primary" disabled={go.isPending} onClick={() => go.mutate({ planCode: p.code, interval: 'month' })}>
                  Upgrade to {p.name}
                </Button>
              ))}
              <Button disabled={go.isPending} onClick={() => go.mutate(null)}>
                Manage billing
              </Button>
            </div>
          )
        }
      />
      {go.error && (
        <p role="alert" className="border-b px-4 py-2 text-sm text-danger">
          {go.error.message}
        </p>
      )}
      {usage.isLoading || !usage.data ? (
        usage.error ? (
          <p role="alert" className="p-4 text-sm text-danger">
            {usage.error.message}
          </p>
        ) : (
          <div className="grid gap-3 p-4" aria-busy="true">
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
          </div>
        )
      ) : (
        <div className="grid gap-4 p-4">
          <UsageBar
            label="Ingest this month"
            used={usage.data.counters.ingest_bytes}
            limit={usage.data.limits.ingest_gb_monthly * BYTES_PER_GB}
            format={formatBytes}
            note="Ingest pauses (503) when the month's decompressed bytes reach the limit."
          />
          <UsageBar label="Projects" used={usage.data.counters.projects} limit={usage.data.limits.projects} format={formatCount} />
          <UsageBar label="Seats" used={usage.data.counters.seats} limit={usage.data.limits.seats} format={formatCount} note="Members. An open invitation also needs a free seat." />
        </div>
      )}
    </Card>
  );
}

function UsageBar({ label, used, limit, format, note }: { label: string; used: number; limit: number; format: (n: number) => string; note?: string }) {
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  const percent = Math.round(share * 1000) / 10;
  return (
    <div className="grid gap-1.5">
      <div className="flex items-baseline justify-between gap-4 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular text-muted-foreground">
          <span className="text-foreground">{format(used)}</span> of {format(limit)}
        </span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={Math.min(used, limit)}
        aria-valuetext={`${format(used)} of ${format(limit)}`}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn('h-full rounded-full', share >= 1 ? 'bg-danger' : share >= 0.8 ? 'bg-warning' : 'bg-accent')}
          style={{ width: `${Math.max(percent, used > 0 ? 1 : 0)}%` }}
        />
      </div>
      {note && <p className="text-xs text-muted-foreground">{note}</p>}
    </div>
  );
}
