/**
 * Alerting end to end: telemetry goes through the real ingest routes, the alert job is driven
 * with runOnce() on a test clock (no sleeping on the wall clock), and notifications arrive for
 * real at a loopback SMTP server and a loopback HTTP server (signed webhook, Slack blocks).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionHash } from '../../../src/core/grouping.js';
import { formatInstantInZone } from '../../../src/core/time-zones.js';
import { OutboundRefused, postOutbound } from '../../../src/application/alerting/outbound.js';
import { MINUTE, TestClock, bearer, call } from '../../support/access.js';
import { startHttpReceiver, type HttpReceiver, type ReceivedRequest } from '../../support/http-receiver.js';
import { startMailServer, type TestMailServer } from '../../support/mail-server.js';
import { registerUser, reportFrame, reportTraces, startTestService, type TestService } from '../../support/service.js';

/** Verifies a Sightline-Signature header the way the README tells receivers to. */
function verifySignature(secret: string, request: ReceivedRequest, nowSeconds: number): boolean {
  const header = String(request.headers['sightline-signature'] ?? '');
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  if (!parts.t || !parts.v1 || Math.abs(nowSeconds - Number(parts.t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${request.body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('alerting', () => {
  const clock = new TestClock();
  let service: TestService;
  let mail: TestMailServer;
  let receiver: HttpReceiver;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let counter = 0;
  const q = () => `projectId=${owner.project.id}`;

  beforeAll(async () => {
    mail = await startMailServer();
    receiver = await startHttpReceiver();
    service = await startTestService(
      { SMTP_URL: mail.url, ALERTS_ALLOW_PRIVATE_TARGETS: 'true', ALERTS_INTERVAL_SECONDS: '0' },
      { now: clock.now },
    );
    owner = await registerUser(service.app);
  });
  afterAll(async () => {
    await service?.close();
    await mail?.close();
    await receiver?.close();
  });

  const post = (url: string, payload: object) =>
    call(service.app, { method: 'POST', url, headers: bearer(owner.token), payload });
  async function channel(payload: object) {
    const response = await post(`/api/alert-channels?${q()}`, payload);
    expect(response.status, response.raw).toBe(201);
    return response.body as { id: string; secret?: string };
  }
  async function rule(payload: object) {
    const response = await post(`/api/alert-rules?${q()}`, { cooldownSeconds: 0, ...payload });
    expect(response.status, response.raw).toBe(201);
    return response.body as { id: string };
  }
  const removeRule = (id: string) =>
    call(service.app, { method: 'DELETE', url: `/api/alert-rules/${id}?${q()}`, headers: bearer(owner.token) });
  const ruleState = async (id: string) =>
    (await call(service.app, { method: 'GET', url: `/api/alert-rules/${id}?${q()}`, headers: bearer(owner.token) }))
      .body!.state as string;
  /** The next evaluation: every rule is due once a minute. */
  async function evaluate() {
    clock.advance(MINUTE + 1000);
    return service.services.alerts.runOnce();
  }
  function newError(): { trace: string; hash: string } {
    counter++;
    const trace = `AlertTestError${counter}: failed\nshop.checkout${counter}()\n    /srv/shop/checkout.go:${counter}`;
    return { trace, hash: exceptionHash(trace, false) };
  }
  const sendError = (trace: string, appVersion = '1.0.0') =>
    reportFrame(
      service.app,
      owner.project.token,
      {
        stackTraces: [{ stackTrace: trace, recordedAt: new Date(clock.now() - 1000).toISOString(), isMessage: false }],
      },
      appVersion,
    );
  const webhooksOf = (path: string, ruleId: string) =>
    receiver
      .on(path)
      .map((request) => ({ request, body: JSON.parse(request.body) as Record<string, any> }))
      .filter((hook) => hook.body.ruleId === ruleId);
  const events = async (ruleId: string) =>
    (
      await call(service.app, {
        method: 'GET',
        url: `/api/alert-events?${q()}&ruleId=${ruleId}`,
        headers: bearer(owner.token),
      })
    ).body!.items as Array<Record<string, any>>;

  it('a new issue fires by e-mail, signed webhook and Slack blocks; every attempt is an event', async () => {
    const email = await channel({ name: 'On call', kind: 'email', addresses: ['oncall@example.com'] });
    const hook = await channel({ name: 'Hook', kind: 'webhook', url: `${receiver.url}/hook` });
    const slack = await channel({ name: 'Slack', kind: 'slack', url: `${receiver.url}/slack/T000/B000/XXXX` });
    expect(hook.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const listed = (
      await call(service.app, { method: 'GET', url: `/api/alert-channels?${q()}`, headers: bearer(owner.token) })
    ).body!.items as Array<Record<string, unknown>>;
    expect(JSON.stringify(listed)).not.toContain(hook.secret!);
    expect(JSON.stringify(listed)).not.toContain('XXXX/');

    const newIssue = await rule({ name: 'New issues', kind: 'new_issue', channelIds: [email.id, hook.id, slack.id] });
    expect((await evaluate()).evaluated).toBeGreaterThanOrEqual(1);
    expect(await ruleState(newIssue.id)).toBe('ok');

    const error = newError();
    await sendError(error.trace);
    await evaluate();
    const message = await mail.next();
    // The notification says what the issue is, its trace's first line (before: only its hash).
    expect(message.subject).toBe(`[Sightline] FIRING: New issue: AlertTestError${counter}: failed`);
    expect(message.text).toContain(`New issue ${error.hash}: AlertTestError${counter}: failed at `);
    expect(message.to && 'text' in message.to ? message.to.text : '').toContain('oncall@example.com');
    const [webhook] = webhooksOf('/hook', newIssue.id);
    expect(webhook?.body).toMatchObject({
      type: 'alert.firing',
      kind: 'new_issue',
      state: 'firing',
      projectId: owner.project.id,
    });
    expect(verifySignature(hook.secret!, webhook!.request, Math.floor(clock.now() / 1000))).toBe(true);
    expect(verifySignature('whsec_wrong', webhook!.request, Math.floor(clock.now() / 1000))).toBe(false);
    const slackBody = JSON.parse(receiver.on('/slack/T000/B000/XXXX')[0]!.body) as {
      text: string;
      blocks: Array<{ type: string }>;
    };
    expect(slackBody.blocks.map((block) => block.type)).toEqual(['header', 'section', 'context']);
    expect(slackBody.text).toBe(`FIRING: New issue: AlertTestError${counter}: failed`);
    expect(
      (await events(newIssue.id)).map((event) => [event.channelName, event.state, event.outcome, event.attempt]),
    ).toEqual(
      expect.arrayContaining([
        ['On call', 'firing', 'delivered', 1],
        ['Hook', 'firing', 'delivered', 1],
        ['Slack', 'firing', 'delivered', 1],
      ]),
    );
    expect(await ruleState(newIssue.id)).toBe('firing');
    await evaluate();
    expect(await ruleState(newIssue.id)).toBe('firing');
    await removeRule(newIssue.id);
  });

  it("writes the times of a notification's text in its organization's time zone; `at` and the link stay ISO UTC", async () => {
    // The same news for two organizations: one left at UTC, one in Europe/Berlin.
    const berlin = await registerUser(service.app);
    const zoned = await call(service.app, {
      method: 'PUT',
      url: `/api/organizations/${berlin.organization.id}/settings`,
      headers: bearer(berlin.token),
      payload: { timezone: 'Europe/Berlin' },
    });
    expect(zoned.status, zoned.raw).toBe(200);
    const organizations = [
      { user: owner, zone: 'UTC', label: 'utc' },
      { user: berlin, zone: 'Europe/Berlin', label: 'berlin' },
    ] as const;
    const as = (user: typeof owner, method: 'POST' | 'GET' | 'DELETE', url: string, payload?: object) =>
      call(service.app, {
        method,
        url: `${url}${url.includes('?') ? '&' : '?'}projectId=${user.project.id}`,
        headers: bearer(user.token),
        ...(payload ? { payload } : {}),
      });
    const set = await Promise.all(
      organizations.map(async ({ user, label }) => {
        const channelIds: string[] = [];
        for (const payload of [
          { name: 'Zone mail', kind: 'email', addresses: [`zone-${label}@example.com`] },
          { name: 'Zone hook', kind: 'webhook', url: `${receiver.url}/zone-${label}` },
          { name: 'Zone Slack', kind: 'slack', url: `${receiver.url}/zone-${label}-slack/T000/B000/XXXX` },
        ]) {
          const created = await as(user, 'POST', '/api/alert-channels', payload);
          expect(created.status, created.raw).toBe(201);
          channelIds.push(created.body!.id);
        }
        const created = await as(user, 'POST', '/api/alert-rules', {
          name: 'Zone news',
          kind: 'new_issue',
          cooldownSeconds: 0,
          channelIds,
        });
        expect(created.status, created.raw).toBe(201);
        return { ruleId: created.body!.id as string, emailId: channelIds[0]! };
      }),
    );
    const sendTo = async (user: typeof owner) => {
      const error = newError();
      await reportFrame(service.app, user.project.token, {
        stackTraces: [
          { stackTrace: error.trace, recordedAt: new Date(clock.now() - 1000).toISOString(), isMessage: false },
        ],
      });
      return error;
    };
    const errors = [await sendTo(owner), await sendTo(berlin)];
    await evaluate();
    const mails = [await mail.next(), await mail.next()];

    for (const [index, { user, zone, label }] of organizations.entries()) {
      const { hash, trace } = errors[index]!;
      const activity = await as(user, 'GET', `/api/exception-stack-traces/${hash}/activity`);
      const detectedAt = new Date(
        (activity.body!.items as Array<{ kind: string; at: string }>).find((entry) => entry.kind === 'new')!.at,
      );
      const [hook] = receiver.on(`/zone-${label}`).map((request) => JSON.parse(request.body) as Record<string, any>);
      const line = `New issue ${hash}: ${trace.split('\n')[0]} at ${formatInstantInZone(detectedAt, zone, 'second')}`;
      // Machine-readable: ISO UTC, and the zone the text is written in.
      expect(hook).toMatchObject({ lines: [line], timeZone: zone });
      expect(hook!.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(new URL(hook!.url).search).toBe(`?projectId=${user.project.id}`);
      const writtenAt = formatInstantInZone(new Date(hook!.at), zone);
      expect(writtenAt).toMatch(zone === 'UTC' ? / UTC$/ : /\(Europe\/Berlin, UTC\+0[12]:00\)$/);
      expect(line).toMatch(zone === 'UTC' ? /:\d{2} UTC$/ : /:\d{2} \(Europe\/Berlin, UTC\+0[12]:00\)$/);

      const message = mails.find((candidate) => candidate.text?.includes(hash));
      expect(message?.to && 'text' in message.to ? message.to.text : '').toBe(`zone-${label}@example.com`);
      expect(message!.text).toContain(`\nAt: ${writtenAt}\n\n${line}\n`);
      const slack = JSON.parse(receiver.on(`/zone-${label}-slack/T000/B000/XXXX`)[0]!.body) as {
        blocks: Array<{ text?: { text: string }; elements?: Array<{ text: string }> }>;
      };
      expect(slack.blocks[1]!.text!.text).toContain(`\n${line}`);
      expect(slack.blocks[2]!.elements![0]!.text).toBe(`new_issue · ${writtenAt} · <${hook!.url}|Open in Sightline>`);
    }

    // A test send is written in the zone too.
    const tested = await as(berlin, 'POST', `/api/alert-channels/${set[1]!.emailId}/test`, {});
    expect(tested.body).toMatchObject({ outcome: 'delivered' });
    const testMail = await mail.next();
    expect(testMail.text).toContain(`\nAt: ${formatInstantInZone(new Date(clock.now()), 'Europe/Berlin')}\n`);
    expect(testMail.text).toMatch(/\nAt: .+ \(Europe\/Berlin, UTC\+0[12]:00\)\n/);

    // A stored zone the runtime does not know (stored before validation, or dropped from tzdata) is written as UTC.
    await service.services.meta.query(
      `UPDATE organization_settings SET settings = jsonb_set(settings, '{timezone}', '"Mars/Olympus_Mons"') WHERE organization_id = $1`,
      [berlin.organization.id],
    );
    await sendTo(berlin);
    await evaluate();
    await mail.next();
    const unknownZone = JSON.parse(receiver.on('/zone-berlin')[1]!.body) as Record<string, any>;
    expect(unknownZone.timeZone).toBe('UTC');
    expect(unknownZone.lines[0]).toMatch(/ at \w{3} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2} UTC$/);

    for (const [index, { user }] of organizations.entries())
      expect((await as(user, 'DELETE', `/api/alert-rules/${set[index]!.ruleId}`)).status).toBe(200);
  });

  it('resolving an issue and sending the exception again fires a regression', async () => {
    const hook = await channel({ name: 'Regressions', kind: 'webhook', url: `${receiver.url}/regressions` });
    const regression = await rule({ name: 'Regressions', kind: 'regression', channelIds: [hook.id] });
    const error = newError();
    await sendError(error.trace);
    await evaluate();
    expect(webhooksOf('/regressions', regression.id)).toHaveLength(0);
    const resolved = await call(service.app, {
      method: 'PUT',
      url: `/api/exception-stack-traces/${error.hash}/status?${q()}`,
      headers: bearer(owner.token),
      payload: { status: 'resolved' },
    });
    expect(resolved.status).toBe(200);
    await sendError(error.trace, '1.0.1');
    await evaluate();
    const hooks = webhooksOf('/regressions', regression.id);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.body).toMatchObject({
      kind: 'regression',
      state: 'firing',
      title: `Regression: ${error.trace.split('\n')[0]}`,
    });
    expect(hooks[0]!.body.lines[0]).toContain('version 1.0.1');
    await removeRule(regression.id);
  });

  it('a latency rule fires on slow calls of an endpoint and resolves when they stop', async () => {
    const hook = await channel({ name: 'Latency', kind: 'webhook', url: `${receiver.url}/latency` });
    const latency = await rule({
      name: 'Slow checkout',
      kind: 'endpoint_latency',
      params: { endpoint: 'POST /checkout', percentile: 'p95', thresholdMs: 500, windowMinutes: 5 },
      channelIds: [hook.id],
    });
    const traces = Array.from({ length: 20 }, (_, index) => ({
      id: crypto.randomUUID(),
      endpoint: 'POST /checkout',
      duration: (index < 2 ? 50 : 2000) * 1_000_000,
      recordedAt: new Date(clock.now() + MINUTE).toISOString(),
      statusCode: 200,
      bodySize: 10,
      clientIP: '203.0.113.9',
    }));
    expect((await reportTraces(service.app, owner.project.token, traces)).statusCode).toBe(200);
    await evaluate();
    expect(await ruleState(latency.id)).toBe('firing');
    const fired = webhooksOf('/latency', latency.id);
    expect(fired.map((hookCall) => hookCall.body.state)).toEqual(['firing']);
    expect(fired[0]!.body.value).toBeGreaterThan(500);
    // The link opens the endpoint's own page over the alert's window (before: the endpoint list
    // over the last 24 hours, where the figures are not the alert's).
    const link = new URL(String(fired[0]!.body.url));
    expect([link.origin, link.pathname]).toEqual([service.services.config.publicUrl, '/endpoints/detail']);
    expect(Object.fromEntries(link.searchParams)).toEqual({
      projectId: owner.project.id,
      name: 'POST /checkout',
      from: new Date(Date.parse(String(fired[0]!.body.at)) - 5 * 60_000).toISOString(),
      to: fired[0]!.body.at,
    });

    clock.advance(6 * MINUTE);
    await evaluate();
    expect(await ruleState(latency.id)).toBe('resolved');
    expect(webhooksOf('/latency', latency.id).map((hookCall) => hookCall.body.state)).toEqual(['firing', 'resolved']);
    // The resolving says since when it fired, and its link covers the whole firing (before: only
    // the quiet window that resolved it).
    const resolvedBody = webhooksOf('/latency', latency.id)[1]!.body;
    expect(resolvedBody.lines[0]).toBe(
      `firing since ${formatInstantInZone(new Date(fired[0]!.body.at), 'UTC')} (7 min)`,
    );
    expect(resolvedBody.lines[0]).toMatch(/^firing since \w{3} \d{1,2}, \d{4}, \d{2}:\d{2} UTC \(7 min\)$/);
    expect(new URL(String(resolvedBody.url)).searchParams.get('from')).toBe(
      new Date(Date.parse(String(fired[0]!.body.at)) - 5 * 60_000).toISOString(),
    );
    await removeRule(latency.id);
  });

  it('a metric rule and a log rule fire', async () => {
    const hook = await channel({ name: 'Signals', kind: 'webhook', url: `${receiver.url}/signals` });
    const metric = await rule({
      name: 'Queue depth',
      kind: 'metric_threshold',
      params: {
        metric: 'queue.depth',
        aggregation: 'max',
        filters: [{ field: 'serverName', op: 'eq', value: 'web-1' }],
        comparator: 'gt',
        threshold: 100,
        windowMinutes: 5,
      },
      channelIds: [hook.id],
    });
    const logs = await rule({
      name: 'Declined cards',
      kind: 'log_match',
      params: { search: 'card declined', minSeverity: 14, serviceName: 'payments', threshold: 2, windowMinutes: 5 },
      channelIds: [hook.id],
    });
    await evaluate();
    expect([await ruleState(metric.id), await ruleState(logs.id)]).toEqual(['ok', 'ok']);

    const at = clock.now() + 30_000;
    await reportFrame(service.app, owner.project.token, {
      metrics: [
        { name: 'queue.depth', value: 20, recordedAt: new Date(at).toISOString() },
        { name: 'queue.depth', value: 450, recordedAt: new Date(at + 1000).toISOString() },
      ],
    });
    const logRecord = (text: string, severityNumber: number, offset: number) => ({
      timeUnixNano: String(BigInt(at + offset) * 1_000_000n),
      severityNumber,
      body: { stringValue: text },
    });
    const otlp = await service.app.inject({
      method: 'POST',
      url: '/api/otel/v1/logs',
      headers: { authorization: `Bearer ${owner.project.token}`, 'content-type': 'application/json' },
      payload: {
        resourceLogs: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'payments' } }] },
            scopeLogs: [
              {
                logRecords: [
                  logRecord('payment failed: card declined', 17, 1),
                  logRecord('payment failed: card declined', 17, 2),
                  logRecord('card declined (retrying)', 9, 3),
                ],
              },
            ],
          },
        ],
      },
    });
    expect(otlp.statusCode).toBe(200);
    await evaluate();
    const metricAlert = webhooksOf('/signals', metric.id)[0]?.body;
    expect(metricAlert).toMatchObject({ state: 'firing', value: 450 });
    // The explorer opens on the rule's query, its filters included (before: left out, so the chart
    // drew every server's queue), over the alert's window.
    const metricLink = new URL(String(metricAlert?.url));
    expect(metricLink.pathname).toBe('/metrics');
    const { filters, ...query } = Object.fromEntries(metricLink.searchParams);
    expect(JSON.parse(filters ?? 'null')).toEqual([{ field: 'serverName', op: 'eq', value: 'web-1' }]);
    expect(query).toEqual({
      projectId: owner.project.id,
      metric: 'queue.depth',
      aggregation: 'max',
      from: new Date(Date.parse(String(metricAlert?.at)) - 5 * 60_000).toISOString(),
      to: metricAlert?.at,
    });
    const logAlert = webhooksOf('/signals', logs.id)[0]?.body;
    expect(logAlert).toMatchObject({ state: 'firing', value: 2 });
    // The link opens the logs page on the rule's search and the alert's window (its URL state),
    // severity 14 lowered to the page's WARN (13), which still shows every line that matched.
    const link = new URL(String(logAlert?.url));
    expect(link.pathname).toBe('/logs');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      projectId: owner.project.id,
      q: 'card declined',
      severity: '13',
      service: 'payments',
      from: new Date(Date.parse(String(logAlert?.at)) - 5 * 60_000).toISOString(),
      to: logAlert?.at,
    });
    await removeRule(metric.id);
    await removeRule(logs.id);
  });

  it('cooldown and snooze suppress repeated notifications', async () => {
    const hook = await channel({ name: 'Quiet', kind: 'webhook', url: `${receiver.url}/quiet` });
    const cooled = await rule({ name: 'Cooled', kind: 'new_issue', cooldownSeconds: 3600, channelIds: [hook.id] });
    const snoozed = await rule({
      name: 'Snoozed',
      kind: 'new_issue',
      snoozedUntil: new Date(clock.now() + 3600_000).toISOString(),
      channelIds: [hook.id],
    });
    await sendError(newError().trace);
    await evaluate();
    await sendError(newError().trace);
    await evaluate();
    expect(webhooksOf('/quiet', cooled.id)).toHaveLength(1);
    expect(webhooksOf('/quiet', snoozed.id)).toHaveLength(0);
    // Past the cooldown and the snooze, the next new issue is notified by both.
    clock.advance(61 * MINUTE);
    await sendError(newError().trace);
    await evaluate();
    expect(webhooksOf('/quiet', cooled.id)).toHaveLength(2);
    expect(webhooksOf('/quiet', snoozed.id)).toHaveLength(1);
    await removeRule(cooled.id);
    await removeRule(snoozed.id);
  });

  it("a reminder's subject names what still fires; since when and how long is the first line of its text", async () => {
    const email = await channel({ name: 'Reminded', kind: 'email', addresses: ['reminded@example.com'] });
    const frequency = await rule({
      name: 'Checkout errors',
      kind: 'issue_frequency',
      // The whole day: the one error keeps the rule firing while the clock moves on by an hour.
      params: { windowMinutes: 1440, threshold: 1 },
      repeatIntervalSeconds: 3600,
      channelIds: [email.id],
    });
    await sendError(newError().trace);
    await evaluate();
    const fired = await mail.next();
    expect(fired.subject).toMatch(/^\[Sightline\] FIRING: /);
    const firedAt = new Date(
      (
        await call(service.app, {
          method: 'GET',
          url: `/api/alert-rules/${frequency.id}?${q()}`,
          headers: bearer(owner.token),
        })
      ).body!.stateChangedAt as string,
    );
    clock.advance(59 * MINUTE);
    await evaluate();
    const reminded = await mail.next();
    // Before: "[Sightline] REMINDER: Still firing since Nov 28, 2026, 21:13 UTC: <title>", cut by
    // mail clients before the part that says what fires. Now the firing's own title.
    const title = fired.subject!.slice('[Sightline] FIRING: '.length);
    expect(reminded.subject).toBe(`[Sightline] REMINDER: ${title}`);
    expect(reminded.text).toContain(`\n\nfiring since ${formatInstantInZone(firedAt, 'UTC')} (1 h)\n`);
    await removeRule(frequency.id);
  });

  it('a channel answering 500 is retried with backoff and every attempt recorded; the other channels are delivered at once', async () => {
    receiver.answer('/broken', 500);
    const broken = await channel({ name: 'Broken', kind: 'webhook', url: `${receiver.url}/broken` });
    const healthy = await channel({ name: 'Healthy', kind: 'webhook', url: `${receiver.url}/healthy` });
    const failing = await rule({ name: 'Retried', kind: 'new_issue', channelIds: [broken.id, healthy.id] });
    await sendError(newError().trace);
    await evaluate();
    expect(webhooksOf('/healthy', failing.id)).toHaveLength(1);
    expect(webhooksOf('/broken', failing.id)).toHaveLength(1);
    let recorded = (await events(failing.id)).filter((event) => event.channelName === 'Broken');
    expect(recorded.map((event) => [event.attempt, event.outcome, event.responseStatus])).toEqual([
      [1, 'retrying', 500],
    ]);
    // Not before its backoff (30 s after the first attempt)...
    clock.advance(10_000);
    await service.services.alerts.deliverDue();
    expect(webhooksOf('/broken', failing.id)).toHaveLength(1);
    // ... then retried, and once it answers 200, delivered.
    receiver.answer('/broken', 200);
    clock.advance(25_000);
    await service.services.alerts.deliverDue();
    recorded = (await events(failing.id)).filter((event) => event.channelName === 'Broken');
    expect(recorded.map((event) => [event.attempt, event.outcome, event.responseStatus])).toEqual([
      [2, 'delivered', 200],
      [1, 'retrying', 500],
    ]);
    expect(webhooksOf('/broken', failing.id)).toHaveLength(2);
    await removeRule(failing.id);
  });

  it("a channel deleted while a rule still names it is skipped; the rule's other channels are delivered", async () => {
    const gone = await channel({ name: 'Gone', kind: 'webhook', url: `${receiver.url}/gone` });
    const kept = await channel({ name: 'Kept', kind: 'webhook', url: `${receiver.url}/kept` });
    const both = await rule({ name: 'Both', kind: 'new_issue', channelIds: [gone.id, kept.id] });
    expect(
      (
        await call(service.app, {
          method: 'DELETE',
          url: `/api/alert-channels/${gone.id}?${q()}`,
          headers: bearer(owner.token),
        })
      ).body,
    ).toEqual({ deleted: true });
    await sendError(newError().trace);
    await evaluate();
    expect(webhooksOf('/kept', both.id)).toHaveLength(1);
    expect(receiver.on('/gone')).toHaveLength(0);
    expect(await ruleState(both.id)).toBe('firing');
    await removeRule(both.id);
  });

  it('the test-send action delivers through each kind of channel and records it', async () => {
    const hook = await channel({ name: 'Test hook', kind: 'webhook', url: `${receiver.url}/test-send` });
    const email = await channel({ name: 'Test mail', kind: 'email', addresses: ['test@example.com'] });
    expect((await post(`/api/alert-channels/${hook.id}/test?${q()}`, {})).body).toEqual({
      outcome: 'delivered',
      responseStatus: 200,
      error: null,
    });
    expect(JSON.parse(receiver.on('/test-send')[0]!.body)).toMatchObject({ type: 'alert.test' });
    expect((await post(`/api/alert-channels/${email.id}/test?${q()}`, {})).body).toMatchObject({
      outcome: 'delivered',
    });
    expect((await mail.next()).subject).toContain('TEST');
  });

  it('refuses loopback and private targets after resolving the name when the operator setting is off', async () => {
    const before = receiver.requests.length;
    const port = new URL(receiver.url).port;
    for (const url of [
      `http://localhost:${port}/x`,
      `http://127.0.0.1:${port}/x`,
      `http://[::1]:${port}/x`,
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/x',
    ]) {
      await expect(postOutbound(url, '{}', {}, { allowPrivate: false }), url).rejects.toSatisfy(
        (error: unknown) =>
          error instanceof OutboundRefused ||
          (error as { cause?: unknown }).cause instanceof OutboundRefused ||
          /loopback, private or link-local/.test((error as Error).message),
      );
    }
    await expect(postOutbound('file:///etc/passwd', '{}', {}, { allowPrivate: true })).rejects.toThrow(
      /only http and https/,
    );
    expect(receiver.requests.length).toBe(before);
  });

  it('validates rules and channels with a message naming the field', async () => {
    const cases: Array<[string, object, number, RegExp]> = [
      ['/api/alert-rules', { name: 'x', kind: 'nope' }, 400, /kind/],
      [
        '/api/alert-rules',
        { name: 'x', kind: 'endpoint_latency', params: { thresholdMs: -1 } },
        422,
        /params\.thresholdMs/,
      ],
      [
        '/api/alert-rules',
        { name: 'x', kind: 'endpoint_latency', params: { thresholdMs: 10, windowMinutes: 5000 } },
        422,
        /params\.windowMinutes/,
      ],
      ['/api/alert-rules', { name: 'x', kind: 'metric_threshold', params: { threshold: 1 } }, 422, /params\.metric/],
      [
        '/api/alert-rules',
        { name: 'x', kind: 'log_match', params: { threshold: 1 } },
        422,
        /search, minSeverity, serviceName/,
      ],
      [
        '/api/alert-rules',
        { name: 'x', kind: 'log_match', params: { search: 'a', threshold: 501 } },
        422,
        /params\.threshold/,
      ],
      ['/api/alert-rules', { name: 'x', kind: 'new_issue', params: { bogus: 1 } }, 422, /params\.bogus/],
      ['/api/alert-rules', { name: 'x', kind: 'new_issue', channelIds: [crypto.randomUUID()] }, 422, /channelIds\[0\]/],
      ['/api/alert-rules', { name: 'x', kind: 'new_issue', cooldownSeconds: -5 }, 400, /cooldownSeconds/],
      ['/api/alert-channels', { name: 'x', kind: 'email' }, 422, /addresses/],
      ['/api/alert-channels', { name: 'x', kind: 'email', addresses: ['not-an-address'] }, 422, /addresses\[0\]/],
      ['/api/alert-channels', { name: 'x', kind: 'webhook', url: 'ftp://example.com/x' }, 422, /url/],
      ['/api/alert-channels', { name: 'x', kind: 'slack' }, 422, /url/],
    ];
    for (const [path, payload, status, message] of cases) {
      const response = await post(`${path}?${q()}`, payload);
      expect([response.status, response.body?.error], JSON.stringify(payload)).toEqual([
        status,
        expect.stringMatching(message),
      ]);
    }
  });
});
