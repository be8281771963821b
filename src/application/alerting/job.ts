/**
 * The alert job: every interval (ALERTS_INTERVAL_SECONDS) it evaluates the rules that are due
 * (each rule once a minute) and sends the deliveries that are due. Several processes may run it:
 * rules and deliveries are claimed under a lease in the metadata store (FOR UPDATE SKIP LOCKED),
 * so exactly one process evaluates a rule, and a notification is enqueued in the transaction
 * that records the rule's new state (written only while the lease is held) and sent by one
 * process. Sends run in parallel with a 10 s bound each, so a failing channel never holds up
 * the others; a failed attempt is retried with backoff, and every attempt is an alert event.
 * Tests drive it with `runOnce()` and the service clock (`now`), never the wall clock.
 */
import { randomUUID } from 'node:crypto';
import {
  MAX_DELIVERY_ATTEMPTS,
  breaches,
  decide,
  emailOf,
  isEventRule,
  retryDelayMs,
  signatureOf,
  slackMessageOf,
  webhookBodyOf,
  type Notification,
  type RuleRuntime,
} from '../../core/alerts.js';
import { formatInstantInZone } from '../../core/time-zones.js';
import {
  channelsByIds,
  claimDueDeliveries,
  claimDueRules,
  enqueueDeliveries,
  finishDelivery,
  finishRule,
  finishRules,
  insertEvent,
  type RuleOutcome,
  type AlertChannel,
  type AlertRule,
  type ClaimedRule,
} from '../../store/meta/repositories/alerts.js';
import type { MetaDb, MetaTx } from '../../store/meta/types.js';
import type { TelemetryEngine } from '../../store/telemetry/engine.js';
import type { Mailer } from '../mail.js';
import { PeriodicJob } from '../jobs/periodic-job.js';
import { readRule } from './evaluate.js';
import { OutboundRefused, postOutbound } from './outbound.js';
import type { SecretBox } from './secrets.js';

/** Every rule is evaluated once a minute. */
export const EVALUATION_PERIOD_MS = 60_000;
/** A claimed rule or delivery not finished within this is taken by another process. */
const LEASE_MS = 120_000;
const CLAIM_BATCH = 200;
/** Rules evaluated (queries in flight) at once per process. */
const EVALUATION_CONCURRENCY = 8;

export interface AlertJobDeps {
  meta: MetaDb;
  telemetry: TelemetryEngine;
  mailer: Mailer | null;
  secrets: SecretBox;
  now: () => number;
  publicUrl: string;
  allowPrivateTargets: boolean;
  /** Waits for ingest's issue detection in flight, so an evaluation sees what was just sent. */
  beforeEvaluation: () => Promise<void>;
  onError: (error: unknown) => void;
}

export interface AttemptResult {
  outcome: 'delivered' | 'failed';
  responseStatus: number | null;
  error: string | null;
}

export interface AlertRunResult {
  evaluated: number;
  delivered: number;
}

export class AlertJob extends PeriodicJob<AlertRunResult> {
  private readonly owner = randomUUID();

  constructor(
    private readonly deps: AlertJobDeps,
    intervalMs: number,
  ) {
    super(
      async (closing) => {
        const evaluated = await this.evaluateDue(closing);
        const delivered = await this.deliverDue(closing);
        return { evaluated, delivered };
      },
      { intervalMs, onError: deps.onError },
    );
  }

  /** Evaluates every rule due now, in claimed batches. */
  async evaluateDue(closing: () => boolean = () => false): Promise<number> {
    await this.deps.beforeEvaluation();
    let evaluated = 0;
    for (;;) {
      const now = new Date(this.deps.now());
      const rules = await claimDueRules(
        this.deps.meta,
        now,
        new Date(now.getTime() + LEASE_MS),
        this.owner,
        CLAIM_BATCH,
      );
      // Outcomes that notify nothing are written together, one statement for the batch.
      const quiet: Array<RuleOutcome & { id: string }> = [];
      await eachLimited(rules, EVALUATION_CONCURRENCY, async (rule) => {
        try {
          const outcome = await this.evaluate(rule, now);
          if (outcome) quiet.push(outcome);
        } catch (error) {
          // One broken rule (a metric filter on an unknown field, a query over its limits) must not stop the others.
          this.deps.onError(new Error(`evaluating alert rule ${rule.id} failed: ${(error as Error).message}`));
          quiet.push({
            id: rule.id,
            ...outcomeOf(rule, now),
            nextEvaluationAt: new Date(now.getTime() + EVALUATION_PERIOD_MS),
          });
        }
      });
      await finishRules(this.deps.meta, this.owner, quiet);
      evaluated += rules.length;
      if (rules.length < CLAIM_BATCH || closing()) return evaluated;
    }
  }

