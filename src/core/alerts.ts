/**
 * Alerting, pure: rule kinds and their parameters (validated with a message naming the field),
 * the state machine of a rule (ok -> firing -> resolved, cooldown and snooze), notification
 * rendering per channel kind (e-mail text, Slack Block Kit, webhook JSON) and the webhook
 * signature. No I/O: the evaluator reads values and hands them here.
 */
import { createHmac } from 'node:crypto';
import { formatInstantInZone } from './time-zones.js';

export const RULE_KINDS = [
  'new_issue',
  'regression',
  'issue_frequency',
  'endpoint_latency',
  'error_rate',
  'metric_threshold',
  'log_match',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const CHANNEL_KINDS = ['email', 'webhook', 'slack'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
export const RULE_STATES = ['ok', 'firing', 'resolved'] as const;
export type RuleState = (typeof RULE_STATES)[number];

export const COMPARATORS = ['gt', 'gte', 'lt', 'lte'] as const;
export type Comparator = (typeof COMPARATORS)[number];
export const METRIC_AGGREGATIONS = ['avg', 'sum', 'min', 'max', 'count', 'p50', 'p90', 'p95', 'p99'] as const;

/** Event rules fire on issue activity; the others compare a value read over a window. */
export const isEventRule = (kind: RuleKind): kind is 'new_issue' | 'regression' =>
  kind === 'new_issue' || kind === 'regression';

export interface MetricFilter {
  field: string;
  op: 'eq' | 'neq' | 'contains' | 'gt' | 'gte' | 'lt' | 'lte';
  value: string | number | boolean;
}

export type RuleParams =
  | { kind: 'new_issue' }
  | { kind: 'regression' }
  | { kind: 'issue_frequency'; windowMinutes: number; threshold: number; hash: string | null }
  | {
      kind: 'endpoint_latency';
      windowMinutes: number;
      percentile: 'p95' | 'p99';
      thresholdMs: number;
      endpoint: string | null;
    }
  | {
      kind: 'error_rate';
      windowMinutes: number;
      thresholdPercent: number;
      minRequests: number;
      endpoint: string | null;
    }
  | {
      kind: 'metric_threshold';
      windowMinutes: number;
      metric: string;
      aggregation: (typeof METRIC_AGGREGATIONS)[number];
      filters: MetricFilter[];
      comparator: Comparator;
      threshold: number;
    }
  | {
      kind: 'log_match';
      windowMinutes: number;
      search: string | null;
      minSeverity: number | null;
      serviceName: string | null;
      threshold: number;
    };

/** Log match thresholds are counted by reading at most this many logs (the log search's page). */
export const MAX_LOG_MATCH_THRESHOLD = 500;
export const MAX_WINDOW_MINUTES = 1440;

/**
 * Reminders of a threshold rule that stays firing: any whole number of seconds in this range, or
 * null (never). New threshold rules remind every 4 hours (Grafana's default repeat interval);
 * event rules never do (each of their news is notified as it comes).
 */
export const MIN_REPEAT_INTERVAL_SECONDS = 300;
export const MAX_REPEAT_INTERVAL_SECONDS = 604_800;
export const DEFAULT_REPEAT_INTERVAL_SECONDS = 14_400;

export class RuleInputError extends Error {
  override name = 'RuleInputError';
}

type Json = Record<string, unknown>;
const fail = (message: string): never => {
  throw new RuleInputError(message);
};

function integer(params: Json, field: string, min: number, max: number, fallback?: number): number {
  const value = params[field] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    fail(`params.${field} must be an integer from ${min} to ${max}`);
  return value as number;
}
function finite(params: Json, field: string, min = -Number.MAX_VALUE): number {
  const value = params[field];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
    fail(`params.${field} must be a number${min > -Number.MAX_VALUE ? ` >= ${min}` : ''}`);
  return value as number;
}
function text(params: Json, field: string, max: number, required: boolean): string | null {
  const value = params[field];
  if (value === undefined || value === null) return required ? fail(`params.${field} is required`) : null;
  if (typeof value !== 'string' || value.length === 0 || value.length > max)
    fail(`params.${field} must be a string of 1 to ${max} characters`);
  return value as string;
}
function oneOf<T extends string>(params: Json, field: string, allowed: readonly T[], fallback?: T): T {
  const value = params[field] ?? fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    fail(`params.${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}
function known(params: Json, fields: string[]): void {
  for (const key of Object.keys(params))
    if (!fields.includes(key))
      fail(`params.${key} is not a parameter of this rule kind (${fields.join(', ') || 'none'})`);
}

/** Checks a rule's parameters for its kind; throws RuleInputError naming the field. */
export function parseRuleParams(kind: RuleKind, input: unknown): RuleParams {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input)))
    fail('params must be an object');
  const params = (input ?? {}) as Json;
  const window = () => integer(params, 'windowMinutes', 1, MAX_WINDOW_MINUTES, 5);
  switch (kind) {
    case 'new_issue':
    case 'regression':
      known(params, []);
      return { kind };
    case 'issue_frequency': {
      known(params, ['windowMinutes', 'threshold', 'hash']);
      const hash = text(params, 'hash', 16, false);
      if (hash !== null && !/^[0-9a-f]{16}$/.test(hash)) fail('params.hash must be an issue hash (16 lowercase hex)');
      return { kind, windowMinutes: window(), threshold: integer(params, 'threshold', 1, 1_000_000_000), hash };
    }
    case 'endpoint_latency':
      known(params, ['windowMinutes', 'percentile', 'thresholdMs', 'endpoint']);
      return {
        kind,
        windowMinutes: window(),
        percentile: oneOf(params, 'percentile', ['p95', 'p99'] as const, 'p95'),
        thresholdMs: finite(params, 'thresholdMs', 0),
        endpoint: text(params, 'endpoint', 500, false),
      };
    case 'error_rate': {
      known(params, ['windowMinutes', 'thresholdPercent', 'minRequests', 'endpoint']);
      const thresholdPercent = finite(params, 'thresholdPercent', 0);
      if (thresholdPercent > 100) fail('params.thresholdPercent must be at most 100');
      return {
        kind,
        windowMinutes: window(),
        thresholdPercent,
        minRequests: integer(params, 'minRequests', 1, 1_000_000_000, 1),
        endpoint: text(params, 'endpoint', 500, false),
      };
    }
    case 'metric_threshold': {
      known(params, ['windowMinutes', 'metric', 'aggregation', 'filters', 'comparator', 'threshold']);
      const filters = params.filters ?? [];
      if (!Array.isArray(filters) || filters.length > 20)
        fail('params.filters must be an array of at most 20 {field, op, value}');
      for (const [index, filter] of (filters as unknown[]).entries()) {
        const f = filter as Json;
        if (
          typeof f !== 'object' ||
          f === null ||
          typeof f.field !== 'string' ||
          !['eq', 'neq', 'contains', 'gt', 'gte', 'lt', 'lte'].includes(f.op as string) ||
          !['string', 'number', 'boolean'].includes(typeof f.value)
        ) {
          fail(`params.filters[${index}] must be {field, op (eq, neq, contains, gt, gte, lt, lte), value}`);
        }
      }
      return {
        kind,
        windowMinutes: window(),
        metric: text(params, 'metric', 500, true)!,
        aggregation: oneOf(params, 'aggregation', METRIC_AGGREGATIONS, 'avg'),
        filters: filters as MetricFilter[],
        comparator: oneOf(params, 'comparator', COMPARATORS, 'gt'),
        threshold: finite(params, 'threshold'),
      };
    }
    case 'log_match': {
      known(params, ['windowMinutes', 'search', 'minSeverity', 'serviceName', 'threshold']);
      const minSeverity =
        params.minSeverity === undefined || params.minSeverity === null ? null : integer(params, 'minSeverity', 1, 24);
      const search = text(params, 'search', 500, false);
      const serviceName = text(params, 'serviceName', 500, false);
      if (search === null && minSeverity === null && serviceName === null)
        fail('params needs at least one of search, minSeverity, serviceName');
      return {
        kind,
        windowMinutes: window(),
        search,
        minSeverity,
        serviceName,
        threshold: integer(params, 'threshold', 1, MAX_LOG_MATCH_THRESHOLD, 1),
      };
    }
  }
}

/** Does a threshold rule's value breach? null (no data) never does. */
export function breaches(params: RuleParams, value: number | null): boolean {
  if (value === null) return false;
  switch (params.kind) {
    case 'issue_frequency':
    case 'log_match':
      return value >= params.threshold;
    case 'endpoint_latency':
      return value > params.thresholdMs;
    case 'error_rate':
      return value > params.thresholdPercent;
    case 'metric_threshold':
      return compare(value, params.comparator, params.threshold);
    default:
      return false;
  }
}

function compare(value: number, comparator: Comparator, threshold: number): boolean {
  if (comparator === 'gt') return value > threshold;
  if (comparator === 'gte') return value >= threshold;
  if (comparator === 'lt') return value < threshold;
  return value <= threshold;
}

export interface RuleRuntime {
  state: RuleState;
  snoozedUntil: Date | null;
  cooldownSeconds: number;
  lastNotifiedAt: Date | null;
  /** Whether the current (or last) firing was notified: only then is its resolving. */
  firingNotified: boolean;
  /** A person acknowledged the current firing ("I'm on it"). */
  acknowledged: boolean;
  /** Remind of a firing nobody acknowledged this often (threshold rules); null: never. */
  repeatIntervalSeconds: number | null;
}

export interface Decision {
  state: RuleState;
  /** The state changed in this evaluation (a new firing, a resolving). */
  changed: boolean;
  /**
   * Send a notification now: of a new firing or a resolving, a reminder that the rule is still
   * firing, or (a person's action) that someone acknowledged the firing.
   */
  notify: 'firing' | 'resolved' | 'reminder' | 'acknowledged' | null;
  /** Why a change was not notified (snooze, cooldown), for the log. */
  suppressed: 'snoozed' | 'cooldown' | null;
  /** The acknowledgement stands: the same firing goes on. A resolving, a new firing or an event rule's news clears it. */
  acknowledged: boolean;
}

/**
 * The next state of a rule. Threshold rules fire when the condition starts to hold and resolve
 * when it stops. Event rules fire on new activity and stay firing until a person resolves them
 * (nothing in the data says "that new issue is dealt with"); each later evaluation with news
 * notifies again and clears an acknowledgement, which was about earlier news. A firing is not notified while snoozed, nor within the
 * cooldown of the last firing notification; a resolving is notified only when its firing was. A
 * threshold rule that stays firing, unacknowledged and not snoozed, reminds its channels once its
 * repeat interval has passed since its last firing notification (or reminder).
 */
export function decide(kind: RuleKind, runtime: RuleRuntime, condition: boolean, now: Date): Decision {
  const snoozed = isSnoozed(runtime, now);
  const firing = runtime.state === 'firing';
  const unchanged: Decision = {
    state: runtime.state,
    changed: false,
    notify: null,
    suppressed: null,
    acknowledged: firing && runtime.acknowledged,
  };
  if (isEventRule(kind)) return condition ? fireDecision(runtime, snoozed, now) : unchanged;
  if (condition) {
    if (!firing) return fireDecision(runtime, snoozed, now);
    return reminderDue(runtime, snoozed, now) ? { ...unchanged, notify: 'reminder' } : unchanged;
  }
  return firing ? resolveDecision(runtime, snoozed) : unchanged;
}

/**
 * A firing threshold rule's reminder is due. Counted from the last firing notification, so a
 * firing held back by a snooze (or never notified) is reminded of as soon as the snooze ends.
 */
function reminderDue(runtime: RuleRuntime, snoozed: boolean, now: Date): boolean {
  if (snoozed || runtime.acknowledged || runtime.repeatIntervalSeconds === null) return false;
  return (
    runtime.lastNotifiedAt === null ||
    now.getTime() - runtime.lastNotifiedAt.getTime() >= runtime.repeatIntervalSeconds * 1000
  );
}

const isSnoozed = (runtime: RuleRuntime, now: Date) =>
  runtime.snoozedUntil !== null && runtime.snoozedUntil.getTime() > now.getTime();

function fireDecision(runtime: RuleRuntime, snoozed: boolean, now: Date): Decision {
  // Only an event rule fires again while firing, and its news is news: a new issue is not the one
  // someone acknowledged, so it is notified and the acknowledgement no longer stands.
  const changed = runtime.state !== 'firing';
  const fired = { state: 'firing', changed, acknowledged: false } as const;
  if (snoozed) return { ...fired, notify: null, suppressed: 'snoozed' };
  if (
    runtime.lastNotifiedAt !== null &&
    now.getTime() - runtime.lastNotifiedAt.getTime() < runtime.cooldownSeconds * 1000
  ) {
    return { ...fired, notify: null, suppressed: 'cooldown' };
  }
  return { ...fired, notify: 'firing', suppressed: null };
}

function resolveDecision(runtime: RuleRuntime, snoozed: boolean): Decision {
  const resolved = { state: 'resolved', changed: true, acknowledged: false } as const;
  if (!runtime.firingNotified) return { ...resolved, notify: null, suppressed: null };
  if (snoozed) return { ...resolved, notify: null, suppressed: 'snoozed' };
  return { ...resolved, notify: 'resolved', suppressed: null };
}

/** A person's action on a firing rule. */
export type RuleAction = 'acknowledge' | 'resolve';

export class RuleActionRefused extends Error {
  override name = 'RuleActionRefused';
}

/**
 * What a person's acknowledge or resolve does to the rule now: acknowledging keeps it firing and
 * says who is on it (until it resolves, fires anew, or an event rule has news), and stops its
 * reminders; resolving by hand resolves it as the evaluator would. Either is told to the rule's
 * channels when its firing was notified and it is not snoozed (who was told of the firing hears
 * who took it). A threshold rule whose condition still holds fires anew at its next evaluation.
 * Only a firing rule, and only one acknowledgement a firing.
 */
export function decideAction(action: RuleAction, runtime: RuleRuntime, now: Date): Decision {
  if (runtime.state !== 'firing')
    throw new RuleActionRefused(`only a firing rule can be ${action}d: this one is ${runtime.state}`);
  if (action === 'resolve') return resolveDecision(runtime, isSnoozed(runtime, now));
  if (runtime.acknowledged) throw new RuleActionRefused('this firing is already acknowledged');
  const acknowledged = { state: 'firing', changed: false, acknowledged: true } as const;
  if (!runtime.firingNotified) return { ...acknowledged, notify: null, suppressed: null };
  if (isSnoozed(runtime, now)) return { ...acknowledged, notify: null, suppressed: 'snoozed' };
  return { ...acknowledged, notify: 'acknowledged', suppressed: null };
}

/** What a notification says, independent of the channel. */
export interface Notification {
  ruleId: string;
  ruleName: string;
  kind: RuleKind;
  state: 'firing' | 'resolved' | 'test';
  /**
   * What a notification of a firing rule tells beyond its firing: that it is still firing (a
   * reminder) or that a person acknowledged it. Absent for a new firing, a resolving, a test.
   */
  notice?: 'reminder' | 'acknowledged';
  projectId: string;
  projectName: string;
  title: string;
  /** Detail lines (issues, the value against the threshold). */
  lines: string[];
  value: number | null;
  at: string;
  /**
   * The organization's time zone, in which the title, the lines and a mail's or Slack message's
   * time are written (formatInstantInZone); `at` and the link stay ISO UTC. Deliveries queued
   * before this field lack it and are written in UTC.
   */
  timeZone: string;
  /** A page of the dashboard to look at. */
  url: string;
}

/** When the notification was made, as its mail and Slack message write it. */
const writtenAt = (notification: Notification) => formatInstantInZone(new Date(notification.at), notification.timeZone);

/** What a notification announces: its notice (reminder, acknowledged), else the state. */
const headlineOf = (notification: Notification) => (notification.notice ?? notification.state).toUpperCase();

export function emailOf(notification: Notification): { subject: string; text: string } {
  const label = headlineOf(notification);
  return {
    subject: `[Sightline] ${label}: ${notification.title}`,
    text: [
      `${notification.title}`,
      '',
      `Rule: ${notification.ruleName} (${notification.kind})`,
      `Project: ${notification.projectName}`,
      `State: ${notification.state}`,
      `At: ${writtenAt(notification)}`,
      '',
      ...notification.lines,
      '',
      notification.url,
      '',
    ].join('\n'),
  };
}

/** Slack incoming-webhook body: a fallback `text` and Block Kit blocks. */
export function slackMessageOf(notification: Notification): { text: string; blocks: unknown[] } {
  const emoji =
    notification.notice === 'acknowledged'
      ? ':eyes:'
      : notification.notice === 'reminder'
        ? ':bell:'
        : notification.state === 'firing'
          ? ':rotating_light:'
          : notification.state === 'resolved'
            ? ':white_check_mark:'
            : ':wave:';
  const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return {
    text: `${headlineOf(notification)}: ${notification.title}`,
    blocks: [
      {
        type: 'header',
        text: {
          type: 'plain_text',
          text: `${headlineOf(notification)}: ${notification.title}`.slice(0, 150),
          emoji: true,
        },
      },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `${emoji} *${escapeHtml(notification.ruleName)}* in *${escapeHtml(notification.projectName)}*\n${notification.lines.map(escapeHtml).join('\n')}`.slice(
            0,
            3000,
          ),
        },
      },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `${notification.kind} · ${writtenAt(notification)} · <${notification.url}|Open in Sightline>`,
          },
        ],
      },
    ],
  };
}

/** The webhook JSON body: `type` alert.firing, alert.reminder, alert.acknowledged, alert.resolved or alert.test. */
export const webhookBodyOf = (notification: Notification): string =>
  JSON.stringify({ type: `alert.${notification.notice ?? notification.state}`, ...notification });

/**
 * The `Sightline-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * Receivers recompute it over the raw body, compare in constant time and refuse old timestamps.
 */
export function signatureOf(secret: string, unixSeconds: number, body: string): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

/** Delay before retry number `attempt` (1-based attempts made so far): 30 s, 2 min, 8 min, 32 min. */
export const retryDelayMs = (attempt: number): number => 30_000 * 4 ** (attempt - 1);
export const MAX_DELIVERY_ATTEMPTS = 5;
