/**
 * Where an invitee lands, in Chromium against a real service: after accepting an invitation (signed
 * in, with a project of their own they used last) and after registering through one, the dashboard
 * opens the inviting organization's first project — not their own empty one with its Connect
 * button. An organization without projects gets a page that says so.
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

const PASSWORD = 'correct horse battery staple';

/** The parts of DOM nodes and ranges a test reads in the page (the test's TypeScript has no DOM types). */
interface TextNode {
  nodeType: number;
  childNodes: ArrayLike<TextNode>;
  ownerDocument: {
    createRange(): { selectNodeContents(node: TextNode): void; getClientRects(): { length: number } };
  };
}
describe('landing after an invitation', () => {
  let service: ListeningTestService;
  let browser: LaunchedBrowser;
  let page: Page;
  let watch: ReturnType<typeof watchProblems>;
  let ada: Awaited<ReturnType<typeof registerUser>>;

  const call = <T>(token: string, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    callOk<T>(service.app, token, method, url, payload);
  const invite = async (token: string, organizationId: string, email: string, role = 'write') => {
    const { acceptUrl } = await call<{ acceptUrl: string }>(
      token,
      'POST',
      `/api/organizations/${organizationId}/invitations`,
      { email, role },
    );
    const url = new URL(acceptUrl);
    return url.pathname + url.search;
  };
  /** Signs the page in as `token` (or out), keeping the rest of localStorage (the last project). */
  const signInAs = async (token: string | null) => {
    await page.goto('/login');
    await page.evaluate(
      token === null
        ? "localStorage.removeItem('sightline.session')"
        : `localStorage.setItem('sightline.session', ${JSON.stringify(token)})`,
    );
  };

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    service = await listeningTestService();
    browser = await launchChromium({ baseURL: service.url });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    watch = watchProblems(page);
    ada = await registerUser(service.app, { name: 'Ada' });
    await call(ada.token, 'PUT', `/api/projects?projectId=${ada.project.id}`, { name: 'Analytical Engine' });
  });

  afterEach(() => {
    expect(watch.problems).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('a signed-in person who last used their own project lands on the inviting organization’s project', async () => {
    const bob = await registerUser(service.app, { name: 'Bob' });
    await signInAs(bob.token);
    // Bob's own new project, used last: its overview offers to connect it.
    await page.goto(`/?projectId=${bob.project.id}`);
    await page.getByRole('heading', { name: 'My first project' }).waitFor();

    await page.goto(await invite(ada.token, ada.organization.id, bob.user.email));
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('projectId') === ada.project.id);
    await page.getByRole('heading', { name: 'Analytical Engine' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    // And it is the current project from now on (the one a bare URL opens).
    await page.goto('/');
    await page.waitForURL((url) => url.searchParams.get('projectId') === ada.project.id);
    await page.getByRole('heading', { name: 'Analytical Engine' }).waitFor();
  });

  it('a person who registers through the invitation (from the sign-in page) lands on its project', async () => {
    const email = `grace-${process.pid}@example.com`;
    const link = await invite(ada.token, ada.organization.id, email);
    await signInAs(null);
    await page.goto(link);
    await page.getByRole('link', { name: 'Sign in to accept' }).click();
    await page.waitForURL(/\/login\?redirect=/);
    // "Create an account" on the sign-in page keeps the invitation: registering joins through it.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/register\?invitation=/);
    await page.getByLabel('Name', { exact: true }).fill('Grace');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('projectId') === ada.project.id);
    await page.getByRole('heading', { name: 'Analytical Engine' }).waitFor();
    await captureLightAndDark(page, 'invitation-landed');
  });

  it('an organization without projects says so to whoever joins it, registered or not', async () => {
    const carol = await registerUser(service.app, { name: 'Carol' });
    await call(carol.token, 'DELETE', `/api/projects?projectId=${carol.project.id}`);
    const dan = await registerUser(service.app, { name: 'Dan' });
    await signInAs(dan.token);
    await page.goto(`/?projectId=${dan.project.id}`);
    await page.getByRole('heading', { name: 'My first project' }).waitFor();
    await page.goto(await invite(carol.token, carol.organization.id, dan.user.email, 'read-only'));
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByText('has no projects yet').waitFor();
    await page.getByText('A member with the write or admin role creates them').waitFor();
    expect(new URL(page.url()).pathname).toBe('/accept-invitation');
    await captureLightAndDark(page, 'invitation-no-projects');
    await page.getByRole('link', { name: 'Open your other projects' }).click();
    await page.getByRole('heading', { name: 'My first project' }).waitFor();

    await signInAs(null);
    const email = `eve-${process.pid}@example.com`;
    await page.goto(await invite(carol.token, carol.organization.id, email));
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Eve');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.getByText('has no projects yet').waitFor();
    await page.getByText('With your role you can create its first one').waitFor();
    expect(await page.getByRole('link', { name: 'Open your other projects' }).count()).toBe(0);
    // The landing leads on; home says the same, rather than to ask for an invitation she has just accepted.
    await page.getByRole('link', { name: 'Open the dashboard' }).click();
    await page.getByText('Your organization has no project yet: create one below.').waitFor();
  });

  it('counts pending invitations in the seats figure, as the seat limit does', async () => {
    const zed = await registerUser(service.app, { name: 'Zed' });
    for (const name of ['one', 'two', 'three'])
      await invite(zed.token, zed.organization.id, `${name}-${process.pid}@example.com`);
    // Accepted and revoked invitations hold no seat.
    const kim = await registerUser(service.app, { name: 'Kim' });
    const accepted = new URL(await invite(zed.token, zed.organization.id, kim.user.email), service.url);
    await call(kim.token, 'POST', '/api/invitations/accept', { token: accepted.searchParams.get('token') });
    const revoked = await call<{ id: string }>(
      zed.token,
      'POST',
      `/api/organizations/${zed.organization.id}/invitations`,
      {
        email: `revoked-${process.pid}@example.com`,
        role: 'write',
      },
    );
    await call(zed.token, 'DELETE', `/api/organizations/${zed.organization.id}/invitations/${revoked.id}`);

    await signInAs(zed.token);
    await page.goto(`/settings/organization?projectId=${zed.project.id}`);
    await expect
      .poll(() => page.getByRole('meter', { name: 'Seats' }).getAttribute('aria-valuetext'))
      .toBe('5 of 10,000 (3 pending invitations)');
    await page.getByText('5 of 10,000 (3 pending invitations)').waitFor();
    await page.getByRole('meter', { name: 'Seats' }).scrollIntoViewIfNeeded();
    await captureLightAndDark(page, 'organization-seats-pending');
  });
  it('a read-only member creates a project in the organization where they may, and leaves the other one from its settings', async () => {
    const lin = await registerUser(service.app, { name: 'Lin' });
    const link = new URL(await invite(ada.token, ada.organization.id, lin.user.email, 'read-only'), service.url);
    await call(lin.token, 'POST', '/api/invitations/accept', { token: link.searchParams.get('token') });
    await signInAs(lin.token);

    // From Ada's project, where Lin reads only, "Create project" makes it in Lin's own organization
    // (before: the dialog sent the current project's organization and the service answered 403).
    await page.goto(`/?projectId=${ada.project.id}`);
    await page.getByRole('button', { name: /^Switch project: Analytical Engine/ }).click();
    await page.getByRole('menuitem', { name: 'Create project' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Lins service');
    await page.getByRole('dialog', { name: 'Create project' }).getByRole('button', { name: 'Create project' }).click();
    await page.getByText('Project Lins service created').waitFor();
    const listed = await service.app.inject({
      method: 'GET',
      url: '/api/projects',
      headers: { authorization: `Bearer ${lin.token}` },
    });
    const created = (listed.json() as { projects: Array<{ name: string; organizationId: string }> }).projects.find(
      (p) => p.name === 'Lins service',
    );
    expect(created?.organizationId).toBe(lin.organization.id);

    // Leaving: any member may, behind a confirmation; the dashboard then opens a project Lin still has
    // (before: nothing on the page let a member who is not an admin leave).
    await page.goto(`/settings/organization?projectId=${ada.project.id}`);
    // Each role on one line (before: "Read-only" broke at its hyphen, the e-mail column taking the room).
    const roleCell = page
      .getByRole('row', { name: /Lin.*\(you\)/ })
      .getByRole('cell')
      .nth(2);
    await roleCell.getByText('Read-only').waitFor();
    // Lines of text in the cell: the rectangles of its text nodes (the test's TypeScript has no DOM types).
    const lines = await roleCell.evaluate((cell: TextNode) => {
      let count = 0;
      const walk = (node: TextNode) => {
        if (node.nodeType === 3) {
          const range = node.ownerDocument.createRange();
          range.selectNodeContents(node);
          count += range.getClientRects().length;
        } else for (const child of Array.from(node.childNodes)) walk(child);
      };
      walk(cell);
      return count;
    });
    expect(lines).toBe(1);
    await page.getByRole('button', { name: 'Leave organization…' }).click();
    await page.getByRole('dialog', { name: /^Leave / }).waitFor();
    await captureLightAndDark(page, 'organization-leave-confirm');
    await page.getByRole('button', { name: 'Leave organization', exact: true }).click();
    await page.getByText(/^You left /).waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('projectId')).not.toBe(ada.project.id);
    // Left on purpose: no "You have no access to project …" notice for the organization's project.
    await page.getByRole('heading', { name: /My first project|Lins service/ }).waitFor();
    expect(await page.getByText(/You have no access to project/).count()).toBe(0);
    await page.getByRole('button', { name: /^Switch project/ }).click();
    expect(await page.getByRole('menuitem', { name: 'Analytical Engine' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    const members = await service.app.inject({
      method: 'GET',
      url: `/api/organizations/${ada.organization.id}/members`,
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect((members.json() as { members: Array<{ userId: string }> }).members.map((m) => m.userId)).not.toContain(
      lin.user.id,
    );

    // The only admin cannot leave: the button is off and the card says what to do first.
    await signInAs(ada.token);
    await page.goto(`/settings/organization?projectId=${ada.project.id}`);
    await page.getByText('You are its only admin: make another member admin before you leave.').waitFor();
    expect(await page.getByRole('button', { name: 'Leave organization…' }).isDisabled()).toBe(true);
  });

  it('a person removed from their only organization is told they belong to none, and how to join one', async () => {
    const email = `mo-${process.pid}@example.com`;
    const link = new URL(await invite(ada.token, ada.organization.id, email, 'read-only'), service.url);
    const registered = await service.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '10.250.0.1',
      payload: { email, password: PASSWORD, name: 'Mo', invitationToken: link.searchParams.get('token') },
    });
    const mo = registered.json() as { token: string; user: { id: string } };
    await call(ada.token, 'DELETE', `/api/organizations/${ada.organization.id}/members/${mo.user.id}`);
    await signInAs(mo.token);
    await page.goto('/');
    // Before: "Your organization has no project yet", of an organization Mo no longer has.
    await page.getByText('You are not a member of any organization: ask an admin of one for an invitation').waitFor();
    // The sidebar lists what still applies (before: every project page, each of which could only fail).
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    await sidebar.getByTestId('no-project-hint').waitFor();
    expect((await sidebar.getByRole('link').allTextContents()).map((text) => text.trim())).toEqual(['Home', 'Account']);
    await captureLightAndDark(page, 'home-no-organization');
  });
});
