import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  breaches,
  decide,
  decideAction,
  emailOf,
  parseRuleParams,
  RuleActionRefused,
  retryDelayMs,
  signatureOf,
  slackMessageOf,
  webhookBodyOf,
  type Notification,
  type RuleRuntime,
} from './alerts.js';

const now = new Date('2026-03-01T12:00:00Z');
const runtime = (over: Partial<RuleRuntime> = {}): RuleRuntime => ({
  state: 'ok',
  snoozedUntil: null,
  cooldownSeconds: 0,
  lastNotifiedAt: null,
  firingNotified: false,
  acknowledged: false,
  repeatIntervalSeconds: null,
  ...over,
});

describe('alert rules core', () => {
  it('threshold rules: ok -> firing (notified) -> resolved (notified); staying firing notifies nothing', () => {
    expect(decide('endpoint_latency', runtime(), true, now)).toEqual({
      state: 'firing',
      changed: true,
      notify: 'firing',
      suppressed: null,
      acknowledged: false,
    });
    expect(decide('endpoint_latency', runtime({ state: 'firing', firingNotified: true }), true, now)).toMatchObject({
      state: 'firing',
      changed: false,
      notify: null,
    });
    expect(decide('endpoint_latency', runtime({ state: 'firing', firingNotified: true }), false, now)).toMatchObject({
      state: 'resolved',
      notify: 'resolved',
    });
    expect(decide('endpoint_latency', runtime({ state: 'resolved' }), false, now)).toMatchObject({
      state: 'resolved',
      changed: false,
      notify: null,
    });
  });

  it('cooldown and snooze hold back firings; an unannounced firing resolves quietly', () => {
    const recent = new Date(now.getTime() - 60_000);
    expect(decide('error_rate', runtime({ cooldownSeconds: 600, lastNotifiedAt: recent }), true, now)).toMatchObject({
      state: 'firing',
      notify: null,
      suppressed: 'cooldown',
    });
    expect(decide('error_rate', runtime({ cooldownSeconds: 30, lastNotifiedAt: recent }), true, now)).toMatchObject({
      notify: 'firing',
    });
    expect(decide('error_rate', runtime({ snoozedUntil: new Date(now.getTime() + 1000) }), true, now)).toMatchObject({
      notify: null,
      suppressed: 'snoozed',
    });
    expect(decide('error_rate', runtime({ state: 'firing', firingNotified: false }), false, now)).toMatchObject({
      state: 'resolved',
      notify: null,
    });
  });

  it('event rules fire on each evaluation with news and stay firing until a person resolves them', () => {
    // Before: a new-issue rule went back to ok a minute later, so the alerts page showed nothing to act on.
    expect(decide('new_issue', runtime({ state: 'firing', firingNotified: true }), true, now)).toEqual({
      state: 'firing',
      changed: false,
      notify: 'firing',
      suppressed: null,
      acknowledged: false,
    });
    expect(decide('regression', runtime({ state: 'firing', firingNotified: true }), false, now)).toEqual({
      state: 'firing',
      changed: false,
      notify: null,
      suppressed: null,
      acknowledged: false,
    });
    expect(decideAction('resolve', runtime({ state: 'firing', firingNotified: true }), now)).toEqual({
      state: 'resolved',
      changed: true,
      notify: 'resolved',
      suppressed: null,
      acknowledged: false,
    });
    expect(decide('new_issue', runtime({ state: 'resolved' }), false, now)).toMatchObject({
      state: 'resolved',
      changed: false,
    });
  });

  it("an acknowledgement lasts as long as the firing, and an event rule's news is notified and clears it", () => {
    const acknowledged = decideAction('acknowledge', runtime({ state: 'firing', firingNotified: true }), now);
    // Its channels hear who took it (before: nothing was sent, so the team did not know).
    expect(acknowledged).toEqual({
      state: 'firing',
      changed: false,
      notify: 'acknowledged',
      suppressed: null,
      acknowledged: true,
    });
    const onIt = runtime({ state: 'firing', firingNotified: true, acknowledged: true });
    // Another new issue is not the one someone is on: notified, and the acknowledgement no longer
    // stands (before: held back until someone resolved the rule, silencing every new issue).
    expect(decide('new_issue', onIt, true, now)).toEqual({
      state: 'firing',
      changed: false,
      notify: 'firing',
      suppressed: null,
      acknowledged: false,
    });
    expect(decide('error_rate', onIt, true, now)).toMatchObject({ notify: null, acknowledged: true });
    // The rule resolves (on its own or by hand): notified, and the acknowledgement is cleared.
    expect(decide('error_rate', onIt, false, now)).toMatchObject({
      state: 'resolved',
      notify: 'resolved',
      acknowledged: false,
    });
    expect(decideAction('resolve', onIt, now)).toMatchObject({
      state: 'resolved',
      notify: 'resolved',
      acknowledged: false,
    });
    // A rule that fires anew after resolving is a new firing: notified, nobody on it yet.
    expect(decide('error_rate', runtime({ state: 'resolved', acknowledged: true }), true, now)).toMatchObject({
      state: 'firing',
      changed: true,
      notify: 'firing',
      acknowledged: false,
    });
    expect(decide('new_issue', runtime({ state: 'resolved', acknowledged: true }), true, now)).toMatchObject({
      notify: 'firing',
      acknowledged: false,
    });
  });

  it('acknowledge and resolve take a firing rule only; a snoozed or unannounced firing resolves quietly', () => {
    expect(() => decideAction('acknowledge', runtime({ state: 'ok' }), now)).toThrow(
      new RuleActionRefused('only a firing rule can be acknowledged: this one is ok'),
    );
    expect(() => decideAction('resolve', runtime({ state: 'resolved' }), now)).toThrow(
      'only a firing rule can be resolved: this one is resolved',
    );
    expect(() => decideAction('acknowledge', runtime({ state: 'firing', acknowledged: true }), now)).toThrow(
      'this firing is already acknowledged',
    );
    expect(decideAction('resolve', runtime({ state: 'firing', firingNotified: false }), now)).toMatchObject({
      state: 'resolved',
      notify: null,
    });
    const snoozed = runtime({ state: 'firing', firingNotified: true, snoozedUntil: new Date(now.getTime() + 1000) });
    expect(decideAction('resolve', snoozed, now)).toMatchObject({ notify: null, suppressed: 'snoozed' });
    // An acknowledgement is told as a resolve is: only of a notified firing, and not while snoozed.
    expect(decideAction('acknowledge', snoozed, now)).toMatchObject({
      acknowledged: true,
      notify: null,
      suppressed: 'snoozed',
    });
    expect(decideAction('acknowledge', runtime({ state: 'firing', firingNotified: false }), now)).toMatchObject({
      acknowledged: true,
      notify: null,
      suppressed: null,
    });
  });

  describe('reminders of a threshold rule that stays firing', () => {
    const HOUR = 3_600_000;
    const firing = (over: Partial<RuleRuntime> = {}) =>
      runtime({
        state: 'firing',
        firingNotified: true,
        repeatIntervalSeconds: 4 * 3600,
        lastNotifiedAt: new Date(now.getTime() - 4 * HOUR),
        ...over,
      });

    it('is due once the interval has passed since the last notification, and not before', () => {
      expect(decide('endpoint_latency', firing(), true, now)).toEqual({
        state: 'firing',
        changed: false,
        notify: 'reminder',
        suppressed: null,
        acknowledged: false,
      });
      const oneSecondEarly = firing({ lastNotifiedAt: new Date(now.getTime() - 4 * HOUR + 1000) });
      expect(decide('endpoint_latency', oneSecondEarly, true, now)).toMatchObject({ notify: null });
      // Never reminding (the setting of rules from before reminders existed) sends nothing.
      expect(decide('error_rate', firing({ repeatIntervalSeconds: null }), true, now)).toMatchObject({ notify: null });
      // A resolving ends them: the rule resolves, notified as always.
      expect(decide('error_rate', firing(), false, now)).toMatchObject({ state: 'resolved', notify: 'resolved' });
    });

    it('stops once the firing is acknowledged, and waits while snoozed', () => {
      expect(decide('metric_threshold', firing({ acknowledged: true }), true, now)).toMatchObject({
        notify: null,
        acknowledged: true,
      });
      const snoozed = firing({ snoozedUntil: new Date(now.getTime() + HOUR) });
      expect(decide('metric_threshold', snoozed, true, now)).toMatchObject({ notify: null });
      // A firing held back by a snooze is reminded of as soon as the snooze is over.
      const heldBack = firing({
        firingNotified: false,
        lastNotifiedAt: null,
        snoozedUntil: new Date(now.getTime() - 1),
      });
      expect(decide('log_match', heldBack, true, now)).toMatchObject({ notify: 'reminder' });
    });

    it('never reminds of an event rule: its news is notified as it comes', () => {
      expect(decide('new_issue', firing(), false, now)).toMatchObject({ state: 'firing', notify: null });
      expect(decide('regression', firing({ lastNotifiedAt: null }), false, now)).toMatchObject({ notify: null });
    });
  });

  it('parses parameters per kind with defaults, naming the field at fault', () => {
    expect(parseRuleParams('endpoint_latency', { thresholdMs: 800 })).toEqual({
      kind: 'endpoint_latency',
      windowMinutes: 5,
      percentile: 'p95',
      thresholdMs: 800,
      endpoint: null,
    });
    expect(() => parseRuleParams('error_rate', { thresholdPercent: 101 })).toThrow(
      'params.thresholdPercent must be at most 100',
    );
    expect(() => parseRuleParams('issue_frequency', { threshold: 3, hash: 'XYZ' })).toThrow(/params\.hash/);
    expect(() => parseRuleParams('metric_threshold', { metric: 'm', threshold: 1, filters: [{ field: 'x' }] })).toThrow(
      /params\.filters\[0\]/,
    );
    expect(() => parseRuleParams('new_issue', [])).toThrow('params must be an object');
  });

  it("compares values with each kind's threshold; no data never breaches", () => {
    const metric = parseRuleParams('metric_threshold', { metric: 'm', comparator: 'lte', threshold: 5 });
    expect([breaches(metric, 5), breaches(metric, 6), breaches(metric, null)]).toEqual([true, false, false]);
    expect(breaches(parseRuleParams('log_match', { search: 'x', threshold: 3 }), 3)).toBe(true);
  });

  it('signs t.body with HMAC-SHA256; Slack blocks escape markup; backoff grows', () => {
    const body = '{"a":1}';
    expect(signatureOf('s3cret', 1700000000, body)).toBe(
      `t=1700000000,v1=${createHmac('sha256', 's3cret').update(`1700000000.${body}`).digest('hex')}`,
    );
    const notification: Notification = {
      ruleId: 'r',
      ruleName: '<b>',
      kind: 'new_issue',
      state: 'firing',
      projectId: 'p',
      projectName: 'Shop & Co',
      title: 't',
      lines: ['<x>'],
      value: 1,
      at: '2026-11-28T20:13:04.120Z',
      timeZone: 'UTC',
      url: 'http://x',
    };
    const slack = slackMessageOf(notification);
    expect(JSON.stringify(slack.blocks)).toContain('&lt;b&gt;');
    expect(JSON.stringify(slack.blocks)).toContain('Shop &amp; Co');
    // A reminder and an acknowledgement say so in the headline, e-mail subject and webhook type.
    const reminder = { ...notification, notice: 'reminder' } as const;
    expect(slackMessageOf(reminder).text).toBe('REMINDER: t');
    expect(emailOf({ ...notification, notice: 'acknowledged' }).subject).toBe('[Sightline] ACKNOWLEDGED: t');
    expect(JSON.parse(webhookBodyOf(reminder))).toMatchObject({ type: 'alert.reminder', state: 'firing' });
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 120_000, 480_000, 1_920_000]);
  });

  it("writes a mail's and a Slack message's time in the organization's zone; the webhook's `at` stays ISO UTC", () => {
    const notification: Notification = {
      ruleId: 'r',
      ruleName: 'Checkout',
      kind: 'error_rate',
      state: 'firing',
      projectId: 'p',
      projectName: 'Shop',
      title: 't',
      lines: [],
      value: 14,
      at: '2026-11-28T20:13:04.120Z',
      timeZone: 'Europe/Berlin',
      url: 'http://x',
    };
    expect(emailOf(notification).text).toContain('\nAt: Nov 28, 2026, 21:13 (Europe/Berlin, UTC+01:00)\n');
    expect(JSON.stringify(slackMessageOf(notification).blocks)).toContain(
      'error_rate · Nov 28, 2026, 21:13 (Europe/Berlin, UTC+01:00) · <http://x|Open in Sightline>',
    );
    expect(JSON.parse(webhookBodyOf(notification))).toMatchObject({
      at: '2026-11-28T20:13:04.120Z',
      timeZone: 'Europe/Berlin',
    });
    expect(emailOf({ ...notification, timeZone: 'UTC' }).text).toContain('\nAt: Nov 28, 2026, 20:13 UTC\n');
    // A delivery queued before notifications carried their zone is written in UTC.
    const queuedBefore = { ...notification, timeZone: undefined } as unknown as Notification;
    expect(emailOf(queuedBefore).text).toContain('\nAt: Nov 28, 2026, 20:13 UTC\n');
  });
});
