/**
 * Alert channels, rules, deliveries and events. Route-facing statements are scoped by the
 * authorized project or organization; the job's claims take due rows of every project under a
 * lease (FOR UPDATE SKIP LOCKED), and its writes name the lease they hold, so two processes
 * never both act on one rule or delivery.
 */
import type { ChannelKind, RuleKind, RuleParams, RuleState } from '../../../core/alerts.js';
import { timeZoneOrUtc } from '../../../core/time-zones.js';
import type { MetaTx } from '../types.js';

export interface AlertChannel {
  id: string;
  organizationId: string;
  projectId: string | null;
  name: string;
  kind: ChannelKind;
  config: Record<string, unknown>;
  secretCiphertext: string | null;
  createdAt: Date;
}

interface ChannelRow {
  id: string;
  organization_id: string;
  project_id: string | null;
  name: string;
  kind: ChannelKind;
  config: Record<string, unknown>;
  secret_ciphertext: string | null;
  created_at: Date;
}

/** How a person is named in alerting: their name, or their e-mail when they gave none. */
const PERSON_NAME = "coalesce(nullif(btrim(u.name), ''), u.email)";

const CHANNEL_COLUMNS = 'id, organization_id, project_id, name, kind, config, secret_ciphertext, created_at';
const toChannel = (row: ChannelRow): AlertChannel => ({
  id: row.id,
  organizationId: row.organization_id,
  projectId: row.project_id,
  name: row.name,
  kind: row.kind,
  config: row.config,
  secretCiphertext: row.secret_ciphertext,
  createdAt: row.created_at,
});

/** A channel's owner: a project (of its organization) or the organization alone. */
export interface ChannelScope {
  organizationId: string;
  projectId: string | null;
}

/** Channels of a project scope: its own and its organization's; of an organization scope: the organization's. */
const scopeWhere = (scope: ChannelScope) =>
  scope.projectId === null
    ? { sql: 'organization_id = $1 AND project_id IS NULL', params: [scope.organizationId] }
    : {
        sql: 'organization_id = $1 AND (project_id = $2 OR project_id IS NULL)',
        params: [scope.organizationId, scope.projectId],
      };

export const MAX_CHANNELS_PER_SCOPE = 200;

export async function insertChannel(
  tx: MetaTx,
  input: ChannelScope & {
    name: string;
    kind: ChannelKind;
    config: Record<string, unknown>;
    secretCiphertext: string | null;
    createdBy: string;
  },
): Promise<AlertChannel | null> {
  // Counted under a lock of the organization row, so concurrent creations stop at the cap.
  await tx.query('SELECT id FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [input.organizationId]);
  const [held] = await tx.query<{ n: number }>('SELECT count(*) AS n FROM alert_channels WHERE organization_id = $1', [
    input.organizationId,
  ]);
  if (Number(held?.n ?? 0) >= MAX_CHANNELS_PER_SCOPE) return null;
  const rows = await tx.query<ChannelRow>(
    `INSERT INTO alert_channels (organization_id, project_id, name, kind, config, secret_ciphertext, created_by)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7) RETURNING ${CHANNEL_COLUMNS}`,
    [
      input.organizationId,
      input.projectId,
      input.name,
      input.kind,
      JSON.stringify(input.config),
      input.secretCiphertext,
      input.createdBy,
    ],
  );
  return toChannel(rows[0]!);
}

export async function listChannels(db: MetaTx, scope: ChannelScope): Promise<AlertChannel[]> {
  const where = scopeWhere(scope);
  const rows = await db.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM alert_channels WHERE ${where.sql} ORDER BY name, id LIMIT ${MAX_CHANNELS_PER_SCOPE}`,
    where.params,
  );
  return rows.map(toChannel);
}

/** A channel visible from the scope (a project sees its organization's channels too). */
export async function findChannel(db: MetaTx, scope: ChannelScope, id: string): Promise<AlertChannel | null> {
  const where = scopeWhere(scope);
  const rows = await db.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM alert_channels WHERE ${where.sql} AND id = $${where.params.length + 1}`,
    [...where.params, id],
  );
  return rows[0] ? toChannel(rows[0]) : null;
}

