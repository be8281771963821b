import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, ListPending } from '@/components/ui/card';
import { ConfirmDialog, ItemConfirm } from '@/components/ui/dialog';
import { AddRowForm, FormError, FormNotice, ShownOnce } from '@/components/ui/form';
import { Select, SelectField, TextField } from '@/components/ui/input';
import { DangerActionCell, QueryTable, TD, TR } from '@/components/ui/table';
import { useShellActions } from '@/components/shell/shell-actions';
import { toast } from '@/components/shell/toasts';
import { EmptyState } from '@/components/ui/states';
import { api, read } from '@/lib/api';
import { forgetProjects, shownOrganization, useCurrentProject } from '@/lib/current-project';
import { formatBytes, formatDateTime } from '@/lib/format';
import { currentZoneName, pickableTimeZones } from '@/lib/time-zone';
import { ingestLimitBytes, ingestPausedDetail, ingestPausedUntil } from '@/lib/ingest-quota';
import { meQuery, projectsQuery, usageQuery, type Usage } from '@/lib/queries';
import { limitReachedNote } from '@/lib/plan-limits';
import { planKeptDays, tableKept } from '@/lib/retention';
import type { Answer, Role } from '@/lib/types';
import { ROLES, roleLabel } from '@/lib/roles';
import { useRowAction } from '@/lib/use-row-action';
import { cn } from '@/lib/utils';
import { GeneralSettingsCard, type GeneralDraft } from './general-settings';
import { PageHeader } from './page-header';

type Settings = Answer<'/api/organizations/{organizationId}/settings', 'get'>;
type Member = Answer<'/api/organizations/{organizationId}/members', 'get'>['members'][number];
type Invitation = Answer<'/api/organizations/{organizationId}/invitations', 'get'>['invitations'][number];
type Plans = Answer<'/api/billing/plans', 'get'>;

/** The role the invite form starts with, and returns to after each invitation. */
const INVITE_ROLE: Role = 'write';
/** How long an invitation stays open (the API's INVITATION_LIFE_DAYS). */
const INVITATION_DAYS = 7;
const LAST_ADMIN_EXPLANATION = 'The only admin cannot take a lower role: make another member admin first.';
const LAST_ADMIN_LEAVING = 'You are its only admin: make another member admin before you leave.';
const formatCount = (n: number) => n.toLocaleString();

/**
 * One organization of the person's: settings, members, invitations, plan and usage. Which one is
 * the URL's `?organization=`, else the current project's, else the person's first — so an
 * organization without a project is reachable too; a switcher offers the others.
 */
export function OrganizationSettingsPage() {
  const { project } = useCurrentProject();
  const { organization: asked } = useSearch({ strict: false });
  const navigate = useNavigate();
  const me = useQuery(meQuery);
  const { createOrganization } = useShellActions();
  if (!me.data) return null;
  const organizations = me.data.organizations;
  const organization = shownOrganization(organizations, asked, project?.organizationId);
  const newOrganization = createOrganization && (
    <Button onClick={createOrganization}>
      <Plus />
      New organization
    </Button>
  );
  if (!organization) {
    return (
      <div className="grid grid-cols-1 gap-4 px-6 py-5">
        <PageHeader
          title="Organization"
          description="You are not a member of any organization."
          actions={newOrganization}
        />
        <Card>
          <EmptyState title="No organization">
            Ask an admin of one for an invitation and open its link to join
            {createOrganization ? ', or start a new organization of your own.' : '.'}
          </EmptyState>
        </Card>
      </div>
    );
  }
  const organizationId = organization.id;
  const isAdmin = organization.role === 'admin';
  return (
    <div className="grid grid-cols-1 gap-4 px-6 py-5">
      <PageHeader
        title="Organization"
        description={
          <>
            {organization.name} · your role: {roleLabel(organization.role)}
            {!isAdmin && '. Changes here need the admin role.'}
          </>
        }
        actions={
          <div className="flex items-end gap-2">
            {organizations.length > 1 && (
              <SelectField
                className="w-64"
                label="Your organizations"
                id="organization-switcher"
                value={organizationId}
                onValue={(id) => void navigate({ to: '.', search: (prev) => ({ ...prev, organization: id }) })}
                options={organizations.map((o) => ({ value: o.id, label: `${o.name} (${roleLabel(o.role)})` }))}
              />
            )}
            {newOrganization}
          </div>
        }
      />
      {asked !== undefined && asked !== organizationId && (
        <FormNotice
          message={`You are not a member of organization ${asked} (or it does not exist): showing ${organization.name}.`}
        />
      )}
      <FirstProject key={`first-${organizationId}`} organizationId={organizationId} role={organization.role} />
      <General key={organizationId} organizationId={organizationId} isAdmin={isAdmin} />
      <Members organizationId={organizationId} isAdmin={isAdmin} myId={me.data.user.id} />
      {isAdmin && <Invitations organizationId={organizationId} />}
      <PlanAndUsage organizationId={organizationId} isAdmin={isAdmin} />
      <LeaveOrganization
        organizationId={organizationId}
        organizationName={organization.name}
        myId={me.data.user.id}
        isAdmin={isAdmin}
      />
    </div>
  );
}

