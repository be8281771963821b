/**
 * Create or edit an alert rule: its kind's parameters, channels, enabled, cooldown, reminders. The server
 * checks the parameters (src/core/alerts.ts parseRuleParams) and its message names the field, so
 * it is shown as it comes rather than duplicated here.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from '@/components/shell/toasts';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Input, Select, SelectField, TextField } from '@/components/ui/input';
import { api, read } from '@/lib/api';
import { channelsQuery, rulesKey } from './api';
import { intervalLabel, severityOptions } from './conditions';
import { DialogFormFooter } from '@/components/ui/form';
import { RULE_KINDS, channelKindLabel, type AlertRule, type RuleKind } from './types';

interface ParamField {
  key: string;
  label: string;
  /** `severity`: an OpenTelemetry severity number, offered as its levels (TRACE…FATAL). */
  type: 'number' | 'text' | 'select' | 'severity';
  options?: readonly string[];
  hint?: string;
}

const WINDOW: ParamField = {
  key: 'windowMinutes',
  label: 'Window (minutes)',
  type: 'number',
  hint: '1 to 1440; default 5.',
};

export const PARAM_FIELDS: Record<RuleKind, ParamField[]> = {
  new_issue: [],
  regression: [],
  issue_frequency: [
    WINDOW,
    { key: 'threshold', label: 'Occurrences at least', type: 'number' },
    { key: 'hash', label: 'Issue hash', type: 'text', hint: 'Optional: one issue; empty for any.' },
  ],
  endpoint_latency: [
    WINDOW,
    { key: 'percentile', label: 'Percentile', type: 'select', options: ['p95', 'p99'] },
    { key: 'thresholdMs', label: 'Above (ms)', type: 'number' },
    { key: 'endpoint', label: 'Endpoint', type: 'text', hint: 'Optional, e.g. GET /api/orders; empty for all.' },
  ],
  error_rate: [
    WINDOW,
    { key: 'thresholdPercent', label: 'Error rate above (%)', type: 'number' },
    { key: 'minRequests', label: 'Minimum requests', type: 'number' },
    { key: 'endpoint', label: 'Endpoint', type: 'text', hint: 'Optional; empty for all.' },
  ],
  metric_threshold: [
    WINDOW,
    { key: 'metric', label: 'Metric', type: 'text' },
    {
      key: 'aggregation',
      label: 'Aggregation',
      type: 'select',
      options: ['avg', 'sum', 'min', 'max', 'count', 'p50', 'p90', 'p95', 'p99'],
    },
    { key: 'comparator', label: 'Comparator', type: 'select', options: ['gt', 'gte', 'lt', 'lte'] },
    { key: 'threshold', label: 'Threshold', type: 'number' },
  ],
  log_match: [
    WINDOW,
    { key: 'search', label: 'Text', type: 'text' },
    { key: 'minSeverity', label: 'Minimum severity', type: 'severity', hint: 'This level and above; Any for all.' },
    { key: 'serviceName', label: 'Service', type: 'text' },
    { key: 'threshold', label: 'Matching lines at least', type: 'number' },
  ],
};

const COOLDOWNS = [
  { value: 0, label: 'None' },
  { value: 300, label: '5 minutes' },
  { value: 1800, label: '30 minutes' },
  { value: 3600, label: '1 hour' },
  { value: 21600, label: '6 hours' },
  { value: 86400, label: '24 hours' },
];

/** "Remind every": threshold rules only (an event rule's news is notified as it comes). */
const REMINDERS = [
  { value: 'never', label: 'Never' },
  { value: '3600', label: '1 hour' },
  { value: '14400', label: '4 hours' },
  { value: '86400', label: '24 hours' },
];
/** What a new threshold rule reminds by default: the server's default (4 hours). */
const DEFAULT_REMINDER = 14_400;
const isEventKind = (kind: RuleKind) => kind === 'new_issue' || kind === 'regression';

/** The body of PUT /api/alert-rules/{id} that keeps a rule as it is except for `change`. */
export function ruleBody(rule: AlertRule, change: Partial<Pick<AlertRule, 'enabled' | 'snoozedUntil'>> = {}) {
  return {
    name: rule.name,
    kind: rule.kind,
    params: rule.params,
    channelIds: rule.channelIds,
    enabled: rule.enabled,
    cooldownSeconds: rule.cooldownSeconds,
    snoozedUntil: rule.snoozedUntil,
    repeatIntervalSeconds: rule.repeatIntervalSeconds,
    ...change,
  };
}

