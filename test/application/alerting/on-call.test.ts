/**
 * On call: a rule fires from real ingest, a person acknowledges it ("I'm on it") and resolves
 * it by hand; the rule's history says who did what.
 * The alert job runs with runOnce() on a test clock; notifications arrive at a loopback receiver.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionHash } from '../../../src/core/grouping.js';
import { formatInstantInZone } from '../../../src/core/time-zones.js';
import { MINUTE, TestClock, bearer, call, joinByInvitation } from '../../support/access.js';
import { startHttpReceiver, type HttpReceiver } from '../../support/http-receiver.js';
import { registerUser, reportFrame, startTestService, type TestService } from '../../support/service.js';

describe('on call: acknowledge and resolve', () => {
  const clock = new TestClock();
  let service: TestService;
  let receiver: HttpReceiver;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let stranger: Awaited<ReturnType<typeof registerUser>>;
  const members = new Map<string, string>();
  let counter = 0;
  const q = () => `projectId=${owner.project.id}`;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    service = await startTestService(
      { ALERTS_ALLOW_PRIVATE_TARGETS: 'true', ALERTS_INTERVAL_SECONDS: '0' },
      { now: clock.now },
    );
    owner = await registerUser(service.app, { name: 'Olivia Owner' });
    stranger = await registerUser(service.app);
    for (const role of ['write', 'read-only'] as const) {
      const joined = await joinByInvitation(service.app, owner, role, `${role}-${randomUUID()}@example.com`);
      members.set(role, joined.body!.token);
    }
  });
  afterAll(async () => {
    await service?.close();
    await receiver?.close();
  });

  const act = (token: string, ruleId: string, action: 'acknowledge' | 'resolve', projectId = owner.project.id) =>
    call(service.app, {
      method: 'POST',
      url: `/api/alert-rules/${ruleId}/${action}?projectId=${projectId}`,
      headers: bearer(token),
    });
  const getRule = async (id: string) =>
    (await call(service.app, { method: 'GET', url: `/api/alert-rules/${id}?${q()}`, headers: bearer(owner.token) }))
      .body as Record<string, any>;
  async function evaluate() {
    clock.advance(MINUTE + 1000);
    return service.services.alerts.runOnce();
  }
  async function sendNewError() {
    counter++;
    const trace = `OnCallError${counter}: failed\nshop.pay${counter}()\n    /srv/shop/pay.go:${counter}`;
    await reportFrame(service.app, owner.project.token, {
      stackTraces: [{ stackTrace: trace, recordedAt: new Date(clock.now() - 1000).toISOString(), isMessage: false }],
    });
    return exceptionHash(trace, false);
  }
  const setTimeZone = (timezone: string) =>
    call(service.app, {
      method: 'PUT',
      url: `/api/organizations/${owner.organization.id}/settings`,
      headers: bearer(owner.token),
      payload: { timezone },
    });
  const hooks = (ruleId: string) =>
    receiver
      .on('/on-call')
      .map((request) => JSON.parse(request.body) as Record<string, any>)
      .filter((body) => body.ruleId === ruleId);

  /** The rule's history (deliveries and people's actions), newest first, as `token` reads it. */
  const historyOf = async (ruleId: string, token: string) =>
    (
      await call(service.app, {
        method: 'GET',
        url: `/api/alert-events?${q()}&ruleId=${ruleId}`,
        headers: bearer(token),
      })
    ).body!.items as Array<Record<string, any>>;

  /** A rule notifying a webhook channel of its own ("<name> hook") at the receiver. */
  async function ruleWithHook(name: string, rule: Record<string, unknown>) {
    const channel = await call(service.app, {
      method: 'POST',
      url: `/api/alert-channels?${q()}`,
      headers: bearer(owner.token),
      payload: { name: `${name} hook`, kind: 'webhook', url: `${receiver.url}/on-call` },
    });
    const created = await call(service.app, {
      method: 'POST',
      url: `/api/alert-rules?${q()}`,
      headers: bearer(owner.token),
      payload: { name, channelIds: [channel.body!.id], ...rule },
    });
    expect(created.status, created.raw).toBe(201);
    return created.body as Record<string, any>;
  }

  async function firingNewIssueRule(name: string) {
    const id = (await ruleWithHook(name, { kind: 'new_issue' })).id as string;
    await sendNewError();
    await evaluate();
    expect(hooks(id).map((hook) => hook.state)).toEqual(['firing']);
    return id;
  }

  it('acknowledging says who is on it; a later new issue is notified and clears it; resolving by hand tells the channels; the history says who', async () => {
    const id = await firingNewIssueRule('Payments new issues');
    // A quiet evaluation leaves an event rule firing: someone has to look (before: back to ok a minute later).
    await evaluate();
    expect((await getRule(id)).state).toBe('firing');

    const acknowledged = await act(members.get('write')!, id, 'acknowledge');
    expect(acknowledged.status, acknowledged.raw).toBe(200);
    expect(acknowledged.body).toMatchObject({
      state: 'firing',
      acknowledgedAt: new Date(clock.now()).toISOString(),
      acknowledgedBy: { name: 'write' },
    });
    const twice = await act(owner.token, id, 'acknowledge');
    expect([twice.status, twice.body]).toEqual([409, { error: 'this firing is already acknowledged' }]);

    // A quiet evaluation keeps the acknowledgement.
    await evaluate();
    expect((await getRule(id)).acknowledgedBy).toMatchObject({ name: 'write' });
    // Another new issue is not the one someone is on: notified, and the acknowledgement goes
    // (before: held back, so one acknowledgement silenced every new issue until a resolve).
    await sendNewError();
    await evaluate();
    expect(hooks(id).map((hook) => hook.type)).toEqual(['alert.firing', 'alert.acknowledged', 'alert.firing']);
    expect((await getRule(id)).acknowledgedBy).toBeNull();
    expect((await act(owner.token, id, 'acknowledge')).status).toBe(200);

    const resolved = await act(owner.token, id, 'resolve');
    expect(resolved.status, resolved.raw).toBe(200);
    expect(resolved.body).toMatchObject({ state: 'resolved', acknowledgedAt: null, acknowledgedBy: null });
    await service.services.alerts.deliverDue();
    const [, , , acknowledgedHook, resolvedHook] = hooks(id);
    expect(acknowledgedHook).toMatchObject({
      type: 'alert.acknowledged',
      title: 'Acknowledged by Olivia Owner: Payments new issues',
    });
    expect(resolvedHook).toMatchObject({
      type: 'alert.resolved',
      title: 'Resolved by Olivia Owner: Payments new issues',
      url: `${service.services.config.publicUrl}/alerts?projectId=${owner.project.id}&tab=history&rule=${id}`,
    });
    // The organization is at UTC (unset): the instant says so.
    expect(resolvedHook!.lines[0]).toMatch(
      /^Resolved by hand by Olivia Owner \(firing since \w{3} \d{1,2}, \d{4}, \d{2}:\d{2} UTC\)$/,
    );
    const again = await act(owner.token, id, 'resolve');
    expect([again.status, again.body]).toEqual([
      409,
      { error: 'only a firing rule can be resolved: this one is resolved' },
    ]);

    const history = await historyOf(id, members.get('read-only')!);
    expect(
      history.map((event) => [event.action, event.actorName, event.state, event.notice, event.channelName]),
    ).toEqual([
      [null, null, 'resolved', null, 'Payments new issues hook'],
      [null, null, 'firing', 'acknowledged', 'Payments new issues hook'],
      ['resolved', 'Olivia Owner', 'resolved', null, null],
      ['acknowledged', 'Olivia Owner', 'firing', null, null],
      [null, null, 'firing', null, 'Payments new issues hook'],
      [null, null, 'firing', 'acknowledged', 'Payments new issues hook'],
      ['acknowledged', 'write', 'firing', null, null],
      [null, null, 'firing', null, 'Payments new issues hook'],
    ]);

    // The next new issue is a new firing: notified, and nobody is on it yet.
    await sendNewError();
    await evaluate();
    expect(hooks(id).map((hook) => hook.type)).toEqual([
      'alert.firing',
      'alert.acknowledged',
      'alert.firing',
      'alert.acknowledged',
      'alert.resolved',
      'alert.firing',
    ]);
    expect(await getRule(id)).toMatchObject({ state: 'firing', acknowledgedBy: null });
  });

  it('a threshold rule resolved by hand while its condition holds fires anew at the next evaluation', async () => {
    const { id } = await ruleWithHook('Any issue', {
      kind: 'issue_frequency',
      params: { windowMinutes: 60, threshold: 1 },
    });
    await sendNewError();
    await evaluate();
    expect((await act(owner.token, id, 'acknowledge')).body).toMatchObject({
      acknowledgedBy: { name: 'Olivia Owner' },
    });
    expect((await act(owner.token, id, 'resolve')).body).toMatchObject({ state: 'resolved' });
    await evaluate();
    expect(hooks(id).map((hook) => hook.type)).toEqual([
      'alert.firing',
      'alert.acknowledged',
      'alert.resolved',
      'alert.firing',
    ]);
    expect(await getRule(id)).toMatchObject({ state: 'firing', acknowledgedBy: null });
  });

  it('a threshold rule nobody acknowledged is reminded every interval; an acknowledgement is told to its channels and stops the reminders', async () => {
    // Written in the organization's zone (set back at the end).
    expect((await setTimeZone('Europe/Berlin')).status).toBe(200);
    const rule = await ruleWithHook('Checkout errors', {
      kind: 'issue_frequency',
      // The whole day: the one error keeps the rule firing while the clock moves on by hours.
      params: { windowMinutes: 1440, threshold: 1 },
      repeatIntervalSeconds: 3600,
    });
    expect(rule.repeatIntervalSeconds).toBe(3600);
    const id = rule.id as string;
    const hash = await sendNewError();
    await evaluate();
    const firedAt = (await getRule(id)).stateChangedAt as string;
    expect(hooks(id).map((hook) => hook.type)).toEqual(['alert.firing']);

    // Not before the interval: 59 minutes after the firing, nothing more (before: never anything more).
    clock.advance(58 * MINUTE - 1000);
    await evaluate();
    expect(hooks(id)).toHaveLength(1);
    clock.advance(MINUTE - 1000);
    await evaluate();
    expect(hooks(id).map((hook) => hook.type)).toEqual(['alert.firing', 'alert.reminder']);
    const [fired, reminder] = hooks(id);
    // The title, a mail subject, stays the firing's; since when (to the minute in the organization's zone,
    // named) and for how long is the first line, then the firing's lines.
    expect(reminder).toMatchObject({
      state: 'firing',
      notice: 'reminder',
      title: fired!.title,
      lines: [`firing since ${formatInstantInZone(new Date(firedAt), 'Europe/Berlin')} (1 h 1 min)`, ...fired!.lines],
    });
    expect(reminder!.lines[0]).toMatch(
      /^firing since \w{3} \d{1,2}, \d{4}, \d{2}:\d{2} \(Europe\/Berlin, UTC\+0[12]:00\) \(1 h 1 min\)$/,
    );
    // The same page as the firing's link, over the window read now.
    const page = (url: string) => {
      const { pathname, searchParams } = new URL(url);
      return [pathname, searchParams.get('projectId')];
    };
    expect(page(reminder!.url)).toEqual([`/issues/${hash}`, owner.project.id]);
    expect(page(reminder!.url)).toEqual(page(fired!.url));

    // The next one an interval after the reminder.
    clock.advance(58 * MINUTE);
    await evaluate();
    expect(hooks(id)).toHaveLength(2);
    clock.advance(MINUTE);
    await evaluate();
    expect(hooks(id).map((hook) => hook.type)).toEqual(['alert.firing', 'alert.reminder', 'alert.reminder']);

    // Acknowledging tells the channel who took it (before: nothing was sent) and ends the reminders.
    expect((await act(members.get('write')!, id, 'acknowledge')).status).toBe(200);
    await service.services.alerts.deliverDue();
    const told = hooks(id)[3];
    expect(told).toMatchObject({
      type: 'alert.acknowledged',
      state: 'firing',
      title: 'Acknowledged by write: Checkout errors',
      lines: [`write is on it (firing since ${formatInstantInZone(new Date(firedAt), 'Europe/Berlin')})`],
      url: `${service.services.config.publicUrl}/alerts?projectId=${owner.project.id}&tab=history&rule=${id}`,
    });
    clock.advance(3 * 60 * MINUTE);
    await evaluate();
    expect(hooks(id)).toHaveLength(4);
    expect(await getRule(id)).toMatchObject({ state: 'firing', acknowledgedBy: { name: 'write' } });

    const history = await historyOf(id, members.get('read-only')!);
    expect(history.map((event) => [event.notice, event.action, event.channelName, event.outcome])).toEqual([
      ['acknowledged', null, 'Checkout errors hook', 'delivered'],
      [null, 'acknowledged', null, null],
      ['reminder', null, 'Checkout errors hook', 'delivered'],
      ['reminder', null, 'Checkout errors hook', 'delivered'],
      [null, null, 'Checkout errors hook', 'delivered'],
    ]);

    // Resolving ends the firing; a new firing is notified as new, and reminded of again.
    expect((await act(owner.token, id, 'resolve')).status).toBe(200);
    await evaluate();
    expect(
      hooks(id)
        .map((hook) => hook.type)
        .slice(4),
    ).toEqual(['alert.resolved', 'alert.firing']);
    clock.advance(60 * MINUTE);
    await evaluate();
    expect(
      hooks(id)
        .map((hook) => hook.type)
        .slice(4),
    ).toEqual(['alert.resolved', 'alert.firing', 'alert.reminder']);
    expect((await setTimeZone('UTC')).status).toBe(200);
  });

  it('needs the write role; another organization gets 403, and from its own project the rule does not exist', async () => {
    const id = await firingNewIssueRule('Guarded');
    for (const action of ['acknowledge', 'resolve'] as const) {
      const readOnly = await act(members.get('read-only')!, id, action);
      expect([readOnly.status, readOnly.body]).toEqual([403, { error: 'this needs the write role on the project' }]);
      const foreign = await act(stranger.token, id, action);
      expect([foreign.status, foreign.body]).toEqual([403, { error: 'Access denied' }]);
      const elsewhere = await act(stranger.token, id, action, stranger.project.id);
      expect([elsewhere.status, elsewhere.body]).toEqual([404, { error: 'no such alert rule in this project' }]);
    }
    expect(await getRule(id)).toMatchObject({ state: 'firing', acknowledgedBy: null });
    const history = await historyOf(id, owner.token);
    expect(history.map((event) => event.action)).toEqual([null]);
  });
});
