/**
 * The monthly ingest quota as the dashboard tells it, in Chromium against a real service whose plan
 * allows no ingest at all (`ingest_gb_monthly: 0`): ingest answers 503, and the pages that say
 * whether data arrives (Connection, home) and the organization's usage say that ingest is paused,
 * until when, and where to look — not "Waiting for the first data…".
 *
 * The same plan allows 2 projects and 2 seats: at either limit, the create-project dialog and the
 * invite form say so before they are filled, instead of being refused (422) on submit.
 *
 * Needs `npm run build -w web` first (the service serves web/dist).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PlanCatalogue } from '../../src/core/plans.js';
import { SMALL_CATALOGUE, writePlansFile } from '../support/access.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';

/** The small catalogue, its default plan allowing no ingest this month. */
const NO_INGEST: PlanCatalogue = {
  ...SMALL_CATALOGUE,
  plans: SMALL_CATALOGUE.plans.map((plan, index) =>
    index === 0 ? { ...plan, limits: { ...plan.limits, ingest_gb_monthly: 0 } } : plan,
  ),
};

describe('ingest quota reached', () => {
  let d: SignedInDashboard;

  beforeAll(async () => {
    d = await openSignedInDashboard({ env: { PLANS_FILE: writePlansFile(NO_INGEST) } });
  });

  afterEach(() => {
    expect(d.watch.problems).toEqual([]);
  });

  afterAll(async () => d?.close());

  it('ingest answers 503, and Connection, home and the organization say ingest is paused until the next month', async () => {
    const { page } = d;
    const refused = await d.service.app.inject({
      method: 'POST',
      url: '/api/report',
      headers: { authorization: `Bearer ${d.projectToken}`, 'content-type': 'application/json' },
      payload: {},
    });
    expect(refused.statusCode).toBe(503);

    const now = new Date();
    const nextMonth = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
    );
    // Before: "Waiting for the first data…", as if the application had not been connected yet.
    await d.open('/connection');
    const status = page.getByRole('status').filter({ hasText: 'Ingest is paused' });
    await status.getByText(`refused (503) until ${nextMonth} (UTC)`).waitFor();
    expect(await page.getByText('Waiting for the first data…').count()).toBe(0);
    await d.capture('connection-ingest-paused');

    await d.open('/');
    await page.getByRole('status').filter({ hasText: 'Ingest is paused' }).waitFor();
    await page.getByRole('link', { name: 'Plan and usage' }).click();
    await page.waitForURL(/\/settings\/organization/);
    // Before: "Ingest pauses (503) when the month's decompressed bytes reach the limit", in grey.
    await page
      .getByRole('alert')
      .filter({ hasText: `Ingest is paused: this month's ingest limit is reached` })
      .waitFor();
    await page.getByRole('meter', { name: 'Ingest this month' }).scrollIntoViewIfNeeded();
    await d.capture('organization-ingest-paused');
  });

  it('at the project and seat limits, the create-project dialog and the invite form say so before they are filled', async () => {
    const { page } = d;
    const me = await d.api<{ organizations: Array<{ id: string }> }>('/api/me');
    const organizationId = me.organizations[0]!.id;
    const post = async (url: string, payload: object) => {
      const response = await d.service.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${d.session}` },
        payload,
      });
      expect(response.statusCode, response.body).toBe(201);
    };
    await post(`/api/projects?projectId=${d.projectId}`, { name: 'Second', framework: 'nodejs', organizationId });
    await post(`/api/organizations/${organizationId}/invitations`, { email: 'grace@example.com', role: 'write' });

    // Before: the dialog opened as usual and the 422 came only after the form was filled and sent.
    await d.open('/');
    await page.getByRole('button', { name: /Switch project/ }).click();
    await page.getByRole('menuitem', { name: 'Create project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create project' });
    await dialog
      .getByRole('status')
      .filter({ hasText: 'Project limit reached (2 of 2): delete a project or move to a plan with more.' })
      .waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill('Third');
    expect(await dialog.getByRole('button', { name: 'Create project' }).getAttribute('aria-disabled')).toBe('true');
    await d.capture('create-project-limit');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await d.open('/settings/organization');
    const notice = page.getByRole('status').filter({ hasText: 'Seat limit reached (2 of 2)' });
    await notice.waitFor();
    expect(await notice.textContent()).toBe(
      'Seat limit reached (2 of 2): revoke an invitation, remove a member or move to a plan with more.',
    );
    const inviteButton = page.getByRole('button', { name: 'Invite', exact: true });
    await page.getByLabel('E-mail address').fill('alan@example.com');
    expect(await inviteButton.getAttribute('aria-disabled')).toBe('true');
    await notice.scrollIntoViewIfNeeded();
    await d.capture('organization-seat-limit');
    // Inviting an address already invited renews its invitation and takes no new seat: still possible.
    await page.getByLabel('E-mail address').fill('grace@example.com');
    expect(await inviteButton.getAttribute('aria-disabled')).toBeNull();
  });
});