/** An organization without a project (new, or its last one deleted) invites its first one. */
function FirstProject({ organizationId, role }: { organizationId: string; role: Role }) {
  const usage = useQuery(usageQuery(organizationId));
  const { createProject } = useShellActions();
  if (usage.data?.counters.projects !== 0) return null;
  const mayCreate = role !== 'read-only' && createProject !== undefined;
  return (
    <Card data-testid="first-project">
      <CardHeader
        title="No project yet"
        description={
          mayCreate
            ? 'A project has its own token and its own data: create one, then connect your service to it.'
            : 'Members with the write or admin role create projects; they then appear here and in the project menu.'
        }
        actions={
          mayCreate && (
            <Button variant="primary" onClick={() => createProject(organizationId)}>
              <Plus />
              Create project
            </Button>
          )
        }
      />
    </Card>
  );
}

const settingsKey = (organizationId: string) => ['organization-settings', organizationId];

function General({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: settingsKey(organizationId),
    queryFn: () =>
      read<Settings>(api.GET('/api/organizations/{organizationId}/settings', { params: { path: { organizationId } } })),
  });
  const save = useMutation({
    mutationFn: ({ name, choice }: GeneralDraft) =>
      read<Settings>(
        api.PUT('/api/organizations/{organizationId}/settings', {
          params: { path: { organizationId } },
          body: { name, timezone: choice },
        }),
      ),
    onSuccess: async (saved) => {
      toast.success(`Organization ${saved.name} saved`);
      queryClient.setQueryData(settingsKey(organizationId), saved);
      // The name is also in the switcher and the palette.
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  });

  if (!settings.data) {
    return (
      <Card>
        <CardHeader title="General" />
        <ListPending query={settings} />
      </Card>
    );
  }
  const { name, timezone } = settings.data;
  const browserZone = currentZoneName(Intl.DateTimeFormat().resolvedOptions().timeZone);
  return (
    <GeneralSettingsCard
      editable={isAdmin}
      description="Times on every page are shown in the organization's time zone."
      facts={[
        { term: 'Name', value: name },
        { term: 'Time zone', value: timezone },
      ]}
      saved={{ name, choice: timezone }}
      nameField={{ label: 'Organization name', id: 'organization-name' }}
      choiceField={{
        label: 'Time zone',
        id: 'organization-timezone',
        options: timeZones(timezone).map((zone) => {
          // A stored old name shows as saved, with the name the list offers for it.
          const name = currentZoneName(zone) === zone ? zone : `${zone} (${currentZoneName(zone)})`;
          return { value: zone, label: zone === browserZone ? `${name} (this browser)` : name };
        }),
      }}
      save={save}
    />
  );
}