/** Deletes a channel the scope owns (a project scope cannot delete its organization's channels). */
export async function deleteChannel(db: MetaTx, scope: ChannelScope, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    scope.projectId === null
      ? 'DELETE FROM alert_channels WHERE organization_id = $1 AND project_id IS NULL AND id = $2 RETURNING id'
      : 'DELETE FROM alert_channels WHERE organization_id = $1 AND project_id = $3 AND id = $2 RETURNING id',
    scope.projectId === null ? [scope.organizationId, id] : [scope.organizationId, id, scope.projectId],
  );
  return rows.length > 0;
}

export async function channelsByIds(db: MetaTx, ids: readonly string[]): Promise<Map<string, AlertChannel>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<ChannelRow>(`SELECT ${CHANNEL_COLUMNS} FROM alert_channels WHERE id = ANY($1::uuid[])`, [
    [...ids],
  ]);
  return new Map(rows.map((row) => [row.id, toChannel(row)]));
}

// ---- Rules -------------------------------------------------------------------------------------

export interface AlertRule {
  id: string;
  projectId: string;
  name: string;
  kind: RuleKind;
  params: RuleParams;
  channelIds: string[];
  enabled: boolean;
  cooldownSeconds: number;
  /** Remind of a firing nobody acknowledged this often (threshold rules); null: never. */
  repeatIntervalSeconds: number | null;
  snoozedUntil: Date | null;
  state: RuleState;
  stateChangedAt: Date | null;
  lastValue: number | null;
  lastEvaluatedAt: Date | null;
  lastNotifiedAt: Date | null;
  firingNotified: boolean;
  /** Who acknowledged the current firing and when; null when nobody has (or it is not firing). */
  acknowledgedBy: { id: string | null; name: string } | null;
  acknowledgedAt: Date | null;
  activityCursor: number;
  nextEvaluationAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

interface RuleRow {
  id: string;
  project_id: string;
  name: string;
  kind: RuleKind;
  params: RuleParams;
  channel_ids: string[];
  enabled: boolean;
  cooldown_seconds: number;
  repeat_interval_seconds: number | null;
  snoozed_until: Date | null;
  state: RuleState;
  state_changed_at: Date | null;
  last_value: number | null;
  last_evaluated_at: Date | null;
  last_notified_at: Date | null;
  firing_notified: boolean;
  acknowledged_by: string | null;
  acknowledged_at: Date | null;
  /** Only where RULE_READ_COLUMNS is selected. */
  acknowledged_by_name?: string | null;
  activity_cursor: number;
  next_evaluation_at: Date;
  created_at: Date;
  updated_at: Date;
}

const RULE_COLUMNS =
  'id, project_id, name, kind, params, channel_ids, enabled, cooldown_seconds, repeat_interval_seconds, snoozed_until, state, state_changed_at, last_value, last_evaluated_at, last_notified_at, firing_notified, acknowledged_by, acknowledged_at, activity_cursor, next_evaluation_at, created_at, updated_at';
/** The columns with the acknowledging person's name, for the routes' answers. */
const RULE_READ_COLUMNS = `${RULE_COLUMNS}, (SELECT ${PERSON_NAME} FROM users u WHERE u.id = acknowledged_by) AS acknowledged_by_name`;
const toRule = (row: RuleRow): AlertRule => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  kind: row.kind,
  params: row.params,
  channelIds: row.channel_ids,
  enabled: row.enabled,
  cooldownSeconds: row.cooldown_seconds,
  repeatIntervalSeconds: row.repeat_interval_seconds,
  snoozedUntil: row.snoozed_until,
  state: row.state,
  stateChangedAt: row.state_changed_at,
  lastValue: row.last_value,
  lastEvaluatedAt: row.last_evaluated_at,
  lastNotifiedAt: row.last_notified_at,
  firingNotified: row.firing_notified,
  acknowledgedBy:
    row.acknowledged_at === null
      ? null
      : { id: row.acknowledged_by, name: row.acknowledged_by_name ?? '(deleted account)' },
  acknowledgedAt: row.acknowledged_at,
  activityCursor: Number(row.activity_cursor),
  nextEvaluationAt: row.next_evaluation_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const MAX_RULES_PER_PROJECT = 1000;

/** What a caller sets of a rule; the rest is its state, kept by the evaluator. */
export type RuleInput = Pick<
  AlertRule,
  'name' | 'kind' | 'params' | 'channelIds' | 'enabled' | 'cooldownSeconds' | 'snoozedUntil' | 'repeatIntervalSeconds'
>;

/** A RuleInput as statement values, in the order of the columns name .. repeat_interval_seconds. */
const ruleInputValues = (input: RuleInput): unknown[] => [
  input.name,
  input.kind,
  JSON.stringify(input.params),
  input.channelIds,
  input.enabled,
  input.cooldownSeconds,
  input.snoozedUntil,
  input.repeatIntervalSeconds,
];

export async function insertRule(
  tx: MetaTx,
  projectId: string,
  input: RuleInput & { activityCursor: number; now: Date; createdBy: string },
): Promise<AlertRule | null> {
  await tx.query('SELECT id FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
  const [held] = await tx.query<{ n: number }>('SELECT count(*) AS n FROM alert_rules WHERE project_id = $1', [
    projectId,
  ]);
  if (Number(held?.n ?? 0) >= MAX_RULES_PER_PROJECT) return null;
  const rows = await tx.query<RuleRow>(
    `INSERT INTO alert_rules (project_id, name, kind, params, channel_ids, enabled, cooldown_seconds, snoozed_until, repeat_interval_seconds, activity_cursor, next_evaluation_at, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::uuid[], $6, $7, $8, $9, $10, $11, $12, $11, $11) RETURNING ${RULE_COLUMNS}`,
    [projectId, ...ruleInputValues(input), input.activityCursor, input.now, input.createdBy],
  );
  return toRule(rows[0]!);
}

export async function listRules(db: MetaTx, projectId: string): Promise<AlertRule[]> {
  const rows = await db.query<RuleRow>(
    `SELECT ${RULE_READ_COLUMNS} FROM alert_rules WHERE project_id = $1 ORDER BY name, id LIMIT ${MAX_RULES_PER_PROJECT}`,
    [projectId],
  );
  return rows.map(toRule);
}

export async function findRule(db: MetaTx, projectId: string, id: string): Promise<AlertRule | null> {
  const rows = await db.query<RuleRow>(
    `SELECT ${RULE_READ_COLUMNS} FROM alert_rules WHERE project_id = $1 AND id = $2`,
    [projectId, id],
  );
  return rows[0] ? toRule(rows[0]) : null;
}

/** Replaces a rule's definition; a changed kind or parameters start it over at ok. */
export async function updateRule(
  db: MetaTx,
  projectId: string,
  id: string,
  input: RuleInput & { now: Date; restart: boolean },
): Promise<AlertRule | null> {
  const rows = await db.query<RuleRow>(
    `UPDATE alert_rules SET name = $3, kind = $4, params = $5::jsonb, channel_ids = $6::uuid[], enabled = $7, cooldown_seconds = $8, snoozed_until = $9,
            repeat_interval_seconds = $10, updated_at = $11,
            state = CASE WHEN $12 THEN 'ok' ELSE state END, firing_notified = CASE WHEN $12 THEN false ELSE firing_notified END,
            acknowledged_by = CASE WHEN $12 THEN NULL ELSE acknowledged_by END, acknowledged_at = CASE WHEN $12 THEN NULL ELSE acknowledged_at END,
            next_evaluation_at = CASE WHEN $12 THEN $11 ELSE next_evaluation_at END
      WHERE project_id = $1 AND id = $2 RETURNING ${RULE_READ_COLUMNS}`,
    [projectId, id, ...ruleInputValues(input), input.now, input.restart],
  );
  return rows[0] ? toRule(rows[0]) : null;
}

export async function deleteRule(db: MetaTx, projectId: string, id: string): Promise<boolean> {
  return (
    (await db.query('DELETE FROM alert_rules WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, id])).length >
    0
  );
}

export interface ClaimedRule extends AlertRule {
  organizationId: string;
  projectName: string;
  /** The organization's time zone setting, UTC when unset or unknown: its notifications are written in it. */
  timeZone: string;
}

/** The `timezone` of the rule's organization's settings, read in the statement that reads the rule. */
const ORGANIZATION_TIME_ZONE = `(SELECT s.settings->>'timezone' FROM projects tp
    JOIN organization_settings s ON s.organization_id = tp.organization_id WHERE tp.id = r.project_id) AS time_zone`;

/** Takes up to `limit` enabled rules due at `now` under a lease, for this evaluator only. */
export async function claimDueRules(
  db: MetaTx,
  now: Date,
  leaseUntil: Date,
  owner: string,
  limit: number,
): Promise<ClaimedRule[]> {
  const rows = await db.query<RuleRow & { organization_id: string; project_name: string; time_zone: string | null }>(
    `WITH due AS (
       SELECT id FROM alert_rules
        WHERE enabled AND next_evaluation_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
        ORDER BY next_evaluation_at LIMIT $4 FOR UPDATE SKIP LOCKED)
     UPDATE alert_rules r SET lease_owner = $3, lease_until = $2 FROM due, projects p
      WHERE r.id = due.id AND p.id = r.project_id
     RETURNING ${RULE_COLUMNS.split(', ')
       .map((column) => `r.${column}`)
       .join(', ')}, p.organization_id, p.name AS project_name, ${ORGANIZATION_TIME_ZONE}`,
    [now, leaseUntil, owner, limit],
  );
  return rows.map((row) => ({
    ...toRule(row),
    organizationId: row.organization_id,
    projectName: row.project_name,
    timeZone: timeZoneOrUtc(row.time_zone),
  }));
}

export interface RuleOutcome {
  state: RuleState;
  stateChangedAt: Date | null;
  lastValue: number | null;
  lastNotifiedAt: Date | null;
  firingNotified: boolean;
  activityCursor: number;
  evaluatedAt: Date;
  nextEvaluationAt: Date;
  /** The same firing goes on, so a person's acknowledgement of it stands; else it is cleared. */
  keepAcknowledgement: boolean;
}

/** Records an evaluation and releases the lease; false when the lease was lost (another evaluator took over). */
export async function finishRule(tx: MetaTx, id: string, owner: string, outcome: RuleOutcome): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE alert_rules SET state = $3, state_changed_at = coalesce($4, state_changed_at), last_value = $5, last_notified_at = $6, firing_notified = $7,
            activity_cursor = $8, last_evaluated_at = $9, next_evaluation_at = $10, lease_owner = NULL, lease_until = NULL,
            acknowledged_by = CASE WHEN $11 THEN acknowledged_by END, acknowledged_at = CASE WHEN $11 THEN acknowledged_at END
      WHERE id = $1 AND lease_owner = $2 RETURNING id`,
    [
      id,
      owner,
      outcome.state,
      outcome.stateChangedAt,
      outcome.lastValue,
      outcome.lastNotifiedAt,
      outcome.firingNotified,
      outcome.activityCursor,
      outcome.evaluatedAt,
      outcome.nextEvaluationAt,
      outcome.keepAcknowledgement,
    ],
  );
  return rows.length > 0;
}

/**
 * Records many evaluations that notify nothing in one statement (the common case: a rule that
 * stays ok or stays firing), releasing their leases; rules whose lease was lost are left alone.
 */
export async function finishRules(
  db: MetaTx,
  owner: string,
  outcomes: ReadonlyArray<RuleOutcome & { id: string }>,
): Promise<void> {
  if (outcomes.length === 0) return;
  await db.query(
    `UPDATE alert_rules r SET state = x.state, state_changed_at = coalesce(x.state_changed_at, r.state_changed_at), last_value = x.last_value,
            last_notified_at = x.last_notified_at, firing_notified = x.firing_notified, activity_cursor = x.activity_cursor,
            last_evaluated_at = x.evaluated_at, next_evaluation_at = x.next_evaluation_at, lease_owner = NULL, lease_until = NULL,
            acknowledged_by = CASE WHEN x.keep_acknowledgement THEN r.acknowledged_by END,
            acknowledged_at = CASE WHEN x.keep_acknowledgement THEN r.acknowledged_at END
       FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, state text, state_changed_at timestamptz, last_value double precision, last_notified_at timestamptz,
                                               firing_notified boolean, activity_cursor bigint, evaluated_at timestamptz, next_evaluation_at timestamptz,
                                               keep_acknowledgement boolean)
      WHERE r.id = x.id AND r.lease_owner = $1`,
    [
      owner,
      JSON.stringify(
        outcomes.map((o) => ({
          id: o.id,
          state: o.state,
          state_changed_at: o.stateChangedAt?.toISOString() ?? null,
          last_value: o.lastValue,
          last_notified_at: o.lastNotifiedAt?.toISOString() ?? null,
          firing_notified: o.firingNotified,
          activity_cursor: o.activityCursor,
          evaluated_at: o.evaluatedAt.toISOString(),
          next_evaluation_at: o.nextEvaluationAt.toISOString(),
          keep_acknowledgement: o.keepAcknowledgement,
        })),
      ),
    ],
  );
}

/** A rule of the project, locked for a person's action on it, with its project's name and its organization's time zone. */
export async function lockRule(
  tx: MetaTx,
  projectId: string,
  id: string,
): Promise<(AlertRule & { projectName: string; timeZone: string }) | null> {
  const rows = await tx.query<RuleRow & { project_name: string; time_zone: string | null }>(
    `SELECT ${RULE_READ_COLUMNS}, (SELECT name FROM projects WHERE id = project_id) AS project_name, ${ORGANIZATION_TIME_ZONE}
       FROM alert_rules r WHERE project_id = $1 AND id = $2 FOR UPDATE`,
    [projectId, id],
  );
  const row = rows[0];
  return row ? { ...toRule(row), projectName: row.project_name, timeZone: timeZoneOrUtc(row.time_zone) } : null;
}

/**
 * Records a person's acknowledge or resolve on a locked rule. It also takes back any evaluator's
 * lease: that evaluation read the rule before the action, so its write is dropped (it finds its
 * lease gone) and the rule is evaluated again on the next pass.
 */
export async function recordRuleAction(
  tx: MetaTx,
  id: string,
  change: {
    state: RuleState;
    stateChangedAt: Date | null;
    firingNotified: boolean;
    acknowledgedBy: string | null;
    acknowledgedAt: Date | null;
  },
): Promise<AlertRule> {
  const rows = await tx.query<RuleRow>(
    `UPDATE alert_rules SET state = $2, state_changed_at = coalesce($3, state_changed_at), firing_notified = $4,
            acknowledged_by = $5, acknowledged_at = $6, lease_owner = NULL, lease_until = NULL
      WHERE id = $1 RETURNING ${RULE_READ_COLUMNS}`,
    [id, change.state, change.stateChangedAt, change.firingNotified, change.acknowledgedBy, change.acknowledgedAt],
  );
  return toRule(rows[0]!);
}

// ---- Deliveries and events ---------------------------------------------------------------------

export interface DeliveryInput {
  projectId: string;
  ruleId: string;
  channelId: string;
  state: 'firing' | 'resolved';
  payload: Record<string, unknown>;
}

export async function enqueueDeliveries(tx: MetaTx, deliveries: readonly DeliveryInput[], now: Date): Promise<void> {
  if (deliveries.length === 0) return;
  await tx.query(
    // Only channels that still exist and belong to the rule's project or its organization: a
    // deleted channel left in a rule's list is skipped, never a foreign key failure.
    `INSERT INTO alert_deliveries (project_id, rule_id, channel_id, state, payload, next_attempt_at, created_at)
     SELECT r.project_id, r.rule_id, r.channel_id, r.state, r.payload, $2, $2
       FROM jsonb_to_recordset($1::jsonb) AS r(project_id uuid, rule_id uuid, channel_id uuid, state text, payload jsonb)
       JOIN projects p ON p.id = r.project_id
       JOIN alert_channels c ON c.id = r.channel_id AND c.organization_id = p.organization_id AND (c.project_id IS NULL OR c.project_id = r.project_id)`,
    [
      JSON.stringify(
        deliveries.map((d) => ({
          project_id: d.projectId,
          rule_id: d.ruleId,
          channel_id: d.channelId,
          state: d.state,
          payload: d.payload,
        })),
      ),
      now,
    ],
  );
}

export interface ClaimedDelivery {
  id: number;
  projectId: string;
  organizationId: string;
  ruleId: string | null;
  ruleName: string | null;
  channelId: string;
  state: 'firing' | 'resolved';
  payload: Record<string, unknown>;
  attempts: number;
}

export async function claimDueDeliveries(
  db: MetaTx,
  now: Date,
  leaseUntil: Date,
  owner: string,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const rows = await db.query<{
    id: number;
    project_id: string;
    organization_id: string;
    rule_id: string | null;
    rule_name: string | null;
    channel_id: string;
    state: 'firing' | 'resolved';
    payload: Record<string, unknown>;
    attempts: number;
  }>(
    `WITH due AS (
       SELECT id FROM alert_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
        ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
     UPDATE alert_deliveries d SET lease_owner = $3, lease_until = $2 FROM due, projects p
      WHERE d.id = due.id AND p.id = d.project_id
     RETURNING d.id, d.project_id, p.organization_id, d.rule_id, (SELECT name FROM alert_rules WHERE id = d.rule_id) AS rule_name, d.channel_id, d.state, d.payload, d.attempts`,
    [now, leaseUntil, owner, limit],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    projectId: row.project_id,
    organizationId: row.organization_id,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    channelId: row.channel_id,
    state: row.state,
    payload: row.payload,
    attempts: row.attempts,
  }));
}

/** Records an attempt's result on the delivery (retry time, or done) and releases the lease. */
export async function finishDelivery(
  tx: MetaTx,
  id: number,
  owner: string,
  result: { attempts: number; status: 'pending' | 'delivered' | 'failed'; nextAttemptAt: Date },
): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE alert_deliveries SET attempts = $3, status = $4, next_attempt_at = $5, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2 RETURNING id',
    [id, owner, result.attempts, result.status, result.nextAttemptAt],
  );
  return rows.length > 0;
}

export interface AlertEventInput {
  organizationId: string;
  projectId: string | null;
  ruleId: string | null;
  ruleName: string | null;
  channelId: string;
  channelName: string;
  state: 'firing' | 'resolved' | 'test';
  /** A reminder, or the telling of an acknowledgement (the delivery's notification's notice). */
  notice: 'reminder' | 'acknowledged' | null;
  at: Date;
  attempt: number;
  outcome: 'delivered' | 'retrying' | 'failed';
  responseStatus: number | null;
  error: string | null;
}

export async function insertEvent(db: MetaTx, event: AlertEventInput): Promise<void> {
  await db.query(
    `INSERT INTO alert_events (organization_id, project_id, rule_id, rule_name, channel_id, channel_name, state, notice, at, attempt, outcome, response_status, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      event.organizationId,
      event.projectId,
      event.ruleId,
      event.ruleName,
      event.channelId,
      event.channelName,
      event.state,
      event.notice,
      event.at,
      event.attempt,
      event.outcome,
      event.responseStatus,
      event.error?.slice(0, 1000) ?? null,
    ],
  );
}

/** A person's acknowledge or resolve, in the rule's history beside the deliveries. */
export interface AlertActionInput {
  organizationId: string;
  projectId: string;
  ruleId: string;
  ruleName: string;
  action: 'acknowledged' | 'resolved';
  /** The rule's state after the action. */
  state: 'firing' | 'resolved';
  actorId: string;
  at: Date;
}

export async function insertActionEvent(tx: MetaTx, event: AlertActionInput): Promise<void> {
  await tx.query(
    `INSERT INTO alert_events (organization_id, project_id, rule_id, rule_name, state, at, action, actor_id, actor_name)
     SELECT $1, $2, $3, $4, $5, $6, $7, u.id, ${PERSON_NAME} FROM users u WHERE u.id = $8`,
    [
      event.organizationId,
      event.projectId,
      event.ruleId,
      event.ruleName,
      event.state,
      event.at,
      event.action,
      event.actorId,
    ],
  );
}

/** A delivery attempt (channel, attempt, outcome) or a person's action (action, actor). */
export interface AlertEvent {
  id: number;
  organizationId: string;
  projectId: string | null;
  ruleId: string | null;
  ruleName: string | null;
  /** Null for an action, or when the channel was deleted since. */
  channelId: string | null;
  channelName: string | null;
  state: 'firing' | 'resolved' | 'test';
  notice: 'reminder' | 'acknowledged' | null;
  at: Date;
  attempt: number | null;
  outcome: 'delivered' | 'retrying' | 'failed' | null;
  responseStatus: number | null;
  error: string | null;
  action: 'acknowledged' | 'resolved' | null;
  actorId: string | null;
  actorName: string | null;
}

/** The project's delivery attempts and people's actions, newest first; optionally of one rule; `beforeId` pages. */
export async function listEvents(
  db: MetaTx,
  projectId: string,
  input: { ruleId?: string | undefined; beforeId?: number | undefined; limit: number },
): Promise<AlertEvent[]> {
  const rows = await db.query<{
    id: number;
    organization_id: string;
    project_id: string | null;
    rule_id: string | null;
    rule_name: string | null;
    channel_id: string | null;
    channel_name: string | null;
    state: AlertEvent['state'];
    notice: AlertEvent['notice'];
    at: Date;
    attempt: number | null;
    outcome: AlertEvent['outcome'];
    response_status: number | null;
    error: string | null;
    action: AlertEvent['action'];
    actor_id: string | null;
    actor_name: string | null;
  }>(
    `SELECT id, organization_id, project_id, rule_id, rule_name, channel_id, channel_name, state, notice, at, attempt, outcome, response_status, error,
            action, actor_id, actor_name
       FROM alert_events WHERE project_id = $1 AND ($2::uuid IS NULL OR rule_id = $2) AND ($3::bigint IS NULL OR id < $3)
      ORDER BY id DESC LIMIT $4`,
    [projectId, input.ruleId ?? null, input.beforeId ?? null, input.limit],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    organizationId: row.organization_id,
    projectId: row.project_id,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    channelId: row.channel_id,
    channelName: row.channel_name,
    state: row.state,
    notice: row.notice,
    at: row.at,
    attempt: row.attempt,
    outcome: row.outcome,
    responseStatus: row.response_status,
    error: row.error,
    action: row.action,
    actorId: row.actor_id,
    actorName: row.actor_name,
  }));
}