  /** Evaluates one rule; a notifying outcome is written here with its deliveries, a quiet one is returned for the batch write. */
  private async evaluate(rule: ClaimedRule, now: Date): Promise<(RuleOutcome & { id: string }) | null> {
    const reading = await readRule(
      { meta: this.deps.meta, telemetry: this.deps.telemetry },
      rule.projectId,
      rule.params,
      rule.activityCursor,
      now.getTime(),
      rule.timeZone,
    );
    const condition = isEventRule(rule.kind) ? (reading.value ?? 0) > 0 : breaches(rule.params, reading.value);
    const decision = decide(rule.kind, runtimeOf(rule), condition, now);
    // A reminder is of the firing: its state, with the same lines and link as the firing's message.
    const reminder = decision.notify === 'reminder';
    // A reminder keeps the firing's title (its notice, REMINDER, heads the mail subject and the Slack
    // headline) and, as a resolving does, says since when on its first line: the title becomes a
    // subject, which mail clients cut at about 70 characters, and the instant alone is 40 of them.
    const firedAt = rule.stateChangedAt ?? now;
    const firingSince = () =>
      `firing since ${formatInstantInZone(firedAt, rule.timeZone)} (${elapsedBetween(firedAt, now)})`;
    const notification: Notification | null = decision.notify
      ? {
          ruleId: rule.id,
          ruleName: rule.name,
          kind: rule.kind,
          state: decision.notify === 'resolved' ? 'resolved' : 'firing',
          ...(reminder ? { notice: 'reminder' as const } : {}),
          projectId: rule.projectId,
          projectName: rule.projectName,
          title: decision.notify === 'resolved' ? `Resolved: ${rule.name}` : reading.title,
          lines:
            reminder || (decision.notify === 'resolved' && rule.stateChangedAt)
              ? [firingSince(), ...reading.lines]
              : reading.lines,
          value: reading.value,
          at: now.toISOString(),
          timeZone: rule.timeZone,
          url: `${this.deps.publicUrl}${reading.path}?${new URLSearchParams({
            projectId: rule.projectId,
            ...reading.query,
            ...(decision.notify === 'resolved' ? incidentStart(rule, reading.query) : {}),
          })}`,
        }
      : null;
    const firing = decision.state === 'firing';
    // A reminder is a firing notification: the next is counted from it (and a cooldown too).
    const notifiedFiring = decision.notify === 'firing' || reminder;
    const outcome: RuleOutcome = {
      state: decision.state,
      stateChangedAt: decision.changed ? now : null,
      lastValue: reading.value,
      lastNotifiedAt: notifiedFiring ? now : rule.lastNotifiedAt,
      // A resolving is announced only when its firing was; an event rule's firing is its own.
      firingNotified: notifiedFiring ? true : firing && !decision.changed ? rule.firingNotified : false,
      activityCursor: reading.cursor ?? rule.activityCursor,
      evaluatedAt: now,
      nextEvaluationAt: new Date(now.getTime() + EVALUATION_PERIOD_MS),
      keepAcknowledgement: decision.acknowledged,
    };
    if (!notification || rule.channelIds.length === 0) return { id: rule.id, ...outcome };
    await this.deps.meta.transaction(async (tx) => {
      const held = await finishRule(tx, rule.id, this.owner, outcome);
      // Lost the lease (took longer than LEASE_MS and another process re-evaluated): change nothing, send nothing.
      if (!held) return;
      await enqueueNotification(tx, rule, notification, now);
    });
    return null;
  }

