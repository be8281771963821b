/**
 * What the dashboard says of telemetry older than what is kept, in Chromium against a real service
 * whose default plan keeps 2 days (hot 1 + warm 1) and whose "long" plan keeps 90, within the
 * sessions table's 30 days. Reads answer nothing older (src/api/telemetry/conventions.ts), so a
 * page that links to such a session says so, with where a plan that keeps more is, instead of
 * offering a link to a "not found" or saying the session never arrived; a project whose every
 * event is past its plan's retention is not "waiting for the first data".
 *
 * Old rows are placed as retention-reads.test.ts places them: reported through the real ingest
 * route with old timestamps (the retention job does not run here).
 *
 * Needs `npm run build -w web` first (the service serves web/dist).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PlanCatalogue, PlanLimits } from '../../src/core/plans.js';
import { writePlansFile } from '../support/access.js';
import { callOk, reportFrame } from '../support/service.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';

const DAY_MS = 24 * 3600 * 1000;
const MS = 1_000_000;
const limits = (hot: number): PlanLimits => ({
  projects: 10,
  seats: 10,
  ingest_gb_monthly: 10,
  retention_days_hot: hot,
  retention_days_warm: hot === 1 ? 1 : 0,
  synthetics_checks: 0,
  session_recordings: 10,
});
const plan = (code: string, hot: number) => ({
  code,
  name: code,
  limits: limits(hot),
  currency: 'usd',
  prices: { month: null, year: null },
  stripePrices: {},
});
const CATALOGUE: PlanCatalogue = { defaultPlan: 'short', plans: [plan('short', 1), plan('long', 90)] };

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
/** The reads of the sessions that are gone: the 404s the pages are about. */
const SESSION_GONE = [/HTTP 404: GET .*\/api\/sessions\//, /status of 404 .*\/api\/sessions\//];
const checkoutCall = (id: string, recordedAt: string, statusCode: number) => ({
  id,
  endpoint: 'POST /checkout',
  duration: 20 * MS,
  recordedAt,
  statusCode,
  bodySize: 10,
  clientIP: '198.51.100.1',
});
const stackTrace = (message: string) => `Error: ${message}\ncheckout()\n    /app/checkout.js:42`;

describe('telemetry older than what is kept', () => {
  let d: SignedInDashboard;
  // A session that began 2 days and 30 minutes ago (past the 2 days kept), with an error 10
  // minutes inside the retention: the occurrence is listed, its session is not found.
  const edgeSessionId = randomUUID();
  const edgeErrorAt = ago(2 * DAY_MS - 10 * 60_000);
  // On the plan keeping 90 days: an error 40 days ago in a call, in a session the sessions table
  // no longer keeps (30 days).
  const oldSessionId = randomUUID();
  const oldTraceId = randomUUID();
  const oldErrorAt = ago(40 * DAY_MS);
  let longProjectId: string;
  let staleProjectId: string;

  const post = <T>(url: string, body: object) => callOk<T>(d.service.app, d.session, 'POST', url, body);
  const hashOf = async (projectId: string, range: { fromDate: string; toDate: string }) => {
    const list = await post<{ items: Array<{ hash: string }> }>(
      `/api/exception-stack-traces?projectId=${projectId}`,
      range,
    );
    expect(list.items).toHaveLength(1);
    return list.items[0]!.hash;
  };

  beforeAll(async () => {
    d = await openSignedInDashboard({ env: { PLANS_FILE: writePlansFile(CATALOGUE) } });
    await reportFrame(d.service.app, d.projectToken, {
      sessions: [
        { id: edgeSessionId, startedAt: ago(2 * DAY_MS + 30 * 60_000), attributes: { url: 'https://shop.test/' } },
      ],
      stackTraces: [
        {
          stackTrace: stackTrace('card declined'),
          recordedAt: edgeErrorAt,
          isMessage: false,
          sessionId: edgeSessionId,
        },
      ],
    });

    const organization = await post<{ id: string }>('/api/organizations', { name: 'Long memory' });
    const long = await post<{ id: string; token: string }>('/api/projects', {
      name: 'Archive',
      framework: 'go',
      organizationId: organization.id,
    });
    longProjectId = long.id;
    await d.service.services.meta.query(
      "INSERT INTO subscriptions (organization_id, plan_code, status) VALUES ($1, 'long', 'active')",
      [organization.id],
    );
    await reportFrame(d.service.app, long.token, {
      traces: [checkoutCall(oldTraceId, oldErrorAt, 500)],
      stackTraces: [
        {
          stackTrace: stackTrace('stock gone'),
          recordedAt: oldErrorAt,
          isMessage: false,
          sessionId: oldSessionId,
          traceId: oldTraceId,
        },
      ],
    });

    // A project of the short plan whose only call is 5 days old.
    const stale = await post<{ id: string; token: string }>(`/api/projects?projectId=${d.projectId}`, {
      name: 'Stale',
      framework: 'go',
    });
    staleProjectId = stale.id;
    await reportFrame(d.service.app, stale.token, {
      traces: [checkoutCall(randomUUID(), ago(5 * DAY_MS), 200)],
    });
  });

  afterEach(() => {
    expect(d.watch.problems).toEqual([]);
  });

  afterAll(async () => d?.close());

  it('an occurrence whose session began before the plan keeps: the replay card says so, and no link leads to the missing session', async () => {
    await d.watch.allowing(SESSION_GONE, async () => {
      const { page } = d;
      const hash = await hashOf(d.projectId, { fromDate: ago(3 * DAY_MS), toDate: ago(0) });
      await d.open(`/issues/${hash}`, { range: '7d' });
      const card = page.getByTestId('session-replay-card');
      // Before: "The service never received this session", and an "Open session" link to a 404.
      await card.getByText('This session is older than your plan keeps (2 days)').waitFor();
      expect(await card.getByText('The service never received this session').count()).toBe(0);
      expect(await card.getByRole('link', { name: 'Open session' }).count()).toBe(0);
      expect(await card.getByRole('link', { name: 'Organization page' }).getAttribute('href')).toMatch(
        /^\/settings\/organization/,
      );
      // Neither the occurrence's details nor its row link to the session.
      expect(await page.locator(`a[href^="/sessions/${edgeSessionId}"]`).count()).toBe(0);
      await page.getByLabel('Selected occurrence').getByTestId('session-unopenable').getByText(edgeSessionId).waitFor();
      await d.capture('issue-session-past-plan-retention');
    });
  });

  it('the session page opened at an instant the plan no longer keeps says so; without one, it is not found', async () => {
    await d.watch.allowing(SESSION_GONE, async () => {
      const { page } = d;
      await d.open(`/sessions/${edgeSessionId}`, { at: edgeErrorAt });
      const state = page.getByTestId('not-found');
      // Before: "Session not found", as for a mistyped id.
      await state.getByRole('heading', { name: 'This session is older than your plan keeps (2 days)' }).waitFor();
      await state.getByRole('link', { name: 'Organization page' }).waitFor();
      await d.capture('session-past-plan-retention');

      await d.open(`/sessions/${edgeSessionId}`);
      await state.getByRole('heading', { name: 'Session not found' }).waitFor();
    });
  });

  it('an occurrence older than the sessions table keeps, on a plan keeping more: said, with no link; the trace page offers no replay', async () => {
    await d.watch.allowing(SESSION_GONE, async () => {
      const { page } = d;
      const range = { fromDate: ago(45 * DAY_MS), toDate: ago(20 * DAY_MS) };
      const hash = await hashOf(longProjectId, range);
      await page.goto(
        `/issues/${hash}?${new URLSearchParams({ projectId: longProjectId, from: range.fromDate, to: range.toDate })}`,
      );
      const card = page.getByTestId('session-replay-card');
      await card.getByText('This session is older than sessions are kept (30 days)').waitFor();
      await card.getByText('No plan keeps sessions longer.').waitFor();
      expect(await page.locator(`a[href^="/sessions/${oldSessionId}"]`).count()).toBe(0);
      await d.capture('issue-session-past-table-retention');

      await page.goto(
        `/traces/${oldTraceId}?${new URLSearchParams({ projectId: longProjectId, from: range.fromDate, to: range.toDate })}`,
      );
      // Before: "Watch replay", a link to a session that is gone.
      await page.getByTestId('session-unopenable').getByText(oldSessionId).waitFor();
      expect(await page.getByTestId('session-link').count()).toBe(0);
      await d.capture('trace-session-past-table-retention');
    });
  });

  it('a project whose every event is past its plan keeps: Connection and home say so, not "waiting for the first data"', async () => {
    const { page } = d;
    await page.goto(`/connection?projectId=${staleProjectId}`);
    const status = page.getByRole('status').filter({ hasText: /data/ });
    // Before: "Waiting for the first data…".
    await status.getByText('No data in the last 2 days your plan keeps').waitFor();
    expect(await page.getByText('Waiting for the first data…').count()).toBe(0);
    await d.capture('connection-data-past-retention');

    await page.goto(`/?projectId=${staleProjectId}`);
    await page.getByText('No data in the last 2 days your plan keeps').waitFor();
    await page.getByText('Nothing received lately').waitFor();
    expect(await page.getByText('Send your first data').count()).toBe(0);
    // No range finds data past the retention: home does not suggest a wider one.
    expect(await page.getByText('Pick a wider range above').count()).toBe(0);
    await d.capture('home-data-past-retention');
  });
});
