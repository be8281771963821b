/**
 * A person's acknowledge or manual resolve of a firing rule: decided by `decideAction` (core),
 * written in one transaction with the rule locked — its new state, the action in the rule's
 * history (alert_events) and, when its firing was notified, the notification of its channels
 * ("Acknowledged by …" or "Resolved by …"), sent by the alert job like any other.
 */
import { decideAction, type Notification, type RuleAction } from '../../core/alerts.js';
import { formatInstantInZone } from '../../core/time-zones.js';
import { insertActionEvent, lockRule, recordRuleAction, type AlertRule } from '../../store/meta/repositories/alerts.js';
import type { MetaDb } from '../../store/meta/types.js';
import { enqueueNotification, runtimeOf } from './job.js';

export async function actOnRule(
  deps: { meta: MetaDb; now: () => number; publicUrl: string },
  scope: { organizationId: string; projectId: string },
  ruleId: string,
  action: RuleAction,
  actor: { id: string; name: string },
): Promise<AlertRule | null> {
  const now = new Date(deps.now());
  return deps.meta.transaction(async (tx) => {
    const rule = await lockRule(tx, scope.projectId, ruleId);
    if (!rule) return null;
    // Throws RuleActionRefused for a rule that is not firing, or a firing already acknowledged.
    const decision = decideAction(action, runtimeOf(rule), now);
    const updated = await recordRuleAction(tx, rule.id, {
      state: decision.state,
      stateChangedAt: decision.changed ? now : null,
      firingNotified: decision.state === 'firing' && rule.firingNotified,
      acknowledgedBy: decision.acknowledged ? actor.id : null,
      acknowledgedAt: decision.acknowledged ? now : null,
    });
    await insertActionEvent(tx, {
      organizationId: scope.organizationId,
      projectId: scope.projectId,
      ruleId: rule.id,
      ruleName: rule.name,
      action: action === 'acknowledge' ? 'acknowledged' : 'resolved',
      state: decision.state === 'firing' ? 'firing' : 'resolved',
      actorId: actor.id,
      at: now,
    });
    if ((decision.notify === 'resolved' || decision.notify === 'acknowledged') && rule.channelIds.length > 0) {
      const since = rule.stateChangedAt
        ? ` (firing since ${formatInstantInZone(rule.stateChangedAt, rule.timeZone)})`
        : '';
      const resolved = decision.notify === 'resolved';
      const notification: Notification = {
        ruleId: rule.id,
        ruleName: rule.name,
        kind: rule.kind,
        state: resolved ? 'resolved' : 'firing',
        ...(resolved ? {} : { notice: 'acknowledged' as const }),
        projectId: rule.projectId,
        projectName: rule.projectName,
        title: `${resolved ? 'Resolved' : 'Acknowledged'} by ${actor.name}: ${rule.name}`,
        lines: [resolved ? `Resolved by hand by ${actor.name}${since}` : `${actor.name} is on it${since}`],
        value: rule.lastValue,
        at: now.toISOString(),
        timeZone: rule.timeZone,
        url: `${deps.publicUrl}/alerts?${new URLSearchParams({ projectId: rule.projectId, tab: 'history', rule: rule.id })}`,
      };
      await enqueueNotification(tx, rule, notification, now);
    }
    return updated;
  });
}
