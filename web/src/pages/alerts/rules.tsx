/** The Rules section of /alerts: every rule with its state, channels and switches. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BellOff, BellRing, History, Pencil, Plus, Trash2, UserCheck } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/components/shell/toasts';
import { Button, RowDangerButton } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Menu, MenuContent, MenuItem, MenuTrigger } from '@/components/ui/menu';
import { ItemConfirm } from '@/components/ui/dialog';
import { RelativeTime } from '@/components/ui/relative-time';
import { EmptyState } from '@/components/ui/states';
import { QueryTable, TD, TR } from '@/components/ui/table';
import { api, read } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { useRowAction } from '@/lib/use-row-action';
import { channelsQuery, eventsKey, rulesKey, rulesQuery } from './api';
import { RuleStateBadge } from './badges';
import { ruleCondition, ruleReminder } from './conditions';
import { RuleDialog, ruleBody } from './rule-dialog';
import { ruleKindLabel, type AlertRule } from './types';

const SNOOZES = [
  { hours: 1, label: 'For 1 hour' },
  { hours: 8, label: 'For 8 hours' },
  { hours: 24, label: 'For 24 hours' },
  { hours: 24 * 7, label: 'For 7 days' },
];

/** What a writer may do about a firing rule; acknowledging is offered once a firing. */
const ON_CALL_ACTIONS = [
  {
    action: 'acknowledge',
    label: 'Acknowledge',
    title:
      "I'm on it: its channels are told, reminders stop; shown with the rule until it resolves (a new issue clears it)",
  },
  { action: 'resolve', label: 'Resolve', title: 'Resolve by hand; its channels are told' },
] as const;

