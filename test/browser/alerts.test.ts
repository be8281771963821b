/**
 * /alerts and the issue workflow in Chromium against a real service on embedded engines. Data
 * arrives through the real ingest routes (src/demo/demo-data.ts); a loopback HTTP receiver is the
 * webhook channel (ALERTS_ALLOW_PRIVATE_TARGETS lets the service reach it). The alert job does
 * not run on a timer here (ALERTS_INTERVAL_SECONDS=0): the suite runs it once when it wants a
 * rule evaluated. Every figure the pages show is compared with what the API answers; each page is
 * captured light and dark (axe-checked); a console error or failed request fails its test.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoBatch, seededRandom, sendDemoBatch, type DemoBatch } from '../../src/demo/demo-data.js';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';
import type { AlertChannel, AlertEvent, AlertRule } from '../../web/src/pages/alerts/types.js';
import type { IssueList } from '../../web/src/pages/issues/types.js';

/** An exception report (POST /api/report's stackTraces item) whose name makes its own issue. */
const failure = (name: string) => ({
  stackTrace: `${name}: it failed\n    at run (/srv/shop/${name}.js:1:1)`,
  recordedAt: new Date().toISOString(),
  isMessage: false,
});

/** The exceptions of the batch's first report (the shop service). */
const stackTracesOf = (batch: DemoBatch) =>
  (batch.reports[0] as { collectionFrames: Array<{ stackTraces: unknown[] }> }).collectionFrames[0]!.stackTraces;

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