/** Every IANA zone the browser knows under its current name, UTC first, and the stored value even if the browser lacks it. */
function timeZones(stored: string): string[] {
  const zones =
    (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return pickableTimeZones(zones, stored);
}

const membersKey = (organizationId: string) => ['organization-members', organizationId];

/** The members list, read by the table and by "Leave organization" (is the caller the last admin?). */
const membersQuery = (organizationId: string) => ({
  queryKey: membersKey(organizationId),
  queryFn: async () =>
    (
      await read<{ members: Member[] }>(
        api.GET('/api/organizations/{organizationId}/members', { params: { path: { organizationId } } }),
      )
    ).members,
});

function Members({ organizationId, isAdmin, myId }: { organizationId: string; isAdmin: boolean; myId: string }) {
  const queryClient = useQueryClient();
  const members = useQuery(membersQuery(organizationId));
  // Seats in the usage bars count members.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: membersKey(organizationId) }),
      queryClient.invalidateQueries({ queryKey: usageKey(organizationId) }),
    ]);

  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) =>
      read<Member>(
        api.PUT('/api/organizations/{organizationId}/members/{userId}', {
          params: { path: { organizationId, userId: member.userId } },
          body: { role },
        }),
      ),
    onSuccess: (changed) => {
      toast.success(`${changed.name || changed.email} is now ${roleLabel(changed.role)}`);
      // The answer is the member as saved: shown at once, so the select takes the next change now
      // (before: it was busy until the list and the usage were read again, and ignored a change meanwhile).
      queryClient.setQueryData(membersKey(organizationId), (list: Member[] | undefined) =>
        list?.map((member) => (member.userId === changed.userId ? changed : member)),
      );
      void refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const remove = useRowAction({
    call: (member: Member) =>
      read(
        api.DELETE('/api/organizations/{organizationId}/members/{userId}', {
          params: { path: { organizationId, userId: member.userId } },
        }),
      ),
    refresh: [membersKey(organizationId), usageKey(organizationId)],
    success: (member) => `${member.name || member.email} removed`,
  });
  const admins = members.data?.filter((m) => m.role === 'admin').length ?? 0;

  return (
    <Card>
      <CardHeader
        title="Members"
        description="Admins manage members, invitations and billing; write members change projects; read-only members look."
      />
      <QueryTable
        query={members}
        label="Members"
        columns={['Name', 'E-mail', 'Role', 'Joined']}
        actions={isAdmin}
        empty="No members."
        row={(member) => {
          const who = member.name || member.email;
          // The API refuses to remove the last admin (anyone else, the caller included, may go).
          const lastAdmin = member.role === 'admin' && admins === 1;
          return (
            <TR key={member.userId}>
              <TD className="font-medium whitespace-nowrap">
                <span className="inline-block max-w-56 truncate align-bottom" title={member.name || undefined}>
                  {member.name || '—'}
                </span>
                {member.userId === myId && (
                  <span className="ml-1.5 text-xs font-normal text-muted-foreground">(you)</span>
                )}
              </TD>
              {/* The e-mail takes the room left and is cut with its whole text on hover. */}
              <TD className="w-full max-w-0">
                <span className="block truncate" title={member.email}>
                  {member.email}
                </span>
              </TD>
              <TD>
                {isAdmin ? (
                  <span className="flex items-center gap-2">
                    <Select
                      aria-label={`Role of ${who}`}
                      className="h-7 w-32"
                      value={member.role}
                      // Nor may the last admin be lowered (the API refuses it): the select says why instead of failing.
                      // Not disabled while a change is saved: that took the focus from a keyboard
                      // user's arrows; a change made meanwhile is ignored (the select shows the saved role).
                      disabled={lastAdmin}
                      aria-busy={changeRole.isPending || undefined}
                      title={lastAdmin ? LAST_ADMIN_EXPLANATION : undefined}
                      aria-description={lastAdmin ? LAST_ADMIN_EXPLANATION : undefined}
                      onChange={(e) => {
                        if (!changeRole.isPending) changeRole.mutate({ member, role: e.target.value as Role });
                      }}
                      options={ROLES}
                    />
                    {lastAdmin && (
                      <span className="text-xs whitespace-nowrap text-muted-foreground" aria-hidden>
                        only admin
                      </span>
                    )}
                  </span>
                ) : (
                  // One line: "Read-only" broke at its hyphen beside a long e-mail address.
                  <span className="whitespace-nowrap">{roleLabel(member.role)}</span>
                )}
              </TD>
              <TD className="tabular whitespace-nowrap">{formatDateTime(member.joinedAt)}</TD>
              {isAdmin && (
                // Oneself: "Leave organization" below, which also moves to a project one still has.
                <DangerActionCell
                  action={remove}
                  row={member}
                  label={`Remove ${who}`}
                  available={!lastAdmin && member.userId !== myId}
                >
                  Remove
                </DangerActionCell>
              )}
            </TR>
          );
        }}
      />
      <ItemConfirm
        action={remove}
        title={`Remove ${remove.item ? remove.item.name || remove.item.email : 'member'}?`}
        description="They lose access to every project of the organization at once. An invitation brings them back."
        confirmLabel="Remove member"
      />
    </Card>
  );
}