  /** Sends every delivery due now, in parallel within a batch. */
  async deliverDue(closing: () => boolean = () => false): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = new Date(this.deps.now());
      const due = await claimDueDeliveries(
        this.deps.meta,
        now,
        new Date(now.getTime() + LEASE_MS),
        this.owner,
        CLAIM_BATCH,
      );
      const channels = await channelsByIds(this.deps.meta, [...new Set(due.map((delivery) => delivery.channelId))]);
      await Promise.all(
        due.map(async (delivery) => {
          const channel = channels.get(delivery.channelId);
          const attempt = delivery.attempts + 1;
          const result: AttemptResult = channel
            ? await this.send(channel, delivery.payload as unknown as Notification)
            : { outcome: 'failed', responseStatus: null, error: 'the channel was deleted' };
          const retry =
            result.outcome === 'failed' &&
            channel !== undefined &&
            attempt < MAX_DELIVERY_ATTEMPTS &&
            !result.error?.startsWith('refused:');
          await this.deps.meta
            .transaction(async (tx) => {
              const held = await finishDelivery(tx, delivery.id, this.owner, {
                attempts: attempt,
                status: result.outcome === 'delivered' ? 'delivered' : retry ? 'pending' : 'failed',
                nextAttemptAt: new Date(now.getTime() + (retry ? retryDelayMs(attempt) : 0)),
              });
              if (!held) return;
              await insertEvent(tx, {
                organizationId: delivery.organizationId,
                projectId: delivery.projectId,
                ruleId: delivery.ruleId,
                ruleName: delivery.ruleName,
                channelId: delivery.channelId,
                channelName: channel?.name ?? '(deleted)',
                state: delivery.state,
                notice: (delivery.payload as unknown as Notification).notice ?? null,
                at: now,
                attempt,
                outcome: result.outcome === 'delivered' ? 'delivered' : retry ? 'retrying' : 'failed',
                responseStatus: result.responseStatus,
                error: result.error,
              });
            })
            .catch(this.deps.onError);
        }),
      );
      sent += due.length;
      if (due.length < CLAIM_BATCH || closing()) return sent;
    }
  }

  /** One attempt to one channel; never throws. */
  async send(channel: AlertChannel, notification: Notification): Promise<AttemptResult> {
    try {
      if (channel.kind === 'email') {
        if (!this.deps.mailer)
          return { outcome: 'failed', responseStatus: null, error: 'mail is not configured (SMTP_URL)' };
        const { subject, text } = emailOf(notification);
        const addresses = (channel.config.addresses as string[] | undefined) ?? [];
        await this.deps.mailer.send({ to: addresses.join(', '), subject, text });
        return { outcome: 'delivered', responseStatus: null, error: null };
      }
      const secret = channel.secretCiphertext === null ? null : this.deps.secrets.open(channel.secretCiphertext);
      if (secret === null)
        return {
          outcome: 'failed',
          responseStatus: null,
          error: 'the channel secret cannot be decrypted (was SESSION_SECRET changed?)',
        };
      let response: Awaited<ReturnType<typeof postOutbound>>;
      if (channel.kind === 'webhook') {
        const body = webhookBodyOf(notification);
        const signature = signatureOf(secret, Math.floor(this.deps.now() / 1000), body);
        response = await postOutbound(
          channel.config.url as string,
          body,
          { 'sightline-signature': signature },
          { allowPrivate: this.deps.allowPrivateTargets },
        );
      } else {
        response = await postOutbound(
          secret,
          JSON.stringify(slackMessageOf(notification)),
          {},
          { allowPrivate: this.deps.allowPrivateTargets },
        );
      }
      if (response.status >= 200 && response.status < 300)
        return { outcome: 'delivered', responseStatus: response.status, error: null };
      return {
        outcome: 'failed',
        responseStatus: response.status,
        error: `answered ${response.status}${response.body ? `: ${response.body.slice(0, 200)}` : ''}`,
      };
    } catch (error) {
      // A refused target will be refused again: no retry (the prefix tells deliverDue).
      if (error instanceof OutboundRefused || (error as { cause?: unknown }).cause instanceof OutboundRefused)
        return { outcome: 'failed', responseStatus: null, error: `refused: ${(error as Error).message}` };
      const { code, message } = error as { code?: unknown; message?: unknown };
      return {
        outcome: 'failed',
        responseStatus: null,
        error: [typeof code === 'string' ? code : null, typeof message === 'string' ? message : null]
          .filter(Boolean)
          .join(': '),
      };
    }
  }
}

/**
 * A resolved alert's link starts where the firing's window did, so it shows the whole incident
 * (before: the quiet window that resolved it, where there is nothing to see).
 */
function incidentStart(rule: AlertRule, query: Record<string, string> | undefined): { from?: string } {
  if (query?.from === undefined || rule.stateChangedAt === null || !('windowMinutes' in rule.params)) return {};
  return { from: new Date(rule.stateChangedAt.getTime() - rule.params.windowMinutes * 60_000).toISOString() };
}

/** How long a firing has lasted, as people say it: "7 min", "4 h", "1 h 1 min", "2 d 3 h" (reminders come up to a week apart). */
function elapsedBetween(from: Date, to: Date): string {
  const minutes = Math.max(1, Math.round((to.getTime() - from.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** Queues a rule's notification to each of its channels, in the caller's transaction. */
export const enqueueNotification = (tx: MetaTx, rule: AlertRule, notification: Notification, now: Date) =>
  enqueueDeliveries(
    tx,
    rule.channelIds.map((channelId) => ({
      projectId: rule.projectId,
      ruleId: rule.id,
      channelId,
      state: notification.state as 'firing' | 'resolved',
      payload: { ...notification },
    })),
    now,
  );

/** What the state machine needs of a stored rule. */
export const runtimeOf = (rule: AlertRule): RuleRuntime => ({
  state: rule.state,
  snoozedUntil: rule.snoozedUntil,
  cooldownSeconds: rule.cooldownSeconds,
  lastNotifiedAt: rule.lastNotifiedAt,
  firingNotified: rule.firingNotified,
  acknowledged: rule.acknowledgedAt !== null,
  repeatIntervalSeconds: rule.repeatIntervalSeconds,
});

function outcomeOf(rule: ClaimedRule, now: Date) {
  return {
    state: rule.state,
    stateChangedAt: null,
    lastValue: rule.lastValue,
    lastNotifiedAt: rule.lastNotifiedAt,
    firingNotified: rule.firingNotified,
    activityCursor: rule.activityCursor,
    evaluatedAt: now,
    keepAcknowledgement: true,
  };
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}