export function RuleDialog({
  projectId,
  rule,
  onClose,
}: {
  projectId: string;
  rule: AlertRule | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const channels = useQuery(channelsQuery(projectId));
  const [name, setName] = useState(rule?.name ?? '');
  const [kind, setKind] = useState<RuleKind>(rule?.kind ?? 'new_issue');
  const [params, setParams] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      Object.entries(rule?.params ?? {})
        .filter(([, value]) => value !== null && typeof value !== 'object')
        .map(([key, value]) => [key, String(value)]),
    ),
  );
  const [channelIds, setChannelIds] = useState<string[]>(rule?.channelIds ?? []);
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [cooldown, setCooldown] = useState(rule?.cooldownSeconds ?? 0);
  // A threshold rule's stored setting; an event rule (or a new rule) starts at the default.
  const [reminder, setReminder] = useState<number | null>(
    rule && !isEventKind(rule.kind) ? rule.repeatIntervalSeconds : DEFAULT_REMINDER,
  );

  const save = useMutation({
    mutationFn: () => {
      const fields = PARAM_FIELDS[kind];
      const body = {
        name,
        kind,
        params: Object.fromEntries(
          fields
            .filter((field) => (params[field.key] ?? '').trim() !== '')
            .map((field) => [
              field.key,
              field.type === 'number' || field.type === 'severity'
                ? Number(params[field.key])
                : params[field.key]!.trim(),
            ]),
        ),
        channelIds,
        enabled,
        cooldownSeconds: cooldown,
        snoozedUntil: rule?.snoozedUntil ?? null,
        repeatIntervalSeconds: isEventKind(kind) ? null : reminder,
      };
      return rule
        ? read<AlertRule>(
            api.PUT('/api/alert-rules/{id}', { params: { path: { id: rule.id }, query: { projectId } }, body }),
          )
        : read<AlertRule>(api.POST('/api/alert-rules', { params: { query: { projectId } }, body }));
    },
    onSuccess: async (saved) => {
      toast.success(`Rule ${saved.name} ${rule ? 'saved' : 'created'}`);
      await queryClient.invalidateQueries({ queryKey: rulesKey(projectId) });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const cooldownOptions = COOLDOWNS.some((option) => option.value === cooldown)
    ? COOLDOWNS
    : [...COOLDOWNS, { value: cooldown, label: `${cooldown} s` }];
  const reminderValue = reminder === null ? 'never' : String(reminder);
  const reminderOptions = REMINDERS.some((option) => option.value === reminderValue)
    ? REMINDERS
    : [...REMINDERS, { value: reminderValue, label: intervalLabel(reminder!) }];

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={rule ? `Edit rule ${rule.name}` : 'New alert rule'}
        description="Evaluated once a minute; notifications go to the channels picked here."
        className="max-w-xl"
      >
        <form className="grid gap-3" onSubmit={submit} noValidate>
          <div className="grid items-start gap-3 sm:grid-cols-2">
            <TextField label="Name" id="rule-name" value={name} onValue={setName} maxLength={100} autoFocus />
            <SelectField label="Kind" id="rule-kind" value={kind} onValue={setKind} options={RULE_KINDS} />
            {PARAM_FIELDS[kind].map((field) => (
              <Field
                key={`${kind}-${field.key}`}
                label={field.label}
                htmlFor={`rule-param-${field.key}`}
                {...(field.hint ? { hint: field.hint } : {})}
              >
                {field.type === 'severity' ? (
                  <Select
                    id={`rule-param-${field.key}`}
                    value={params[field.key] ?? ''}
                    onChange={(event) => setParams({ ...params, [field.key]: event.target.value })}
                    options={severityOptions(rule?.params[field.key as keyof AlertRule['params']]?.toString())}
                  />
                ) : field.type === 'select' ? (
                  <Select
                    id={`rule-param-${field.key}`}
                    value={params[field.key] ?? field.options![0]}
                    onChange={(event) => setParams({ ...params, [field.key]: event.target.value })}
                  >
                    {field.options!.map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </Select>
                ) : (
                  <Input
                    id={`rule-param-${field.key}`}
                    type={field.type === 'number' ? 'number' : 'text'}
                    inputMode={field.type === 'number' ? 'decimal' : undefined}
                    value={params[field.key] ?? ''}
                    onChange={(event) => setParams({ ...params, [field.key]: event.target.value })}
                  />
                )}
              </Field>
            ))}
            <Field label="Cooldown" htmlFor="rule-cooldown" hint="Least time between two firing notifications.">
              <Select
                id="rule-cooldown"
                value={cooldown}
                onChange={(event) => setCooldown(Number(event.target.value))}
                options={cooldownOptions}
              />
            </Field>
            {!isEventKind(kind) && (
              <Field
                label="Remind every"
                htmlFor="rule-reminder"
                hint="While it stays firing and nobody acknowledged it."
              >
                <Select
                  id="rule-reminder"
                  value={reminderValue}
                  onChange={(event) => setReminder(event.target.value === 'never' ? null : Number(event.target.value))}
                  options={reminderOptions}
                />
              </Field>
            )}
          </div>
          {/* Its own row under the fields: in the grid it took a field's label height (pt-6) to line
              up beside one, which left a wider gap above it whenever it began a row. */}
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={enabled}
              onChange={(event) => setEnabled(event.target.checked)}
              className="size-4 accent-accent"
            />
            Enabled
          </label>
          <fieldset className="grid gap-1.5">
            <legend className="text-xs font-medium text-muted-foreground">Channels</legend>
            {channels.data && channels.data.length === 0 && (
              <p className="text-xs text-muted-foreground">
                No channels yet: the rule keeps its state without notifying. Add one under Channels.
              </p>
            )}
            <div className="grid max-h-40 gap-1 overflow-y-auto">
              {channels.data?.map((channel) => (
                <label key={channel.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-accent"
                    checked={channelIds.includes(channel.id)}
                    onChange={(event) =>
                      setChannelIds(
                        event.target.checked
                          ? [...channelIds, channel.id]
                          : channelIds.filter((id) => id !== channel.id),
                      )
                    }
                  />
                  {channel.name}
                  <span className="text-xs text-muted-foreground">{channelKindLabel(channel.kind)}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <DialogFormFooter
            error={inFieldTerms(save.error, PARAM_FIELDS[kind])}
            pending={save.isPending}
            label={rule ? 'Save rule' : 'Create rule'}
            pendingLabel="Saving…"
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The service names a refused condition by its API path ("params.threshold must be …"); the dialog
 * says it by the field's label, as the person filled it in ("Occurrences at least must be …").
 */
export function inFieldTerms(error: Error | null, fields: readonly ParamField[]): Error | null {
  if (!error) return null;
  const message = error.message.replace(/\bparams\.(\w+)/g, (path, key: string) => {
    const field = fields.find((candidate) => candidate.key === key);
    return field ? `"${field.label}"` : path;
  });
  return message === error.message ? error : new Error(message);
}
