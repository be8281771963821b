/**
 * Organizations without a project, in Chromium against a real service: deleting an organization's
 * last project lands on that organization's page, which offers a first project again; its
 * settings, members and plan stay reachable (sidebar, switcher); "New organization" starts
 * another one, shown at once with the switcher between the two; and a person in no organization
 * starts one from home.
 *
 * Needs `npm run build -w web` first (the service serves web/dist).
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  captureLightAndDark,
  launchChromium,
  SCREENSHOTS,
  watchProblems,
  type LaunchedBrowser,
} from '../support/browser.js';
import { callOk, listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';

interface Me {
  organizations: Array<{ id: string; name: string; role: string }>;
}

describe('organizations without a project', () => {
  let service: ListeningTestService;
  let browser: LaunchedBrowser;
  let page: Page;
  let watch: ReturnType<typeof watchProblems>;
  let ada: Awaited<ReturnType<typeof registerUser>>;

  const call = <T>(token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    callOk<T>(service.app, token, method, url, payload);
  const signInAs = async (token: string) => {
    await page.goto('/login');
    await page.evaluate(`localStorage.setItem('sightline.session', ${JSON.stringify(token)})`);
  };
  const search = () => new URL(page.url()).searchParams;
  const sidebarLinks = async () =>
    (await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).map((text) =>
      text.trim(),
    );

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    service = await listeningTestService();
    browser = await launchChromium({ baseURL: service.url });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    watch = watchProblems(page);
    ada = await registerUser(service.app, { name: 'Ada' });
  });

  afterEach(() => {
    expect(watch.problems).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('deleting the last project lands on its organization, which offers the first project again', async () => {
    await signInAs(ada.token);
    await page.goto(`/settings/project?projectId=${ada.project.id}`);
    await page.getByRole('button', { name: 'Delete project…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete My first project?' });
    await dialog.getByLabel('Project name').fill('My first project');
    await dialog.getByRole('button', { name: 'Delete project' }).click();
    await page.getByText('Project My first project deleted').waitFor();
    // Before: home's "Welcome" and nothing else; the Organization page was not listed and showed nothing.
    await page.waitForURL((url) => url.pathname === '/settings/organization');
    expect(search().get('organization')).toBe(ada.organization.id);
    await page.getByText("Ada's organization · your role: Admin").waitFor();
    await page.getByTestId('first-project').getByRole('button', { name: 'Create project' }).waitFor();
    await page.getByRole('table', { name: 'Members' }).getByText(ada.user.email).waitFor();
    await page.getByRole('meter', { name: 'Projects' }).waitFor();
    // The sidebar keeps the Organization page and leaves the project pages out.
    expect(await sidebarLinks()).toEqual(['Home', 'Organization', 'Account']);
    // No telemetry page to apply a time range to: no picker (before: "Last 24 hours" in the header).
    expect(await page.getByRole('button', { name: /^Time range:/ }).count()).toBe(0);
    await captureLightAndDark(page, 'organization-no-project');

    // Home says the same, with the organization's page and its first project one click away.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await page.getByText('Your organization has no project yet: create one below.').waitFor();
    await page.getByRole('button', { name: /^Create project in / }).waitFor();
    await captureLightAndDark(page, 'home-no-project');
    await page.getByRole('link', { name: /^Organization settings of / }).click();
    await page.waitForURL((url) => url.searchParams.get('organization') === ada.organization.id);
  });

  it('starts a second organization, switches between the two, and creates the first project of the new one', async () => {
    await page.getByRole('button', { name: 'New organization' }).click();
    const dialog = page.getByRole('dialog', { name: 'New organization' });
    await dialog.getByLabel('Name').fill('Second shop');
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await page.getByText('Organization Second shop created').waitFor();
    const me = await call<Me>(ada.token, 'GET', '/api/me');
    const second = me.organizations.find((o) => o.name === 'Second shop')!;
    expect(second.role).toBe('admin');
    await page.waitForURL((url) => url.searchParams.get('organization') === second.id);
    await page.getByText('Second shop · your role: Admin').waitFor();
    const switcher = page.getByLabel('Your organizations');
    expect(await switcher.locator('option').allTextContents()).toEqual([
      `${me.organizations[0]!.name} (Admin)`,
      'Second shop (Admin)',
    ]);
    await page.getByTestId('first-project').waitFor();
    await captureLightAndDark(page, 'organization-switcher');

    // Switching is in the URL (back, reload and a pasted link show the same organization).
    await switcher.selectOption(ada.organization.id);
    await page.waitForURL((url) => url.searchParams.get('organization') === ada.organization.id);
    await page.getByText(`${me.organizations[0]!.name} · your role: Admin`).waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('organization') === second.id);
    await page.reload();
    await page.getByText('Second shop · your role: Admin').waitFor();

    // Its first project, in this organization, from the organization's page (no project to name).
    await page.getByTestId('first-project').getByRole('button', { name: 'Create project' }).click();
    const create = page.getByRole('dialog', { name: 'Create project' });
    expect(await create.getByLabel('Organization').inputValue()).toBe(second.id);
    await create.getByLabel('Name').fill('Storefront');
    await create.getByRole('button', { name: 'Create project' }).click();
    await page.getByText('Project Storefront created').waitFor();
    await page.waitForURL((url) => url.pathname === '/connection');
    const { projects } = await call<{ projects: Array<{ id: string; name: string; organizationId: string }> }>(
      ada.token,
      'GET',
      '/api/projects',
    );
    expect(projects.map((p) => [p.name, p.organizationId])).toEqual([['Storefront', second.id]]);
    expect(search().get('projectId')).toBe(projects[0]!.id);
    // With a project again, every page is listed.
    await expect.poll(sidebarLinks).toContain('Issues');
  });

  it('an unknown organization in the URL says so and shows one of the person’s', async () => {
    await page.goto('/settings/organization?organization=00000000-0000-4000-8000-000000000000');
    await page
      .getByText('You are not a member of organization 00000000-0000-4000-8000-000000000000 (or it does not exist)')
      .waitFor();
  });

  it('a person in no organization starts one from home and lands on its page', async () => {
    const bo = await registerUser(service.app, { name: 'Bo' });
    await call(bo.token, 'DELETE', `/api/projects?projectId=${bo.project.id}`);
    // The last admin cannot leave: Cy becomes admin, then Bo leaves and is in no organization.
    const cy = await registerUser(service.app, { name: 'Cy' });
    const invitation = await call<{ token: string }>(
      bo.token,
      'POST',
      `/api/organizations/${bo.organization.id}/invitations`,
      {
        email: cy.user.email,
        role: 'admin',
      },
    );
    await call(cy.token, 'POST', '/api/invitations/accept', { token: invitation.token });
    await call(bo.token, 'DELETE', `/api/organizations/${bo.organization.id}/members/${bo.user.id}`);
    await signInAs(bo.token);
    await page.goto('/');
    await page.getByText(/You are not a member of any organization: .*, or start one of your own\./).waitFor();
    expect(await sidebarLinks()).toEqual(['Home', 'Account']);
    await page.getByRole('button', { name: 'New organization' }).click();
    const dialog = page.getByRole('dialog', { name: 'New organization' });
    await dialog.getByLabel('Name').fill('Bo & Co');
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/organization' && url.searchParams.has('organization'));
    await page.getByText('Bo & Co · your role: Admin').waitFor();
    await page.getByTestId('first-project').getByRole('button', { name: 'Create project' }).waitFor();
    expect(await sidebarLinks()).toEqual(['Home', 'Organization', 'Account']);
  });
});