const invitationsKey = (organizationId: string) => ['organization-invitations', organizationId];

/** The organization's invitations, open and past (admins only): the list below and the seats figure read it. */
const invitationsQuery = (organizationId: string) => ({
  queryKey: invitationsKey(organizationId),
  queryFn: async () =>
    (
      await read<{ invitations: Invitation[] }>(
        api.GET('/api/organizations/{organizationId}/invitations', { params: { path: { organizationId } } }),
      )
    ).invitations,
});

function Invitations({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const invitations = useQuery(invitationsQuery(organizationId));
  const usage = useQuery(usageQuery(organizationId));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(INVITE_ROLE);
  // The open invitation of the typed address, if any: the API renews it in place (new link, role and
  // expiry; the earlier link stops working), so the admin is asked first.
  const [replacing, setReplacing] = useState<Invitation | null>(null);
  const [sent, setSent] = useState<{ email: string; acceptUrl: string; mailQueued: boolean } | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: invitationsKey(organizationId) }),
      queryClient.invalidateQueries({ queryKey: usageKey(organizationId) }),
    ]);

  const invite = useMutation({
    mutationFn: () =>
      read<Answer<'/api/organizations/{organizationId}/invitations', 'post', 201>>(
        api.POST('/api/organizations/{organizationId}/invitations', {
          params: { path: { organizationId } },
          body: { email: email.trim(), role },
        }),
      ),
    onSuccess: async (created) => {
      setSent({ email: created.email, acceptUrl: created.acceptUrl, mailQueued: created.mailQueued });
      setReplacing(null);
      setEmail('');
      setRole(INVITE_ROLE);
      await refresh();
    },
  });
  const revoke = useRowAction({
    call: (invitation: Invitation) =>
      read(
        api.DELETE('/api/organizations/{organizationId}/invitations/{id}', {
          params: { path: { organizationId, id: invitation.id } },
        }),
      ),
    refresh: [invitationsKey(organizationId), usageKey(organizationId)],
    success: (invitation) => `Invitation to ${invitation.email} revoked`,
  });

  const pending = invitations.data?.filter((invitation) => invitation.status === 'pending') ?? [];
  const seatsFull = limitReachedNote(usage.data, 'seats', (usage.data?.counters.seats ?? 0) + pending.length);
  const address = email.trim().toLowerCase();
  // Inviting an address again renews its invitation and takes no new seat, so it stays possible at the limit.
  const renewing = pending.some((invitation) => invitation.email.toLowerCase() === address);

  return (
    <Card>
      <CardHeader
        title="Invitations"
        description="An invitation lives 7 days and takes a seat until it is accepted, revoked or expired."
      />
      <FormNotice message={seatsFull} className="mx-4 mt-3" />
      <AddRowForm
        mutation={{
          ...invite,
          mutate: () => {
            const open = pending.find((invitation) => invitation.email.toLowerCase() === address);
            if (open) setReplacing(open);
            else invite.mutate();
          },
        }}
        label="Invite"
        pendingLabel="Inviting…"
        disabled={address === '' || (seatsFull !== null && !renewing)}
      >
        <TextField
          className="w-72"
          label="E-mail address"
          id="invite-email"
          type="email"
          value={email}
          onValue={setEmail}
          required
          maxLength={320}
          placeholder="name@example.com"
        />
        <SelectField className="w-36" label="Role" id="invite-role" value={role} onValue={setRole} options={ROLES} />
      </AddRowForm>
      {sent && (
        <ShownOnce code={sent.acceptUrl} label="invitation link">
          {sent.mailQueued ? (
            <>
              Invitation mailed to <span className="font-medium break-all">{sent.email}</span>. You can also pass on the
              link:
            </>
          ) : (
            <>
              <span className="font-medium break-all">{sent.email}</span> is invited. This server sends no mail: pass on
              this link, shown only now.
            </>
          )}
        </ShownOnce>
      )}
      <ConfirmDialog
        open={replacing !== null}
        onOpenChange={(open) => {
          if (!open) {
            setReplacing(null);
            invite.reset();
          }
        }}
        title={`${replacing?.email ?? ''} is already invited as ${replacing ? roleLabel(replacing.role) : ''} — replace?`}
        description={`Inviting again as ${roleLabel(role)} replaces that invitation: a new link, valid ${INVITATION_DAYS} days from now, and the link sent before stops working.`}
        confirmLabel="Replace invitation"
        pending={invite.isPending}
        error={invite.error}
        onConfirm={() => invite.mutate()}
      />
      <QueryTable
        query={invitations}
        label="Invitations"
        columns={['E-mail', 'Role', 'Status', 'Sent', 'Expires']}
        actions
        empty="No invitations yet. Invite a teammate above."
        row={(invitation) => (
          <TR key={invitation.id}>
            <TD className="w-full max-w-0 font-medium">
              <span className="block truncate" title={invitation.email}>
                {invitation.email}
              </span>
            </TD>
            <TD className="whitespace-nowrap">{roleLabel(invitation.role)}</TD>
            <TD>
              <span
                className={cn(
                  'rounded-sm px-1.5 py-0.5 text-xs',
                  invitation.status === 'pending' ? 'bg-accent-soft text-foreground' : 'bg-muted text-muted-foreground',
                )}
              >
                {invitation.status}
              </span>
            </TD>
            <TD className="tabular whitespace-nowrap">{formatDateTime(invitation.createdAt)}</TD>
            <TD className="tabular whitespace-nowrap">{formatDateTime(invitation.expiresAt)}</TD>
            <DangerActionCell
              action={revoke}
              row={invitation}
              label={`Revoke invitation to ${invitation.email}`}
              available={invitation.status === 'pending'}
            >
              Revoke
            </DangerActionCell>
          </TR>
        )}
      />
      <ItemConfirm
        action={revoke}
        title={`Revoke the invitation to ${revoke.item?.email ?? ''}?`}
        description="Its link stops working at once and its seat is free again."
        confirmLabel="Revoke invitation"
      />
    </Card>
  );
}