describe('alerts and issue statuses in Chromium', () => {
  let d: SignedInDashboard;
  let page: Page;
  let receiver: HttpReceiver;

  const issues = async (body: Record<string, unknown> = {}) => {
    const response = await d.service.app.inject({
      method: 'POST',
      url: `/api/exception-stack-traces?projectId=${d.projectId}`,
      headers: { authorization: `Bearer ${d.session}` },
      payload: {
        fromDate: new Date(Date.now() - 86_400_000).toISOString(),
        toDate: new Date(Date.now() + 600_000).toISOString(),
        ...body,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as IssueList;
  };
  const channels = async () =>
    (await d.api<{ items: AlertChannel[] }>(`/api/alert-channels?projectId=${d.projectId}`)).items;
  const rules = async () => (await d.api<{ items: AlertRule[] }>(`/api/alert-rules?projectId=${d.projectId}`)).items;
  const events = async () => (await d.api<{ items: AlertEvent[] }>(`/api/alert-events?projectId=${d.projectId}`)).items;
  const search = () => new URL(page.url()).searchParams;
  const post = async <T>(url: string, payload: object) => {
    const response = await d.service.app.inject({
      method: 'POST',
      url: `${url}?projectId=${d.projectId}`,
      headers: { authorization: `Bearer ${d.session}` },
      payload,
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as T;
  };

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    d = await openSignedInDashboard({ env: { ALERTS_ALLOW_PRIVATE_TARGETS: 'true', ALERTS_INTERVAL_SECONDS: '0' } });
    page = d.page;
    const random = seededRandom(17);
    for (let batch = 0; batch < 3; batch++) {
      const data = demoBatch({ calls: 60, random, now: Date.now() - batch * 60_000, spanMs: 60_000 });
      // Three failures of their own, so the suite knows it has issues to resolve and ignore.
      if (batch === 0) stackTracesOf(data).push(...['CheckoutError', 'InventoryError', 'MailerError'].map(failure));
      await sendDemoBatch(d.base, d.projectToken, data);
    }
    for (let attempt = 0; ((await issues()).total ?? 0) < 5; attempt++) {
      if (attempt > 100) throw new Error(`the demo issues did not arrive: ${(await issues()).total}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  afterEach(() => {
    expect(d.watch.problems).toEqual([]);
  });

  afterAll(async () => {
    await d?.close();
    await receiver?.close();
  });

  it('creates a webhook channel, shows its secret once, and test-sends it to the receiver', async () => {
    await d.open('/alerts');
    await page.getByRole('navigation').getByRole('link', { name: 'Alerts' }).waitFor();
    await page.getByRole('tab', { name: 'Channels' }).click();
    await expect.poll(() => search().get('tab')).toBe('channels');
    await page.getByText('No channels yet').waitFor();

    await page.getByRole('button', { name: 'New channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'New channel' });
    await dialog.getByLabel('Name').fill('Receiver');
    await dialog.getByLabel('Kind').selectOption('webhook');
    await dialog.getByLabel('URL').fill(`${receiver.url}/hook`);
    await dialog.getByRole('button', { name: 'Create channel' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Webhook signing secret' });
    const secret = (await secretDialog.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    await d.capture('alerts-webhook-secret');
    await secretDialog.getByRole('button', { name: 'I stored it' }).click();
    await secretDialog.waitFor({ state: 'detached' });
    // Shown once: neither the page nor the API has it any more.
    expect(await page.getByText(secret).count()).toBe(0);
    const [stored] = await channels();
    expect(stored).toMatchObject({ name: 'Receiver', kind: 'webhook', url: `${receiver.url}/hook`, scope: 'project' });
    expect(stored).not.toHaveProperty('secret');

    const row = page.locator('tr[data-channel="Receiver"]');
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe(`${receiver.url}/hook`);
    await row.getByRole('button', { name: 'Send a test through Receiver' }).click();
    await expect.poll(() => row.getByTestId('test-outcome').textContent()).toBe('Delivered (200)');
    expect(receiver.on('/hook')).toHaveLength(1);
    expect(JSON.parse(receiver.on('/hook')[0]!.body)).toMatchObject({ type: 'alert.test', state: 'test' });
    expect(receiver.on('/hook')[0]!.headers['sightline-signature']).toMatch(/^t=\d+,v1=[0-9a-f]+$/);
    await d.capture('alerts-channels');
  });

  it('creates a "new issue" rule with the server checking its fields, fires it, and lists rules and history as the API answers', async () => {
    await d.open('/alerts');
    await page.getByText('No alert rules yet').waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New alert rule' });
    await dialog.getByLabel('Name').fill('New issues');
    // A threshold rule without its threshold: the server's message names the field, told by its label.
    await dialog.getByLabel('Kind').selectOption('issue_frequency');
    await d.watch.allowing([/422.*\/api\/alert-rules/], async () => {
      await dialog.getByRole('button', { name: 'Create rule' }).click();
      await expect
        .poll(() => dialog.getByRole('alert').textContent())
        .toBe('"Occurrences at least" must be an integer from 1 to 1000000000');
    });
    await d.capture('alerts-rule-dialog');
    await dialog.getByLabel('Kind').selectOption('new_issue');
    await dialog.getByLabel('Receiver').check();
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = page.locator('tr[data-rule="New issues"]');
    await row.waitFor();
    const [rule] = await rules();
    expect(rule).toMatchObject({
      name: 'New issues',
      kind: 'new_issue',
      enabled: true,
      state: 'ok',
      channelIds: [(await channels())[0]!.id],
    });
    expect(await row.locator('[data-rule-state]').textContent()).toBe('ok');
    expect(await row.locator('[data-column="channels"]').textContent()).toBe('Receiver');
    expect(await row.getByRole('switch').getAttribute('aria-checked')).toBe('true');

    // A new exception through the real ingest route, then one evaluation of the rules.
    const batch = demoBatch({ calls: 5, random: seededRandom(99) });
    stackTracesOf(batch).push(failure('AlertsSuiteError'));
    await sendDemoBatch(d.base, d.projectToken, batch);
    await eventually(async () => (await issues({ search: 'AlertsSuiteError' })).total).toBe(1);
    await d.service.services.alerts.runOnce();
    await d.service.services.alerts.deliverDue();
    await eventually(() => receiver.on('/hook').length).toBe(2);
    expect(JSON.parse(receiver.on('/hook')[1]!.body)).toMatchObject({
      type: 'alert.firing',
      kind: 'new_issue',
      ruleName: 'New issues',
    });

    const [fired] = await rules();
    expect(fired!.lastNotifiedAt).not.toBeNull();
    await page.reload();
    await row.waitFor();
    expect(await row.locator('[data-rule-state]').textContent()).toBe(fired!.state);
    expect(await row.locator('time').getAttribute('datetime')).toBe(fired!.lastNotifiedAt);

    // Snooze from the row: the API keeps the time, the row says so.
    await row.getByRole('button', { name: 'Snooze New issues' }).click();
    await page.getByRole('menuitem', { name: 'For 24 hours' }).click();
    await row.getByTestId('snoozed').waitFor();
    expect(Date.parse((await rules())[0]!.snoozedUntil!)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    await d.capture('alerts-rules');

    await page.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => search().get('tab')).toBe('history');
    const expected = await events();
    expect(expected.map((event) => [event.state, event.outcome, event.responseStatus])).toEqual([
      ['firing', 'delivered', 200],
      ['test', 'delivered', 200],
    ]);
    const historyRows = page.locator('table[aria-label="Alert history"] tbody tr');
    await expect.poll(() => historyRows.count()).toBe(expected.length);
    expect(await historyRows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-event'))))).toEqual(
      expected.map((event) => event.id),
    );
    expect(await historyRows.first().locator('td').nth(1).textContent()).toBe('New issues');
    expect(await historyRows.first().locator('[data-outcome]').textContent()).toBe('delivered');
    expect(await historyRows.first().locator('[data-column="response"]').textContent()).toBe('200');
    expect(await historyRows.nth(1).locator('td').nth(1).textContent()).toBe('Test notification');
    await d.capture('alerts-history');
  });

  it('acknowledges and resolves the firing rule from its row, and its history says who did what', async () => {
    await d.open('/alerts');
    const row = page.locator('tr[data-rule="New issues"]');
    await row.waitFor();
    // A new-issue rule stays firing until someone resolves it (before: back to ok a minute later).
    await d.service.services.alerts.runOnce();
    await page.reload();
    await row.waitFor();
    expect(await row.locator('[data-rule-state]').textContent()).toBe('firing');

    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await row.getByTestId('acknowledged').waitFor();
    const [acknowledged] = await rules();
    expect(acknowledged).toMatchObject({
      state: 'firing',
      acknowledgedBy: { id: expect.any(String), name: expect.any(String) },
    });
    expect(await row.getByTestId('acknowledged').textContent()).toMatch(
      new RegExp(`^acknowledged by ${acknowledged!.acknowledgedBy!.name} · \\S`),
    );
    expect(await row.locator('time').first().getAttribute('datetime')).toBe(acknowledged!.acknowledgedAt);
    expect(await row.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    await d.capture('alerts-rule-acknowledged');

    await row.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => row.locator('[data-rule-state]').textContent()).toBe('resolved');
    expect(await row.getByTestId('acknowledged').count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    expect((await rules())[0]).toMatchObject({ state: 'resolved', acknowledgedBy: null, acknowledgedAt: null });

    await row.getByRole('link', { name: 'History of New issues' }).click();
    await page.getByRole('heading', { name: 'History of New issues' }).waitFor();
    expect([search().get('tab'), search().get('rule')]).toEqual(['history', acknowledged!.id]);
    const expected = (await events()).filter((event) => event.ruleId === acknowledged!.id);
    expect(expected.map((event) => [event.action, event.actorName, event.state])).toEqual([
      ['resolved', acknowledged!.acknowledgedBy!.name, 'resolved'],
      ['acknowledged', acknowledged!.acknowledgedBy!.name, 'firing'],
      [null, null, 'firing'],
    ]);
    const historyRows = page.locator('table[aria-label="Alert history"] tbody tr');
    await expect.poll(() => historyRows.count()).toBe(expected.length);
    expect(await historyRows.locator('[data-action]').allTextContents()).toEqual(['resolved by hand', 'acknowledged']);
    expect(await historyRows.locator('[data-column="actor"]').allTextContents()).toEqual(
      expected.slice(0, 2).map((event) => `by ${event.actorName}`),
    );
    expect(await historyRows.nth(2).locator('[data-outcome]').textContent()).toBe('delivered');
    // The title names the rule; no column repeats it on every row.
    const headers = () => page.locator('table[aria-label="Alert history"] thead th').allTextContents();
    expect(await headers()).not.toContain('Rule');
    await d.capture('alerts-rule-history');
    // Back to every rule: the test send is listed again, each row with its rule.
    await page.getByRole('link', { name: 'Every rule' }).click();
    await expect.poll(() => historyRows.count()).toBe((await events()).length);
    await expect.poll(() => search().get('rule')).toBeNull();
    expect(await headers()).toContain('Rule');
  });

  it("shows each rule's condition in the rules table, the long ones cut with the whole in a tooltip", async () => {
    const rule = (name: string, kind: string, params: object) =>
      post<AlertRule>('/api/alert-rules', { name, kind, params, channelIds: [], enabled: true, cooldownSeconds: 0 });
    await rule('Slow orders', 'endpoint_latency', {
      percentile: 'p95',
      thresholdMs: 500,
      windowMinutes: 5,
      endpoint: 'GET /api/orders',
    });
    await rule('Slow anything', 'endpoint_latency', { percentile: 'p99', thresholdMs: 2000, windowMinutes: 15 });
    // 14 is no level's first number (WARN is 13): a rule stored so keeps it, shown as WARN2.
    await rule('Declined cards', 'log_match', {
      search: 'card declined',
      minSeverity: 14,
      serviceName: 'payments',
      threshold: 3,
      windowMinutes: 10,
    });

    const condition = (name: string) => page.locator(`tr[data-rule="${name}"] [data-column="condition"] [title]`);
    // Before: only the kind, so the two latency rules read alike.
    await d.open('/alerts');
    await condition('Slow orders').waitFor();
    expect(await condition('Slow orders').textContent()).toBe('p95 above 500 ms in 5 min · GET /api/orders');
    expect(await condition('Slow anything').textContent()).toBe('p99 above 2000 ms in 15 min · all endpoints');
    expect(await condition('New issues').textContent()).toBe('Any issue seen for the first time');
    const long =
      'Matching lines at least 3 in 10 min · text “card declined” · severity WARN2 (14) or above · service payments';
    expect(await condition('Declined cards').textContent()).toBe(long);
    // Cut to the cell when long, the whole of it in the tooltip.
    expect(await condition('Declined cards').getAttribute('title')).toBe(long);
    await d.capture('alerts-rule-conditions');
  });

  it("offers log severities by level, keeps a stored number that is no level's first, and stores the number", async () => {
    await d.open('/alerts');

    // Before: a number field "Minimum severity (1–24)".
    await page.getByRole('button', { name: 'Edit Declined cards' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit rule Declined cards' });
    const severity = dialog.getByLabel('Minimum severity');
    expect(await severity.locator('option').allTextContents()).toEqual([
      'Any',
      'TRACE',
      'DEBUG',
      'INFO',
      'WARN',
      'WARN2 (14)',
      'ERROR',
      'FATAL',
    ]);
    expect(await severity.locator('option:checked').textContent()).toBe('WARN2 (14)');
    await d.capture('alerts-log-rule-dialog');
    await severity.selectOption({ label: 'ERROR' });
    await dialog.getByRole('button', { name: 'Save rule' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await rules()).find((stored) => stored.name === 'Declined cards')!.params).toMatchObject({
      minSeverity: 17,
    });
  });

  it('offers reminders for a threshold rule only, stores the choice, shows it under the condition and reminders in the history', async () => {
    await d.open('/alerts');
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New alert rule' });
    // An event rule's news is notified as it comes: no reminders to set.
    expect(await dialog.getByLabel('Kind').inputValue()).toBe('new_issue');
    expect(await dialog.getByLabel('Remind every').count()).toBe(0);
    await dialog.getByLabel('Name').fill('Slow checkout');
    await dialog.getByLabel('Kind').selectOption('endpoint_latency');
    const remind = dialog.getByLabel('Remind every');
    expect(await remind.locator('option').allTextContents()).toEqual(['Never', '1 hour', '4 hours', '24 hours']);
    expect(await remind.locator('option:checked').textContent()).toBe('4 hours');
    await dialog.getByLabel('Above (ms)').fill('800');
    await remind.selectOption({ label: '1 hour' });
    await d.capture('alerts-rule-dialog-reminder');
    // "Enabled" sits as far below the fields as the channels below it (before: it began a grid row
    // with a field label's height of padding, 36 px under the fields against 14 px above Channels).
    const [fields, enabled, channels] = await Promise.all(
      [dialog.locator('form > div').first(), dialog.getByLabel('Enabled'), dialog.locator('fieldset')].map(
        async (locator) => (await locator.boundingBox())!,
      ),
    );
    const above = enabled!.y - (fields!.y + fields!.height);
    const below = channels!.y - (enabled!.y + enabled!.height);
    expect(above).toBeGreaterThan(0);
    expect(Math.abs(above - below)).toBeLessThanOrEqual(1);
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await dialog.waitFor({ state: 'detached' });
    const stored = async () => (await rules()).find((rule) => rule.name === 'Slow checkout')!;
    expect(await stored()).toMatchObject({ kind: 'endpoint_latency', repeatIntervalSeconds: 3600 });

    const reminder = (name: string) => page.locator(`tr[data-rule="${name}"] [data-testid="reminder"]`);
    await expect.poll(() => reminder('Slow checkout').textContent()).toBe('remind every 1 hour');
    // Rules created without the field remind every 4 hours; an event rule shows nothing of it.
    expect(await reminder('Slow orders').textContent()).toBe('remind every 4 hours');
    expect(await reminder('New issues').count()).toBe(0);
    await d.capture('alerts-rules-reminders');

    await page.getByRole('button', { name: 'Edit Slow checkout' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit rule Slow checkout' });
    expect(await edit.getByLabel('Remind every').locator('option:checked').textContent()).toBe('1 hour');
    await edit.getByLabel('Remind every').selectOption({ label: 'Never' });
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await edit.waitFor({ state: 'detached' });
    expect((await stored()).repeatIntervalSeconds).toBeNull();
    await expect.poll(() => reminder('Slow checkout').textContent()).toBe('no reminders');

    // Acknowledging a notified firing tells its channel, and the history says so (not while
    // snoozed: "New issues" was snoozed above, so that snooze goes first).
    const newIssues = page.locator('tr[data-rule="New issues"]');
    await newIssues.getByRole('button', { name: 'Snooze New issues' }).click();
    await page.getByRole('menuitem', { name: 'Stop snoozing' }).click();
    await expect.poll(() => newIssues.getByTestId('snoozed').count()).toBe(0);
    const batch = demoBatch({ calls: 5, random: seededRandom(7) });
    stackTracesOf(batch).push(failure('ReminderSuiteError'));
    await sendDemoBatch(d.base, d.projectToken, batch);
    await eventually(async () => (await issues({ search: 'ReminderSuiteError' })).total).toBe(1);
    // The rule was evaluated by the tests above, maybe less than its minute ago: due now, so this
    // run evaluates it whatever the pace of the machine.
    await d.service.services.meta.query(
      "UPDATE alert_rules SET next_evaluation_at = now() - interval '1 minute' WHERE name = 'New issues'",
    );
    await d.service.services.alerts.runOnce();
    await page.reload();
    await newIssues.getByRole('button', { name: 'Acknowledge' }).click();
    await newIssues.getByTestId('acknowledged').waitFor();
    await d.service.services.alerts.deliverDue();
    const told = (await events()).find((event) => event.notice === 'acknowledged');
    expect(told).toMatchObject({ ruleName: 'New issues', channelName: 'Receiver', outcome: 'delivered' });
    await d.open('/alerts', { tab: 'history' });
    const row = page.locator(`table[aria-label="Alert history"] tr[data-event="${told!.id}"]`);
    await row.waitFor();
    expect(await row.locator('[data-notice]').textContent()).toBe('acknowledgement');
    expect(await row.locator('[data-rule-state]').textContent()).toBe('firing');
    await d.capture('alerts-history-notice');
  });

  it("gives a failed delivery's error its own column, read whole", async () => {
    // A delivery refused by its receiver: the error has its own column, read whole, not cut into the Rule's.
    receiver.answer('/refusing', 500);
    const refusing = await post<AlertChannel>('/api/alert-channels', {
      name: 'Refusing receiver',
      kind: 'webhook',
      url: `${receiver.url}/refusing`,
    });
    await post(`/api/alert-channels/${refusing.id}/test`, {});
    const [failed] = await events();
    expect(failed).toMatchObject({ outcome: 'failed', responseStatus: 500, channelName: 'Refusing receiver' });
    await d.open('/alerts', { tab: 'history' });
    const row = page.locator(`table[aria-label="Alert history"] tr[data-event="${failed!.id}"]`);
    await row.waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe('Test notification');
    const error = row.locator('[data-column="error"]');
    expect(await error.textContent()).toBe(failed!.error);
    expect(
      await error.evaluate(
        (cell: { scrollWidth: number; clientWidth: number }) => cell.scrollWidth <= cell.clientWidth,
      ),
    ).toBe(true);
    expect(
      await page
        .locator(`table[aria-label="Alert history"] tbody tr:not([data-event="${failed!.id}"]) [data-column="error"]`)
        .allTextContents(),
    ).toEqual((await events()).slice(1).map(() => '—'));
    await d.capture('alerts-history-error');
  });

  it('resolves an issue from its page and shows who did it in the activity', async () => {
    const [first] = (await issues()).items;
    await d.open(`/issues/${first!.hash}`);
    const status = page.getByTestId('issue-status');
    await expect.poll(() => status.locator('[data-status]').textContent()).toBe('open');
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await expect.poll(() => status.locator('[data-status]').textContent()).toBe('resolved');
    const activity = page.getByRole('list', { name: 'Issue activity' });
    await expect
      .poll(() => activity.locator('li[data-activity="status"]').first().textContent())
      .toMatch(/resolved it/);
    const answer = await d.api<{
      items: Array<{ kind: string; toStatus: string; user: { name: string | null } | null }>;
    }>(`/api/exception-stack-traces/${first!.hash}/activity?projectId=${d.projectId}`);
    expect(answer.items[0]).toMatchObject({ kind: 'status', toStatus: 'resolved' });
    expect(await activity.locator('li').first().textContent()).toContain(answer.items[0]!.user!.name!);
    expect(await activity.locator('li').count()).toBe(answer.items.length);
    await expect.poll(() => page.getByRole('button', { name: 'Reopen' }).count()).toBe(1);
    await d.capture('issue-resolved');
  });

  it('bulk-ignores two issues from the list and filters by status', async () => {
    const open = await issues({ status: 'open' });
    await d.open('/issues');
    const rows = page.locator('table[aria-label="Issues"] tbody tr');
    await expect.poll(() => rows.count()).toBe(open.items.length);
    const chosen = open.items.slice(0, 2).map((item) => item.hash);
    for (const hash of chosen) await page.locator(`tr[data-hash="${hash}"] input[type="checkbox"]`).check();
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('2 issues selected');
    await page.mouse.move(0, 0);
    await d.capture('issues-selected');
    await page.getByRole('toolbar', { name: 'Selected issues' }).getByRole('button', { name: 'Ignore' }).click();
    await expect.poll(() => rows.count()).toBe(open.items.length - 2);
    for (const hash of chosen) expect(await page.locator(`tr[data-hash="${hash}"]`).count()).toBe(0);

    await page.getByRole('radiogroup', { name: 'Status' }).getByRole('radio', { name: 'Ignored' }).click();
    await expect.poll(() => search().get('status')).toBe('ignored');
    const ignored = await issues({ status: 'ignored' });
    expect(ignored.items.map((item) => item.hash).sort()).toEqual([...chosen].sort());
    await expect
      .poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-hash')).sort()))
      .toEqual([...chosen].sort());
    expect(await rows.locator('[data-status]').allTextContents()).toEqual(['ignored', 'ignored']);
    await d.capture('issues-ignored');

    await page.getByRole('radiogroup', { name: 'Status' }).getByRole('radio', { name: 'Resolved' }).click();
    await expect.poll(() => rows.count()).toBe((await issues({ status: 'resolved' })).items.length);
    await page.getByRole('radiogroup', { name: 'Status' }).getByRole('radio', { name: 'All' }).click();
    await expect.poll(() => search().get('status')).toBe('all');
    await expect.poll(() => rows.count()).toBe((await issues()).items.length);
  });
});