export function RulesSection({ projectId, writable }: { projectId: string; writable: boolean }) {
  const queryClient = useQueryClient();
  const rules = useQuery(rulesQuery(projectId));
  const channels = useQuery(channelsQuery(projectId));
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const channelName = (id: string) => channels.data?.find((channel) => channel.id === id)?.name ?? 'deleted channel';

  const update = useMutation({
    mutationFn: ({
      rule,
      change,
    }: {
      rule: AlertRule;
      change: Partial<Pick<AlertRule, 'enabled' | 'snoozedUntil'>>;
      message: string;
    }) =>
      read<AlertRule>(
        api.PUT('/api/alert-rules/{id}', {
          params: { path: { id: rule.id }, query: { projectId } },
          body: ruleBody(rule, change),
        }),
      ),
    onSuccess: async (_saved, { message }) => {
      toast.success(message);
      await queryClient.invalidateQueries({ queryKey: rulesKey(projectId) });
    },
    onError: (error) => toast.error(error.message),
  });
  // On call: "I'm on it" (who is on this firing) and resolving by hand.
  const act = useMutation({
    mutationFn: ({ rule, action }: { rule: AlertRule; action: 'acknowledge' | 'resolve' }) =>
      read<AlertRule>(
        api.POST(`/api/alert-rules/{id}/${action}`, { params: { path: { id: rule.id }, query: { projectId } } }),
      ),
    onSuccess: async (_saved, { rule, action }) => {
      toast.success(`Rule ${rule.name} ${action === 'acknowledge' ? 'acknowledged' : 'resolved'}`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: rulesKey(projectId) }),
        queryClient.invalidateQueries({ queryKey: eventsKey(projectId) }),
      ]);
    },
    onError: (error) => toast.error(error.message),
  });
  const remove = useRowAction({
    call: (rule: AlertRule) =>
      read(api.DELETE('/api/alert-rules/{id}', { params: { path: { id: rule.id }, query: { projectId } } })),
    refresh: [rulesKey(projectId)],
    success: (rule) => `Rule ${rule.name} deleted`,
  });

  const now = Date.now();
  return (
    <Card aria-label="Rules">
      <CardHeader
        title="Rules"
        description="Each rule is evaluated once a minute; a firing rule notifies its channels."
        actions={
          writable && (
            <Button size="sm" variant="primary" onClick={() => setEditing('new')}>
              <Plus aria-hidden /> New rule
            </Button>
          )
        }
      />
      <QueryTable
        query={rules}
        label="Alert rules"
        columns={[
          { label: 'Name', className: 'w-2/5' },
          'Kind',
          { label: 'Condition', className: 'w-3/5' },
          'State',
          'Channels',
          'Enabled',
          { label: 'Last fired', numeric: true },
        ]}
        actions
        skeletonRows={4}
        empty={
          <EmptyState title="No alert rules yet">
            {writable
              ? 'Create a rule to be told about new issues, regressions, slow endpoints, error rates, metrics or log lines.'
              : 'A member with the write role can create rules.'}
          </EmptyState>
        }
        row={(rule) => {
          const snoozed = rule.snoozedUntil !== null && Date.parse(rule.snoozedUntil) > now;
          return (
            <TR key={rule.id} data-rule={rule.name}>
              <TD className="max-w-0">
                <div className="truncate font-medium" title={rule.name}>
                  {rule.name}
                </div>
                {snoozed && (
                  <div className="flex items-center gap-1 text-xs text-muted-foreground" data-testid="snoozed">
                    <BellOff className="size-3" aria-hidden /> snoozed until {formatDateTime(rule.snoozedUntil)}
                  </div>
                )}
                {rule.acknowledgedBy && (
                  <div className="flex items-center gap-1 text-xs text-muted-foreground" data-testid="acknowledged">
                    <UserCheck className="size-3 shrink-0" aria-hidden />
                    <span className="truncate">
                      acknowledged by {rule.acknowledgedBy.name} · <RelativeTime value={rule.acknowledgedAt} />
                    </span>
                  </div>
                )}
              </TD>
              <TD className="whitespace-nowrap">{ruleKindLabel(rule.kind)}</TD>
              <TD className="max-w-0 text-muted-foreground" data-column="condition">
                <div className="truncate" title={ruleCondition(rule)}>
                  {ruleCondition(rule)}
                </div>
                {ruleReminder(rule) && (
                  <div className="flex items-center gap-1 text-xs" data-testid="reminder">
                    <BellRing className="size-3 shrink-0" aria-hidden />
                    <span className="truncate">{ruleReminder(rule)}</span>
                  </div>
                )}
              </TD>
              <TD>
                <RuleStateBadge state={rule.state} />
              </TD>
              <TD className="max-w-56 truncate text-muted-foreground" data-column="channels">
                {rule.channelIds.length === 0 ? '—' : rule.channelIds.map(channelName).join(', ')}
              </TD>
              <TD>
                <Switch
                  checked={rule.enabled}
                  disabled={!writable || update.isPending}
                  label={`${rule.name} enabled`}
                  onChange={(enabled) =>
                    update.mutate({
                      rule,
                      change: { enabled },
                      message: `Rule ${rule.name} ${enabled ? 'enabled' : 'disabled'}`,
                    })
                  }
                />
              </TD>
              <TD numeric className="text-muted-foreground">
                {rule.lastNotifiedAt ? <RelativeTime value={rule.lastNotifiedAt} /> : 'never'}
              </TD>
              <TD>
                <div className="flex items-center justify-end gap-1">
                  {writable &&
                    rule.state === 'firing' &&
                    ON_CALL_ACTIONS.filter(({ action }) => action === 'resolve' || !rule.acknowledgedBy).map(
                      ({ action, label, title }) => (
                        <Button
                          key={action}
                          size="sm"
                          disabled={act.isPending}
                          onClick={() => act.mutate({ rule, action })}
                          title={title}
                        >
                          {label}
                        </Button>
                      ),
                    )}
                  <Button size="sm" variant="ghost" asChild>
                    <Link
                      to="/alerts"
                      search={(prev) => ({ ...prev, tab: 'history', rule: rule.id, page: undefined })}
                      aria-label={`History of ${rule.name}`}
                      title="History"
                    >
                      <History aria-hidden />
                    </Link>
                  </Button>
                  {writable && (
                    <>
                      <Menu>
                        <MenuTrigger asChild>
                          <Button size="sm" variant="ghost" aria-label={`Snooze ${rule.name}`}>
                            <BellOff aria-hidden />
                          </Button>
                        </MenuTrigger>
                        <MenuContent align="end">
                          {SNOOZES.map((snooze) => (
                            <MenuItem
                              key={snooze.hours}
                              onSelect={() =>
                                update.mutate({
                                  rule,
                                  change: {
                                    snoozedUntil: new Date(Date.now() + snooze.hours * 3_600_000).toISOString(),
                                  },
                                  message: `Rule ${rule.name} snoozed ${snooze.label.toLowerCase()}`,
                                })
                              }
                            >
                              {snooze.label}
                            </MenuItem>
                          ))}
                          {snoozed && (
                            <MenuItem
                              onSelect={() =>
                                update.mutate({
                                  rule,
                                  change: { snoozedUntil: null },
                                  message: `Rule ${rule.name} no longer snoozed`,
                                })
                              }
                            >
                              Stop snoozing
                            </MenuItem>
                          )}
                        </MenuContent>
                      </Menu>
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => setEditing(rule)}
                        aria-label={`Edit ${rule.name}`}
                      >
                        <Pencil aria-hidden />
                      </Button>
                      <RowDangerButton action={remove} row={rule} label={`Delete ${rule.name}`}>
                        <Trash2 aria-hidden />
                      </RowDangerButton>
                    </>
                  )}
                </div>
              </TD>
            </TR>
          );
        }}
      />
      {editing !== null && (
        <RuleDialog projectId={projectId} rule={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      <ItemConfirm
        action={remove}
        title={`Delete rule ${remove.item?.name ?? ''}?`}
        description="It stops being evaluated. Its past deliveries stay in the history."
        confirmLabel="Delete rule"
      />
    </Card>
  );
}

function Switch({
  checked,
  disabled,
  label,
  onChange,
}: {
  checked: boolean;
  disabled: boolean;
  label: string;
  onChange: (checked: boolean) => void;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={
        'relative inline-flex h-5 w-9 shrink-0 items-center rounded-full border outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60 ' +
        (checked ? 'border-accent bg-accent' : 'border-input bg-muted')
      }
    >
      <span
        className={`inline-block size-3.5 rounded-full bg-panel shadow transition-transform ${checked ? 'translate-x-4' : 'translate-x-0.5'}`}
      />
    </button>
  );
}