const usageKey = (organizationId: string) => usageQuery(organizationId).queryKey;

function PlanAndUsage({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const usage = useQuery(usageQuery(organizationId));
  const pausedUntil = usage.data ? ingestPausedUntil(usage.data) : null;
  const plans = useQuery({
    queryKey: ['billing-plans'],
    queryFn: () => read<Plans>(api.GET('/api/billing/plans')),
    staleTime: 5 * 60_000,
  });
  // The seat limit counts members plus pending invitations (src/api/organizations assertSeatFree);
  // only admins may list invitations, so others see members alone.
  const invitations = useQuery({ ...invitationsQuery(organizationId), enabled: isAdmin });
  const pending = invitations.data?.filter((invitation) => invitation.status === 'pending').length;
  const plan = plans.data?.plans.find((p) => p.code === usage.data?.planCode);
  const upgrades = (plans.data?.plans ?? []).filter((p) => p.code !== usage.data?.planCode && p.prices?.month);

  const go = useMutation({
    mutationFn: (body: { planCode: string; interval: 'month' } | null) =>
      read<{ url: string }>(
        body === null
          ? api.POST('/api/billing/portal', { params: { query: { organizationId } } })
          : api.POST('/api/billing/checkout', { params: { query: { organizationId } }, body }),
      ),
    onSuccess: ({ url }) => window.location.assign(url),
  });

  const billing = isAdmin && plans.data?.billingConfigured === true;
  return (
    <Card>
      <CardHeader
        title="Plan and usage"
        description={
          usage.data
            ? `${plan?.name ?? usage.data.planCode} plan · usage of ${usage.data.periodStart} (UTC month)`
            : 'The plan and what this month used of it.'
        }
        actions={
          billing && (
            <div className="flex gap-2">
              {upgrades.map((p) => (
                <Button
                  key={p.code}
                  variant="primary"
                  disabled={go.isPending}
                  onClick={() => go.mutate({ planCode: p.code, interval: 'month' })}
                >
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
      <FormError message={go.error?.message} className="m-4" />
      {!usage.data ? (
        <ListPending query={usage} />
      ) : (
        <div className="grid gap-4 p-4">
          <UsageBar
            label="Ingest this month"
            used={usage.data.counters.ingest_bytes}
            limit={ingestLimitBytes(usage.data)}
            format={formatBytes}
            note={
              pausedUntil
                ? `Ingest is paused: ${ingestPausedDetail(pausedUntil)}`
                : "Ingest pauses (503) when the month's decompressed bytes reach the limit."
            }
            alert={pausedUntil !== null}
          />
          <UsageBar
            label="Projects"
            used={usage.data.counters.projects}
            limit={usage.data.limits.projects}
            format={formatCount}
          />
          <UsageBar
            label="Seats"
            used={usage.data.counters.seats + (pending ?? 0)}
            limit={usage.data.limits.seats}
            format={formatCount}
            detail={pending ? `${formatCount(pending)} pending invitation${pending === 1 ? '' : 's'}` : undefined}
            note={
              pending === undefined
                ? 'Members. An open invitation also takes a seat.'
                : 'Members and pending invitations: an invitation takes a seat until it is accepted, revoked or expires.'
            }
          />
          <div className="grid gap-1.5">
            <div className="flex items-baseline justify-between gap-4 text-sm">
              <span className="font-medium">Data kept</span>
              <span className="tabular" data-testid="data-kept">
                {dataKept(planKeptDays(usage.data.limits), usage.data.tableRetentionDays)}
              </span>
            </div>
            <p className="text-xs text-muted-foreground">
              Telemetry older than this is deleted within the hour, with its recordings and AI conversations.
            </p>
          </div>
        </div>
      )}
    </Card>
  );
}

/** What each telemetry table holds, as "Data kept" names it. */
const TABLE_LABELS: Record<keyof Usage['tableRetentionDays'], string> = {
  endpoints: 'endpoints',
  tasks: 'tasks',
  ai_traces: 'AI traces',
  spans: 'spans',
  exceptions: 'exceptions',
  metric_points: 'metrics',
  logs: 'logs',
  sessions: 'sessions',
  session_recordings: 'recordings',
  profiles: 'profiles',
  endpoint_hourly: 'hourly endpoint rollup',
};

/**
 * What the plan's days (`planDays`, planKeptDays) mean in the store, where each table's TTL bounds
 * every plan (`tables`, as the engine has them: docs/OPERATIONS.md §6): the days most tables keep,
 * then the others, "90 days (logs, sessions, recordings, and profiles: 30 days)".
 */
const listFormat = new Intl.ListFormat('en', { type: 'conjunction' });

function dataKept(planDays: number, tables: Usage['tableRetentionDays']): string {
  const tablesByDays = new Map<number, string[]>();
  for (const [table, label] of Object.entries(TABLE_LABELS) as Array<[keyof typeof TABLE_LABELS, string]>) {
    const { days } = tableKept(planDays, tables[table]);
    tablesByDays.set(days, [...(tablesByDays.get(days) ?? []), label]);
  }
  const count = (n: number) => `${formatCount(n)} day${n === 1 ? '' : 's'}`;
  const [most, ...others] = [...tablesByDays].sort(([daysA, a], [daysB, b]) => b.length - a.length || daysB - daysA);
  const rest = others.map(([days, labels]) => `${listFormat.format(labels)}: ${count(days)}`).join('; ');
  return rest ? `${count(most![0])} (${rest})` : count(most![0]);
}

function UsageBar({
  label,
  used,
  limit,
  format,
  detail,
  note,
  alert = false,
}: {
  label: string;
  used: number;
  limit: number;
  format: (n: number) => string;
  /** What `used` includes besides the obvious, after the figure: "(3 pending invitations)". */
  detail?: string | undefined;
  note?: string;
  /** The note says something is refused now: shown in red and announced. */
  alert?: boolean;
}) {
  const figure = `${format(used)} of ${format(limit)}${detail ? ` (${detail})` : ''}`;
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  const percent = Math.round(share * 1000) / 10;
  return (
    <div className="grid gap-1.5">
      <div className="flex items-baseline justify-between gap-4 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular text-muted-foreground">
          <span className="text-foreground">{format(used)}</span> of {format(limit)}
          {detail && ` (${detail})`}
        </span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={Math.min(used, limit)}
        aria-valuetext={figure}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn('h-full rounded-full', share >= 1 ? 'bg-danger' : share >= 0.8 ? 'bg-warning' : 'bg-accent')}
          style={{ width: `${Math.max(percent, used > 0 ? 1 : 0)}%` }}
        />
      </div>
      {note &&
        (alert ? (
          <p role="alert" className="text-xs font-medium text-danger">
            {note}
          </p>
        ) : (
          <p className="text-xs text-muted-foreground">{note}</p>
        ))}
    </div>
  );
}

/**
 * Every member may leave (the API's DELETE of their own membership), but not the last admin. After
 * leaving, the shell moves to a project the person still has, or says they have none.
 */
function LeaveOrganization({
  organizationId,
  organizationName,
  myId,
  isAdmin,
}: {
  organizationId: string;
  organizationName: string;
  myId: string;
  isAdmin: boolean;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const members = useQuery(membersQuery(organizationId));
  const lastAdmin = isAdmin && (members.data?.filter((m) => m.role === 'admin').length ?? 0) === 1;
  const leave = useMutation({
    mutationFn: () =>
      read(
        api.DELETE('/api/organizations/{organizationId}/members/{userId}', {
          params: { path: { organizationId, userId: myId } },
        }),
      ),
    onSuccess: async () => {
      setOpen(false);
      toast.success(`You left ${organizationName}`);
      forgetProjects(
        (queryClient.getQueryData(projectsQuery.queryKey) ?? [])
          .filter((project) => project.organizationId === organizationId)
          .map((project) => project.id),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey }),
      ]);
      void navigate({ to: '/', search: ({ projectId: _left, ...rest }) => rest });
    },
  });
  return (
    <Card className="border-danger/40">
      <CardHeader
        title="Leave organization"
        description={
          lastAdmin ? LAST_ADMIN_LEAVING : 'You lose access to its projects at once; an admin can invite you back.'
        }
        actions={
          <Button variant="danger" onClick={() => setOpen(true)} disabled={lastAdmin}>
            Leave organization…
          </Button>
        }
      />
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) leave.reset();
        }}
        title={`Leave ${organizationName}?`}
        description="You lose access to every project of the organization at once. An invitation brings you back."
        confirmLabel="Leave organization"
        pending={leave.isPending}
        error={leave.error}
        onConfirm={() => leave.mutate()}
      />
    </Card>
  );
}
