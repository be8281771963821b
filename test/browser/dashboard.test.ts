/**
 * The dashboard in a real browser (Debian's Chromium) against a real service on embedded engines,
 * listening on a loopback port and serving the built web/dist: a person registers, lands on the
 * shell, creates a project, switches theme and time range, uses the palette, opens every page of
 * the sidebar, loses their session and signs in again, and signs out. Any console error or
 * failed request fails the suite; every page is screenshotted light and dark into
 * test/browser/screenshots/ (git-ignored) and checked with axe.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  captureLightAndDark,
  launchChromium,
  screenshotWholePage,
  SCREENSHOTS,
  watchProblems,
  type LaunchedBrowser,
} from '../support/browser.js';
import { startOidcProvider, type TestOidcProvider } from '../support/identity-providers.js';
import { linkIn, startMailServer, type TestMailServer } from '../support/mail-server.js';
import { demoBatch, sendDemoBatch } from '../../src/demo/demo-data.js';
import { freeLoopbackPort } from '../support/loopback.js';
import {
  callOk,
  listeningTestService,
  registerUser,
  startTestService,
  type ListeningTestService,
  type TestService,
} from '../support/service.js';

const SIDEBAR = [
  'Home',
  'Issues',
  'Endpoints',
  'Tasks',
  'AI traces',
  'Sessions',
  'Alerts',
  'Logs',
  'Metrics',
  'Dashboards',
  'Connection',
  'Project settings',
  'Organization',
  'Account',
];
const PASSWORD = 'correct horse battery staple';
const EMAIL = `ada-${process.pid}@example.com`;

describe('dashboard in Chromium', () => {
  let service: ListeningTestService;
  let browser: LaunchedBrowser;
  let page: Page;
  let watch: ReturnType<typeof watchProblems>;
  let mail: TestMailServer;

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    mail = await startMailServer();
    // Mail on (password reset, invitation mails) and the Prometheus route on, which shares /metrics with the dashboard's page.
    // A password rule other than the default: the forms must take it from the service.
    service = await listeningTestService({
      SMTP_URL: mail.url,
      METRICS_TOKEN: 'browser-suite-metrics-token',
      PASSWORD_MIN_LENGTH: '12',
    });
    browser = await launchChromium({ baseURL: service.url });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    watch = watchProblems(page);
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await mail?.close();
  });

  const capture = (name: string) => captureLightAndDark(page, name);

  const search = () => new URL(page.url()).searchParams;
  // Expressions evaluated in the page (strings: the test's TypeScript has no DOM types).
  const isDark = () => page.evaluate<boolean>("document.documentElement.classList.contains('dark')");
  const stored = (key: string) => page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(key)})`);

  it('shows the sign-in page to a stranger, with no dead link to register', async () => {
    await page.goto('/');
    await page.waitForURL(/\/login\?redirect=%2F/);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Sightline' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('link', { name: 'Create an account' }).isVisible()).toBe(true);
    await capture('login');
  });

  it('registers a new account and lands on the shell with its first project', async () => {
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/register/);
    await page.getByLabel('Name', { exact: true }).waitFor();
    // The service's minimum (12 here), in the field's rule and its hint.
    const password = page.getByLabel('Password', { exact: true });
    await expect.poll(() => password.getAttribute('minlength')).toBe('12');
    await page.getByText('At least 12 characters; a few words make a good one.').waitFor();
    await capture('register');
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Organization name (optional)').fill('Analytical Engines');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/connection\?projectId=/);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await expect
      .poll(() => page.getByRole('button', { name: /^Switch project: / }).textContent())
      .toContain('Analytical Engines');
  });

  /** The ingest token of the project in the page's URL, as the API answers it to the signed-in person. */
  async function currentProjectToken(): Promise<string> {
    const connection = await service.app.inject({
      method: 'GET',
      url: `/api/projects/connection?projectId=${search().get('projectId')}`,
      headers: { authorization: `Bearer ${await stored('sightline.session')}` },
    });
    return (connection.json() as { token: string }).token;
  }

  it('lands on Connection with the project token, a connection string and snippets that copy', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
    const projectToken = await currentProjectToken();
    await page.getByRole('heading', { name: 'Connection', exact: true, level: 1 }).waitFor();
    await page.getByLabel('project token', { exact: true }).getByText(projectToken).waitFor();
    await page.getByRole('button', { name: 'Copy connection string' }).click();
    await page.getByText('connection string copied').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(
      `${projectToken}@${service.url}/api/report`,
    );
    await page.getByRole('tab', { name: 'Python' }).click();
    await page.getByLabel('Python: Run with the exporter variables').getByText(`Bearer%20${projectToken}`).waitFor();
  });

  it('gives Flutter and iOS snippets that post a native report to this service with the connection string', async () => {
    const projectToken = await currentProjectToken();
    const connectionString = `${projectToken}@${service.url}/api/report`;
    const tabs = await page.getByRole('tablist', { name: 'Frameworks' }).getByRole('tab').allTextContents();
    expect(tabs).toEqual(expect.arrayContaining(['Flutter', 'iOS', 'Native report (any client)']));

    await page.getByRole('tab', { name: 'Flutter' }).click();
    const dart = page.getByRole('region', { name: /^Flutter: lib\/sightline\.dart/ });
    await expect.poll(() => dart.textContent()).toContain(`const connection = '${connectionString}';`);
    const dartCode = (await dart.textContent())!;
    expect(dartCode).toContain("import 'package:http/http.dart' as http;");
    expect(dartCode).toContain("'Content-Encoding': 'gzip'");
    await page.getByRole('region', { name: 'Flutter: lib/main.dart: report uncaught errors' }).waitFor();
    await capture('connection-flutter');

    await page.getByRole('tab', { name: 'iOS' }).click();
    const swift = page.getByRole('region', { name: /^iOS: Sightline\.swift/ });
    await expect.poll(() => swift.textContent()).toContain(`let connection = "${connectionString}"`);
    expect(await swift.textContent()).toContain(
      'request.setValue("Bearer \\(token)", forHTTPHeaderField: "Authorization")',
    );

    // What both send, as they send it (gzip from Dart, plain JSON from Swift), is taken by the service.
    const report = {
      appVersion: '1.0.0',
      serverName: '',
      collectionFrames: [
        {
          stackTraces: [
            {
              stackTrace: 'StateError: Bad state: cart is empty\n#0 main (package:shop/main.dart:3:3)',
              recordedAt: new Date().toISOString().replace('Z', '123Z'),
              isMessage: false,
            },
          ],
          metrics: [],
          traces: [],
        },
      ],
    };
    for (const gzip of [true, false]) {
      const sent = await service.app.inject({
        method: 'POST',
        url: '/api/report',
        headers: {
          authorization: `Bearer ${projectToken}`,
          'content-type': 'application/json',
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        },
        payload: gzip ? zlib.gzipSync(JSON.stringify(report)) : JSON.stringify(report),
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
  });

  it('creates a project from the switcher and moves to it', async () => {
    const before = search().get('projectId');
    await page.getByRole('button', { name: /Switch project/ }).click();
    await page.getByRole('menuitem', { name: 'Create project' }).click();
    await page.getByRole('dialog', { name: 'Create project' }).waitFor();
    await capture('create-project');
    await page.getByLabel('Name', { exact: true }).fill('Checkout API');
    await page.getByLabel('Framework', { exact: true }).selectOption('nodejs');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByText('Project Checkout API created').waitFor();
    await expect.poll(() => search().get('projectId')).not.toBe(before);
    await page.getByRole('button', { name: /^Switch project: Checkout API/ }).waitFor();
    // The API agrees: both projects exist in the organization.
    const token = await stored('sightline.session');
    const listed = await service.app.inject({
      method: 'GET',
      url: '/api/projects',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(
      (listed.json() as { projects: Array<{ name: string; id: string }> }).projects.map((p) => p.name).sort(),
    ).toEqual(['Checkout API', 'My first project'].sort());
    // The switcher lists them under the organization.
    await page.getByRole('button', { name: /Switch project/ }).click();
    await page.getByRole('menu').getByText('Analytical Engines').waitFor();
    expect(await page.getByRole('menuitem').allTextContents()).toEqual(
      expect.arrayContaining(['Checkout API', 'Create project']),
    );
    await page.keyboard.press('Escape');
  });

  it('switches theme with the toggle, remembers it, and returns to the system theme from the user menu', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect.poll(() => isDark()).toBe(true);
    await page.reload();
    await page.getByRole('button', { name: 'Switch to light theme' }).waitFor();
    expect(await isDark()).toBe(true);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
    await expect.poll(() => isDark()).toBe(false);
    expect(await stored('sightline.theme')).toBeNull();
  });

  it('keeps the time range in the URL and carries it from page to page', async () => {
    await page.getByRole('button', { name: /^Time range: Last 24 hours$/ }).click();
    await page.getByRole('button', { name: /Last 7 days/ }).click();
    await expect.poll(() => search().get('range')).toBe('7d');
    const projectId = search().get('projectId');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Issues' }).click();
    await page.waitForURL(/\/issues\?/);
    expect(search().get('range')).toBe('7d');
    expect(search().get('projectId')).toBe(projectId);
    await page.getByRole('button', { name: 'Time range: Last 7 days' }).waitFor();
    // A custom range: from and to replace the preset.
    await page.getByRole('button', { name: 'Time range: Last 7 days' }).click();
    await page.getByLabel('From', { exact: true }).fill('2026-01-02T08:00');
    await page.getByLabel('To', { exact: true }).fill('2026-01-03T09:30');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => search().get('from')).not.toBeNull();
    expect(search().get('range')).toBeNull();
    expect(new Date(search().get('to')!).getTime() - new Date(search().get('from')!).getTime()).toBe(25.5 * 3600_000);
    await page.reload();
    await page.getByRole('button', { name: /^Time range: Jan 2/ }).waitFor();
    await page.getByRole('button', { name: /^Time range:/ }).click();
    await page.getByRole('button', { name: /Last 24 hours/ }).click();
    await expect.poll(() => search().get('range')).toBe('24h');
  });

  it('opens the palette with Ctrl-K and jumps to a page', async () => {
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder('Type a page, a project, an issue or an action…').waitFor();
    await capture('palette');
    await page.keyboard.type('Logs');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/logs\?/);
    await page.getByRole('heading', { name: 'Logs' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('opens every page of the sidebar (screenshots light and dark, axe)', async () => {
    for (const label of SIDEBAR) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
      await expect
        .poll(() => page.getByRole('main').getByRole('heading', { level: 1 }).first().textContent())
        .toBeTruthy();
      const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
      await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
      expect(search().get('projectId')).toBeTruthy();
      await capture(`page-${label.toLowerCase().replace(/\s+/g, '-')}`);
    }
  });

  it('creates a personal access token, shows its secret once, and revokes it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByText('No tokens yet.').waitFor();
    await page.getByLabel('Token name').fill('CI deploy');
    await page.getByLabel('Expires after').selectOption('365');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByLabel('new token', { exact: true }).textContent())!.trim();
    expect(secret).toMatch(/^tpp_/);
    const asToken = () =>
      service.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${secret}` } });
    expect((await asToken()).statusCode).toBe(200);
    await page.getByRole('cell', { name: 'CI deploy', exact: true }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'CI deploy' }).textContent()).toContain(secret.slice(0, 12));
    await capture('account-token-created');
    await page.getByRole('button', { name: 'Revoke CI deploy' }).click();
    await page.getByRole('dialog', { name: 'Revoke CI deploy?' }).waitFor();
    await page.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('Token CI deploy revoked').waitFor();
    await page.getByText('No tokens yet.').waitFor();
    expect((await asToken()).statusCode).toBe(401);
  });

  it('approves and denies CLI sign-ins on /device, and says when a code is unknown', async () => {
    const authorize = async () => {
      const answer = await service.app.inject({
        method: 'POST',
        url: '/api/auth/device/authorize',
        payload: { client_id: 'sightline-cli' },
        headers: { 'user-agent': 'sightline-cli/0.1.0 (linux x64)' },
      });
      return answer.json() as { device_code: string; user_code: string; verification_uri_complete: string };
    };
    const poll = (deviceCode: string) =>
      service.app.inject({
        method: 'POST',
        url: '/api/auth/device/token',
        payload: {
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
          device_code: deviceCode,
          client_id: 'sightline-cli',
        },
      });

    // The link the CLI prints, with the code filled in.
    const first = await authorize();
    await page.goto(
      new URL(first.verification_uri_complete).pathname + new URL(first.verification_uri_complete).search,
    );
    await page.getByRole('heading', { name: 'Approve this sign-in?' }).waitFor();
    await page.getByText(first.user_code).waitFor();
    await page.getByText('sightline-cli/0.1.0 (linux x64)').waitFor();
    await capture('device-approve');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Device approved' }).waitFor();
    await capture('device-approved');
    const approved = await poll(first.device_code);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toHaveProperty('access_token');

    // A code typed by hand, then denied.
    const second = await authorize();
    await page.goto('/device');
    // The hint is ordinary text; only the field takes the code's uppercase monospace face.
    await page.getByText('Eight letters, like ABCD-EFGH.').waitFor();
    const faces = await page.evaluate<{ hint: string[]; field: string[]; body: string }>(`(() => {
      const face = (element) => [getComputedStyle(element).textTransform, getComputedStyle(element).fontFamily];
      const hint = [...document.querySelectorAll('main *, body *')].find(
        (element) => element.children.length === 0 && element.textContent === 'Eight letters, like ABCD-EFGH.',
      );
      return { hint: face(hint), field: face(document.getElementById('user-code')), body: getComputedStyle(document.body).fontFamily };
    })()`);
    expect(faces.hint).toEqual(['none', faces.body]);
    expect(faces.field[0]).toBe('uppercase');
    expect(faces.field[1]).not.toBe(faces.body);
    await page.getByLabel('Code').fill(second.user_code.toLowerCase());
    await capture('device-enter-code');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByRole('heading', { name: 'Request denied' }).waitFor();
    const denied = await poll(second.device_code);
    expect(denied.statusCode).toBe(400);
    expect(denied.json()).toMatchObject({ error: 'access_denied' });

    // A code nobody issued (or one already used): the page says so.
    await watch.allowing(
      [/HTTP 404: GET .*\/api\/device\?/, /console error: Failed to load resource: .* 404/],
      async () => {
        let logged = false;
        const onConsole = (message: { text(): string }) =>
          void (/status of 404/.test(message.text()) && (logged = true));
        page.on('console', onConsole);
        await page.goto(`/device?user_code=${first.user_code}`);
        await page.getByRole('heading', { name: 'Code not found' }).waitFor();
        await expect.poll(() => logged).toBe(true);
        page.off('console', onConsole);
      },
    );
    await capture('device-unknown');
  });

  /** A call to the API as the person signed in in the browser. */
  const asBrowser = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    service.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${await stored('sightline.session')}` },
      ...(payload ? { payload } : {}),
    });

  it('project settings: renames, changes the framework, rotates each token behind a confirmation, deletes after typing the name', async () => {
    const all = (await asBrowser('GET', '/api/projects')).json() as { projects: Array<{ id: string; name: string }> };
    const projectId = all.projects.find((p) => p.name === 'Checkout API')!.id;
    await page.goto(`/settings/project?projectId=${projectId}`);
    await page.getByRole('heading', { name: 'Project settings', level: 1 }).waitFor();
    await page.getByLabel('Project name').fill('Checkout service');
    await page.getByLabel('Framework', { exact: true }).selectOption('go');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Project Checkout service saved').waitFor();
    await page.getByRole('button', { name: /^Switch project: .*Checkout service/ }).waitFor();
    const listed = (await asBrowser('GET', '/api/projects')).json() as {
      projects: Array<{ id: string; name: string; framework: string }>;
    };
    expect(listed.projects.find((p) => p.id === projectId)).toMatchObject({
      name: 'Checkout service',
      framework: 'go',
    });

    const connection = async () =>
      (await asBrowser('GET', `/api/projects/connection?projectId=${projectId}`)).json() as Record<string, string>;
    const before = await connection();
    const report = (token: string) =>
      service.app.inject({
        method: 'POST',
        url: '/api/report',
        headers: { authorization: `Bearer ${token}` },
        payload: { collectionFrames: [], appVersion: '', serverName: '' },
      });
    expect((await report(before.token!)).statusCode).toBe(200);
    await capture('project-settings');
    for (const [label, key] of [
      ['ingest token', 'token'],
      ['symbol upload token', 'uploadToken'],
      ['source-map upload token', 'sourceMapToken'],
    ] as const) {
      await page.getByRole('button', { name: `Rotate ${label}` }).click();
      await page.getByRole('dialog', { name: `Rotate the ${label}?` }).waitFor();
      if (key === 'token') await capture('project-rotate-confirm');
      await page.getByRole('button', { name: 'Rotate token' }).click();
      await expect.poll(async () => (await connection())[key]).not.toBe(before[key]);
      await page
        .getByLabel(label, { exact: true })
        .getByText((await connection())[key]!)
        .waitFor();
    }
    expect((await report(before.token!)).statusCode).toBe(401);
    expect((await report((await connection()).token!)).statusCode).toBe(200);

    await page.getByRole('button', { name: 'Delete project…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Checkout service?' });
    await dialog.waitFor();
    await dialog.getByLabel('Project name').fill('Checkout');
    expect(await dialog.getByRole('button', { name: 'Delete project' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Project name').fill('Checkout service');
    await capture('project-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete project' }).click();
    await page.getByText('Project Checkout service deleted').waitFor();
    await expect.poll(() => search().get('projectId')).not.toBe(projectId);
    expect(new URL(page.url()).pathname).toBe('/');
    // Deleted on purpose: no "You have no access to project …" notice (before: shown once the list lost it).
    await page.getByRole('heading', { name: 'My first project' }).waitFor();
    expect(await page.getByText(/You have no access to project/).count()).toBe(0);
    const after = (await asBrowser('GET', '/api/projects')).json() as { projects: Array<{ name: string }> };
    expect(after.projects.map((p) => p.name)).toEqual(['My first project']);
  });

  let readerToken = '';

  it('organization settings: name and time zone, invitations mailed with the link also shown to pass on, members, usage bars, no billing buttons without billing', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Organization', exact: true })
      .click();
    await page.getByLabel('Organization name').fill('Analytical Engines Ltd');
    await page.getByLabel('Time zone').selectOption('Europe/London');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Organization Analytical Engines Ltd saved').waitFor();
    const me = (await asBrowser('GET', '/api/me')).json() as { organizations: Array<{ id: string }> };
    const organizationId = me.organizations[0]!.id;
    expect((await asBrowser('GET', `/api/organizations/${organizationId}/settings`)).json()).toEqual({
      name: 'Analytical Engines Ltd',
      timezone: 'Europe/London',
    });

    // Usage against the plan; the test service has no payment provider, so no checkout or portal.
    await expect
      .poll(() => page.getByRole('meter', { name: 'Projects' }).getAttribute('aria-valuetext'))
      .toMatch(/^1 of [0-9,]+$/);
    await expect
      .poll(() => page.getByRole('meter', { name: 'Seats' }).getAttribute('aria-valuetext'))
      .toMatch(/^1 of [0-9,]+$/);
    expect(await page.getByRole('meter', { name: 'Ingest this month' }).getAttribute('aria-valuetext')).toMatch(
      /^[1-9][0-9]* B of 1.00 PB$/,
    );
    expect(await page.getByRole('button', { name: 'Manage billing' }).count()).toBe(0);
    // The built-in plan keeps what the tables' TTLs keep.
    expect(await page.getByTestId('data-kept').textContent()).toBe(
      '90 days (logs, sessions, recordings, and profiles: 30 days)',
    );

    // Invite: this suite's service mails invitations; the page also shows the link to pass on.
    const invite = async (email: string, role: string) => {
      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Role', { exact: true }).selectOption(role);
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      await page.getByRole('status').getByText(`Invitation mailed to ${email}`).waitFor();
      expect((await mail.next()).to).toMatchObject({ value: [{ address: email }] });
      const link = (await page.getByLabel('invitation link', { exact: true }).textContent())!.trim();
      return new URL(link).searchParams.get('token')!;
    };
    const readerEmail = `grace-${process.pid}@example.com`;
    const readerInvitation = await invite(readerEmail, 'read-only');
    await capture('organization-invited');
    const register = async (email: string, name: string, invitationToken: string) => {
      const answer = await service.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: PASSWORD, name, invitationToken },
      });
      expect(answer.statusCode).toBe(201);
      return (answer.json() as { token: string }).token;
    };
    readerToken = await register(readerEmail, 'Grace Hopper', readerInvitation);
    const tempEmail = `temp-${process.pid}@example.com`;
    await register(tempEmail, 'Temporary Member', await invite(tempEmail, 'write'));
    const revokedEmail = `nobody-${process.pid}@example.com`;
    await invite(revokedEmail, 'write');

    await page.getByRole('button', { name: `Revoke invitation to ${revokedEmail}` }).click();
    await page.getByRole('button', { name: 'Revoke invitation' }).click();
    await page.getByText(`Invitation to ${revokedEmail} revoked`).waitFor();
    await expect.poll(() => page.getByRole('row').filter({ hasText: revokedEmail }).textContent()).toContain('revoked');

    await page.reload();
    await page.getByLabel('Role of Grace Hopper').waitFor();
    // Role change: to write and back to read-only.
    await page.getByLabel('Role of Grace Hopper').selectOption('write');
    await page.getByText('Grace Hopper is now Write').waitFor();
    await page.getByLabel('Role of Grace Hopper').selectOption('read-only');
    await page.getByText('Grace Hopper is now Read-only').waitFor();
    const members = async () =>
      (
        (await asBrowser('GET', `/api/organizations/${organizationId}/members`)).json() as {
          members: Array<{ email: string; role: string }>;
        }
      ).members;
    expect((await members()).find((m) => m.email === readerEmail)?.role).toBe('read-only');
    // Remove.
    await page.getByRole('button', { name: 'Remove Temporary Member' }).click();
    await page.getByRole('dialog', { name: 'Remove Temporary Member?' }).waitFor();
    await page.getByRole('button', { name: 'Remove member' }).click();
    await page.getByText('Temporary Member removed').waitFor();
    expect((await members()).map((m) => m.email).sort()).toEqual([EMAIL, readerEmail].sort());
    // The only admin (Ada herself) has no Remove: the API would refuse it.
    expect(await page.getByRole('button', { name: 'Remove Ada Lovelace' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove Grace Hopper' }).count()).toBe(1);
    await expect
      .poll(() => page.getByRole('meter', { name: 'Seats' }).getAttribute('aria-valuetext'))
      .toMatch(/^2 of [0-9,]+$/);
    await capture('organization-settings');
  });

  it('invites again only after confirming that it replaces the open invitation, and resets the role after each invitation', async () => {
    const email = `twice-${process.pid}@example.com`;
    const role = page.getByLabel('Role', { exact: true });
    const row = () => page.getByRole('table', { name: 'Invitations' }).getByRole('row').filter({ hasText: email });
    await page.getByLabel('E-mail address').fill(email);
    await role.selectOption('admin');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('status').getByText(`Invitation mailed to ${email}`).waitFor();
    expect((await mail.next()).to).toMatchObject({ value: [{ address: email }] });
    // The form is empty again, its role back to the default.
    await expect.poll(() => role.inputValue()).toBe('write');
    expect(await page.getByLabel('E-mail address').inputValue()).toBe('');
    await expect.poll(() => row().textContent()).toContain('Admin');

    // The same address again (other case): asked first; Cancel sends nothing.
    await page.getByLabel('E-mail address').fill(email.toUpperCase());
    await role.selectOption('read-only');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `${email} is already invited as Admin — replace?` });
    await dialog.getByText('Inviting again as Read-only replaces that invitation').waitFor();
    await capture('organization-reinvite-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await row().textContent()).toContain('Admin');

    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await dialog.getByRole('button', { name: 'Replace invitation' }).click();
    await page.getByRole('status').getByText(`Invitation mailed to ${email}`).waitFor();
    expect((await mail.next()).to).toMatchObject({
      value: [{ address: expect.stringMatching(new RegExp(email, 'i')) }],
    });
    await expect.poll(() => row().textContent()).toContain('Read-only');
    expect(await row().count()).toBe(1);
    await expect.poll(() => role.inputValue()).toBe('write');

    // Revoked again, so the seats of the tests after this one are as before.
    await page.getByRole('button', { name: `Revoke invitation to ${email}` }).click();
    await page.getByRole('button', { name: 'Revoke invitation' }).click();
    await page.getByText(`Invitation to ${email} revoked`).waitFor();
  });

  it('a read-only member sees the settings pages without write actions, tokens hidden', async () => {
    const own = await stored('sightline.session');
    const projectId = search().get('projectId');
    await page.evaluate(`localStorage.setItem('sightline.session', ${JSON.stringify(readerToken)})`);
    await page.goto(`/settings/project?projectId=${projectId}`);
    await page.getByText('Hidden: your role in this organization is read-only.').waitFor();
    await page.getByText('My first project in Analytical Engines Ltd').waitFor();
    expect(await page.getByRole('main').getByRole('button').count()).toBe(0);
    expect(await page.getByRole('main').getByRole('textbox').count()).toBe(0);
    expect(await page.getByText('•••••••• hidden').count()).toBe(3);
    await capture('project-settings-read-only');
    // Read-only in every organization: nowhere offers "Create project" (before: the switcher and the
    // palette did, and the dialog was refused with a 403 after the form was filled in).
    await page.getByRole('button', { name: /Switch project/ }).click();
    await page.getByRole('menuitem', { name: 'My first project' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Create project' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await page.getByRole('option', { name: 'Sign out' }).waitFor();
    expect(await page.getByRole('option', { name: 'Create project' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Organization', exact: true })
      .click();
    await page.getByRole('row', { name: /Grace Hopper.*\(you\)/ }).waitFor();
    await page.getByRole('meter', { name: 'Seats' }).waitFor();
    // Leaving is the one thing a read-only member does here (starting an organization of their own
    // is open to anyone while registration is open, as in this suite).
    expect(await page.getByRole('main').getByRole('button').allTextContents()).toEqual([
      'New organization',
      'Leave organization…',
    ]);
    expect(await page.getByRole('main').getByRole('combobox').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Invitations' }).count()).toBe(0);
    await capture('organization-settings-read-only');

    await page.evaluate(`localStorage.setItem('sightline.session', ${JSON.stringify(own)})`);
    await page.goto(`/settings/account?projectId=${projectId}`);
    await page.getByText(EMAIL).waitFor();
  });

  it('changes the password on Account settings: wrong current one and differing repeats said, then changed and back, staying signed in', async () => {
    // The read-only test left this page open with Ada's session.
    const renewed = 'an entirely new horse battery';
    const fill = async (current: string, next: string, repeated: string) => {
      await page.getByLabel('Current password').fill(current);
      await page.getByLabel('New password', { exact: true }).fill(next);
      await page.getByLabel('Repeat the new password').fill(repeated);
    };
    await page.getByRole('heading', { name: 'Password' }).waitFor();
    await expect.poll(() => page.getByLabel('New password', { exact: true }).getAttribute('minlength')).toBe('12');
    await fill(PASSWORD, renewed, 'something else entirely');
    await page.getByRole('alert').getByText('The two new passwords differ.').waitFor();
    expect(await page.getByRole('button', { name: 'Change password' }).isDisabled()).toBe(true);
    await fill('not my password at all', renewed, renewed);
    await watch.allowing(
      [/HTTP 422: POST .*\/api\/auth\/password$/, /console error: Failed to load resource: .* 422/],
      async () => {
        let logged = false;
        const onConsole = (message: { text(): string }) =>
          void (/status of 422/.test(message.text()) && (logged = true));
        page.on('console', onConsole);
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.getByRole('alert').getByText('the current password is not correct').waitFor();
        await expect.poll(() => logged).toBe(true);
        page.off('console', onConsole);
      },
    );
    await capture('account-password-wrong');
    const before = await stored('sightline.session');
    await fill(PASSWORD, renewed, renewed);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed; your other sessions are signed out').waitFor();
    await capture('account-password-changed');
    expect(await stored('sightline.session')).not.toBe(before);
    expect(await page.getByLabel('Current password').inputValue()).toBe('');
    // From an address of its own, clear of the sign-in limit the browser's later sign-ins count against.
    const signIn = (password: string) =>
      service.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '192.0.2.77',
        payload: { email: EMAIL, password },
      });
    expect((await signIn(renewed)).statusCode).toBe(200);
    expect((await signIn(PASSWORD)).statusCode).toBe(401);
    // Back to the suite's password, through the form again, for the tests that follow.
    await fill(renewed, PASSWORD, PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByLabel('Current password').inputValue()).toBe('');
    expect((await signIn(PASSWORD)).statusCode).toBe(200);
    await page.reload();
    await page.getByText(EMAIL).waitFor();
  });

  it('sends a person whose session ended to sign-in, and back to the page afterwards', async () => {
    await page.evaluate("localStorage.setItem('sightline.session', 'expired-or-revoked')");
    const url = `/metrics?projectId=${search().get('projectId')}&range=6h`;
    await watch.allowing([/HTTP 401: GET .*\/api\//, /console error: Failed to load resource: .* 401/], async () => {
      // Every call the shell and the page started with the dead token comes back 401, and Chromium
      // logs each: the step ends once the sign-in page is up, the network is quiet and every 401
      // answer has been logged, so none is reported after the allowance is over.
      let answered = 0;
      let logged = 0;
      const onResponse = (response: { status(): number }) => void (response.status() === 401 && answered++);
      const onConsole = (message: { text(): string }) => void (/status of 401/.test(message.text()) && logged++);
      page.on('response', onResponse);
      page.on('console', onConsole);
      await page.goto(url);
      await page.waitForURL(/\/login\?redirect=/);
      await page.waitForLoadState('networkidle');
      await expect.poll(() => logged === answered && answered >= 1).toBe(true);
      page.off('response', onResponse);
      page.off('console', onConsole);
    });
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(url);
    expect(await stored('sightline.session')).toBeNull();
    // The page says why the person is there, not only that they should sign in.
    await page.getByRole('status').getByText('Your session ended').waitFor();
    await capture('login-session-ended');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/metrics' && u.searchParams.get('range') === '6h');
    await page.getByRole('heading', { name: 'Metrics' }).waitFor();
    // Opened by URL, /metrics is the dashboard's page even with the Prometheus route on; a scraper still gets its text.
    await page.reload();
    await page.getByRole('heading', { name: 'Metrics' }).waitFor();
    const scraped = await fetch(`${service.url}/metrics`, {
      headers: { authorization: 'Bearer browser-suite-metrics-token' },
    });
    expect(await scraped.text()).toMatch(/^# HELP sightline_/m);
  });

  it('signs out from the user menu, which ends the session on the server too', async () => {
    const token = await stored('sightline.session');
    const me = () =>
      service.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me()).statusCode).toBe(200);
    await page.getByRole('button', { name: 'Account menu' }).click();
    const ended = page.waitForResponse(
      (response) => response.url().endsWith('/api/auth/sign-out') && response.status() === 204,
    );
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await ended;
    expect(await stored('sightline.session')).toBeNull();
    // A copy of the token (another tab, the browser's history of storage) no longer works.
    expect((await me()).statusCode).toBe(401);
  });

  /** The path and query of a link the service hands out (PUBLIC_URL is not this test's port). */
  const pathOf = (link: string) => {
    const url = new URL(link);
    return url.pathname + url.search;
  };
  const inviteToAda = async (email: string) => {
    const login = await service.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: EMAIL, password: PASSWORD },
    });
    const ada = login.json() as { token: string };
    const me = await service.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${ada.token}` },
    });
    const organization = (me.json() as { organizations: Array<{ id: string; name: string }> }).organizations.find(
      (o) => o.name === 'Analytical Engines Ltd',
    )!;
    const invited = await service.app.inject({
      method: 'POST',
      url: `/api/organizations/${organization.id}/invitations`,
      headers: { authorization: `Bearer ${ada.token}` },
      payload: { email, role: 'write' },
    });
    expect(invited.statusCode).toBe(201);
    const { acceptUrl } = invited.json() as { acceptUrl: string };
    const mailed = await mail.next();
    expect(mailed.to).toMatchObject({ value: [{ address: email }] });
    expect(linkIn(mailed, acceptUrl.split('?')[0]!).href).toBe(acceptUrl);
    return { acceptUrl, organization };
  };
  const organizationsOf = async (email: string, password: string) => {
    const login = await service.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const me = await service.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${(login.json() as { token: string }).token}` },
    });
    return (me.json() as { organizations: Array<{ name: string; role: string }> }).organizations;
  };
  const signOut = async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    const ended = page.waitForResponse(
      (response) => response.url().endsWith('/api/auth/sign-out') && response.status() === 204,
    );
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await ended;
  };
  // Not the grace-… address the organization settings test made a member.
  const GRACE = `grace-invitee-${process.pid}@example.com`;
  const HOPPER = { email: `hopper-${process.pid}@example.com`, password: 'a different horse battery' };

  it('lets a stranger with an invitation link register into the organization', async () => {
    const { acceptUrl } = await inviteToAda(GRACE);
    expect(pathOf(acceptUrl)).toMatch(/^\/accept-invitation\?token=/);
    await page.goto(pathOf(acceptUrl));
    await page.getByRole('heading', { name: 'Join Analytical Engines Ltd on Sightline' }).waitFor();
    await page.getByText(`${GRACE} was invited with the write role`).waitFor();
    await capture('accept-invitation-signed-out');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/register\?invitation=/);
    await page.getByText('You were invited to Analytical Engines Ltd with the write role').waitFor();
    // The invited address is filled in.
    await expect.poll(() => page.getByLabel('E-mail').inputValue()).toBe(GRACE);
    await capture('register-invitation');
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    expect(await page.getByLabel('Organization name (optional)').count()).toBe(0);
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await organizationsOf(GRACE, PASSWORD)).toEqual([
      expect.objectContaining({ name: 'Analytical Engines Ltd', role: 'write' }),
    ]);
    await signOut();
  });

  it('lets a person with an account sign in from the invitation link and accept it, once', async () => {
    await registerUser(service.app, { ...HOPPER, name: 'Grace B. Hopper' });
    const { acceptUrl } = await inviteToAda(HOPPER.email);
    await page.goto(pathOf(acceptUrl));
    await page.getByRole('link', { name: 'Sign in to accept' }).click();
    await page.waitForURL(/\/login\?redirect=%2Faccept-invitation/);
    await page.getByLabel('E-mail').fill(HOPPER.email);
    await page.getByLabel('Password', { exact: true }).fill(HOPPER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Join Analytical Engines Ltd?' }).waitFor();
    await page.getByText(HOPPER.email).waitFor();
    await capture('accept-invitation');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    // Accepted: the dashboard opens the organization's project (test/browser/invitations.test.ts).
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByText('Analytical Engines Ltd', { exact: true }).first().waitFor();
    expect((await organizationsOf(HOPPER.email, HOPPER.password)).map((o) => o.name)).toContain(
      'Analytical Engines Ltd',
    );

    // The same link again: used up, and the page says so.
    await watch.allowing(
      [/HTTP 404: POST .*\/api\/invitations\/preview/, /console error: Failed to load resource: .* 404/],
      async () => {
        let logged = false;
        const onConsole = (message: { text(): string }) =>
          void (/status of 404/.test(message.text()) && (logged = true));
        page.on('console', onConsole);
        await page.goto(pathOf(acceptUrl));
        await page.getByRole('heading', { name: 'Invitation not found' }).waitFor();
        await expect.poll(() => logged).toBe(true);
        page.off('console', onConsole);
      },
    );
    await capture('accept-invitation-not-found');
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await signOut();
  });

  it('resets a forgotten password by the mailed link and signs in with the new one', async () => {
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/\/forgot-password/);
    await page.getByLabel('E-mail').waitFor();
    await capture('forgot-password');
    await page.getByLabel('E-mail').fill(HOPPER.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    await capture('forgot-password-sent');
    const mailed = await mail.next();
    expect(mailed.to).toMatchObject({ value: [{ address: HOPPER.email }] });
    const link = linkIn(mailed, 'http');
    expect(link.pathname).toBe('/reset-password');
    await page.goto(link.pathname + link.search);
    await page.getByLabel('New password', { exact: true }).waitFor();
    await capture('reset-password');
    const renewed = 'a third horse, battery and staple';
    await page.getByLabel('New password', { exact: true }).fill(renewed);
    await page.getByLabel('Repeat the new password').fill(renewed);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByText('Password changed; you are signed in').waitFor();
    await signOut();
    await page.getByLabel('E-mail').fill(HOPPER.email);
    await page.getByLabel('Password', { exact: true }).fill(renewed);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const old = await service.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: HOPPER.email, password: HOPPER.password },
    });
    expect(old.statusCode).toBe(401);
    await signOut();
  });

  it('saw no console error and no failed request on the way', () => {
    expect(watch.problems).toEqual([]);
  });
}, 300_000);

describe('dashboard in Chromium, without mail', () => {
  let service: ListeningTestService;
  let browser: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    service = await listeningTestService();
    browser = await launchChromium({ baseURL: service.url });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('offers no password reset on sign-in, and /forgot-password says why', async () => {
    const watch = watchProblems(page);
    // The providers answer says whether mail is configured; two frames after it, React has rendered it.
    const providers = page.waitForResponse((response) => response.url().endsWith('/api/auth/providers'));
    await page.goto('/login');
    expect(((await (await providers).json()) as { passwordReset: boolean }).passwordReset).toBe(false);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    expect(await page.getByRole('link', { name: 'Forgot your password?' }).count()).toBe(0);
    await page.goto('/forgot-password');
    await page.getByText('This server cannot send mail').waitFor();
    expect(await page.getByLabel('E-mail').count()).toBe(0);
    await captureLightAndDark(page, 'forgot-password-no-mail');
    expect(watch.problems).toEqual([]);
  });

  it("/auth/callback without a session says the provider's error and its description", async () => {
    const watch = watchProblems(page);
    await page.goto('/auth/callback?error=access_denied&error_description=The+user+declined+consent.');
    await page.getByRole('heading', { name: 'Sign-in did not finish' }).waitFor();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('The sign-in was cancelled or refused at the provider. The user declined consent. (access_denied)');
    await captureLightAndDark(page, 'auth-callback-error');
    // In the fragment too, as an implicit-flow provider sends it.
    await page.goto('/auth/callback#error=server_error');
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('The provider did not sign you in. (server_error)');
    await page.getByRole('link', { name: 'Back to sign-in' }).waitFor();
    expect(watch.problems).toEqual([]);
  });

  it('says so when an invitation or reset link is incomplete, and when a reset link is not valid', async () => {
    const watch = watchProblems(page);
    await page.goto('/accept-invitation');
    await page.getByRole('heading', { name: 'This invitation link is incomplete' }).waitFor();
    await page.goto('/reset-password');
    await page.getByRole('heading', { name: 'This reset link is incomplete' }).waitFor();
    await captureLightAndDark(page, 'reset-password-incomplete');
    await page.goto('/reset-password?token=prt_not-a-real-token');
    await page.getByLabel('New password', { exact: true }).fill('a long enough password');
    await page.getByLabel('Repeat the new password').fill('a long enough passwort');
    await page.getByText('The two passwords differ.').waitFor();
    await page.getByLabel('Repeat the new password').fill('a long enough password');
    await watch.allowing(
      [/HTTP 422: POST .*\/api\/auth\/password-reset\/confirm/, /console error: Failed to load resource: .* 422/],
      async () => {
        let logged = false;
        const onConsole = (message: { text(): string }) =>
          void (/status of 422/.test(message.text()) && (logged = true));
        page.on('console', onConsole);
        await page.getByRole('button', { name: 'Set password and sign in' }).click();
        await page.getByText('this password reset link is invalid or has expired').waitFor();
        await expect.poll(() => logged).toBe(true);
        page.off('console', onConsole);
      },
    );
    await captureLightAndDark(page, 'reset-password-invalid');
    expect(watch.problems).toEqual([]);
  });

  it('shows the invitation link to pass on when the server sends no mail', async () => {
    const watch = watchProblems(page);
    const admin = await registerUser(service.app);
    await page.goto('/login');
    await page.evaluate(`localStorage.setItem('sightline.session', ${JSON.stringify(admin.token)})`);
    await page.goto(`/settings/organization?projectId=${admin.project.id}`);
    const email = `no-mail-invitee-${process.pid}@example.com`;
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('status').getByText('This server sends no mail: pass on this link, shown only now.').waitFor();
    const link = new URL((await page.getByLabel('invitation link', { exact: true }).textContent())!.trim());
    expect(link.pathname).toBe('/accept-invitation');
    const preview = await service.app.inject({
      method: 'POST',
      url: '/api/invitations/preview',
      payload: { token: link.searchParams.get('token') },
    });
    expect(preview.json()).toMatchObject({ email });
    await captureLightAndDark(page, 'organization-invited-no-mail');
    expect(watch.problems).toEqual([]);
  });
}, 120_000);

describe('dashboard in Chromium, joining by invitation through single sign-on', () => {
  let service: TestService;
  let provider: TestOidcProvider;
  let browser: LaunchedBrowser;
  let page: Page;
  // The first account (registration closes after it), made by the first case.
  let admin: Awaited<ReturnType<typeof registerUser>>;
  const asAdmin = <T>(url: string, payload: object) => callOk<T>(service.app, admin.token, 'POST', url, payload);
  const newcomer = {
    sub: 'sso-newcomer',
    email: 'sso-newcomer@example.com',
    email_verified: true,
    name: 'Sso Newcomer',
  };
  /** Signed out, from an invitation link through "Sign in to accept" and the provider's button. */
  const signedOutAt = async (acceptUrl: string) => {
    // Off the dashboard first: its next poll without the session would answer 401.
    await page.goto('/login');
    await page.evaluate('localStorage.clear()');
    await page.goto(new URL(acceptUrl).pathname + new URL(acceptUrl).search);
  };
  const signInFromInvitation = async (acceptUrl: string) => {
    await signedOutAt(acceptUrl);
    await page.getByRole('link', { name: 'Sign in to accept' }).click();
    await page.getByRole('link', { name: 'Continue with Acme SSO' }).click();
  };

  beforeAll(async () => {
    provider = await startOidcProvider();
    // The provider sends the browser back to PUBLIC_URL: the port is chosen before the service starts.
    const port = await freeLoopbackPort();
    const base = `http://127.0.0.1:${port}`;
    service = await startTestService({
      PUBLIC_URL: base,
      REGISTRATION: 'first-user',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'sightline',
      OIDC_NAME: 'Acme SSO',
    });
    await service.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium({ baseURL: base });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await provider?.close();
  });

  it('lets an invitee with no account join through the provider, though registration is closed', async () => {
    const watch = watchProblems(page);
    admin = await registerUser(service.app, { name: 'Ada Admin' });
    const invited = await service.app.inject({
      method: 'POST',
      url: `/api/organizations/${admin.organization.id}/invitations`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { email: 'sso-newcomer@example.com', role: 'read-only' },
    });
    const { acceptUrl } = invited.json() as { acceptUrl: string };
    provider.profile = newcomer;

    await page.goto(new URL(acceptUrl).pathname + new URL(acceptUrl).search);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('link', { name: 'Continue with Acme SSO' }).waitFor();
    await captureLightAndDark(page, 'register-invitation-sso');
    await page.getByRole('link', { name: 'Continue with Acme SSO' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    const session = await page.evaluate<string | null>("localStorage.getItem('sightline.session')");
    const me = await service.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${session}` },
    });
    expect(
      (me.json() as { user: { email: string }; organizations: Array<{ id: string; role: string }> }).organizations,
    ).toEqual([expect.objectContaining({ id: admin.organization.id, role: 'read-only' })]);
    expect(watch.problems).toEqual([]);
  });

  it('a newcomer signing in through the provider from "Sign in to accept" joins and sees the organization they joined', async () => {
    const watch = watchProblems(page);
    const lab = await asAdmin<{ id: string }>('/api/organizations', { name: 'SSO Lab' });
    const { acceptUrl } = await asAdmin<{ acceptUrl: string }>(`/api/organizations/${lab.id}/invitations`, {
      email: 'sso-lab@example.com',
      role: 'read-only',
    });
    provider.profile = { sub: 'sso-lab', email: 'sso-lab@example.com', email_verified: true, name: 'Sso Lab' };
    await signInFromInvitation(acceptUrl);
    // As after registering with the invitation: the joined organization, which has no project yet.
    await page.getByText('You joined SSO Lab').waitFor();
    await page.getByText('SSO Lab has no projects yet.').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await captureLightAndDark(page, 'sso-invitation-joined');
    expect(watch.problems).toEqual([]);
  });

  it('an existing account signing in through the provider from an invitation accepts it as after a password sign-in', async () => {
    const watch = watchProblems(page);
    const lab = await asAdmin<{ id: string }>('/api/organizations', { name: 'SSO Works' });
    const project = await asAdmin<{ id: string }>('/api/projects', {
      name: 'Works app',
      framework: 'nodejs',
      organizationId: lab.id,
    });
    // The newcomer of the first case, now with an account (linked to the provider), invited again.
    const { acceptUrl } = await asAdmin<{ acceptUrl: string }>(`/api/organizations/${lab.id}/invitations`, {
      email: newcomer.email,
      role: 'write',
    });
    provider.profile = newcomer;
    await signInFromInvitation(acceptUrl);
    await page.getByText('Join SSO Works?').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('projectId') === project.id);
    expect(watch.problems).toEqual([]);

    // From the invitation's "Create an account" too: an existing account lands on the page that accepts it.
    const other = await asAdmin<{ id: string }>('/api/organizations', { name: 'SSO Annex' });
    const annex = await asAdmin<{ acceptUrl: string }>(`/api/organizations/${other.id}/invitations`, {
      email: newcomer.email,
      role: 'read-only',
    });
    await signedOutAt(annex.acceptUrl);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('link', { name: 'Continue with Acme SSO' }).click();
    await page.getByText('Join SSO Annex?').waitFor();
    expect(watch.problems).toEqual([]);
  });
}, 120_000);

/**
 * Every focusable control of the page, in the order Tab should reach them (DOM order: the pages
 * use no positive tabindex), each tagged `data-tab-probe` with its index and described by its
 * unfocused outline and box-shadow. A string expression: this file has no DOM types.
 */
const COLLECT_TABBABLES = `(() => {
  // Tab starts from a mark before everything (blurring an autofocused field would start after it).
  const start = document.createElement('span');
  start.tabIndex = -1;
  document.body.prepend(start);
  start.focus();
  const candidates = document.querySelectorAll('a[href], button, input, select, textarea, [tabindex], summary');
  const tabbable = [...candidates].filter((el) => {
    if (el.matches(':disabled') || el.tabIndex < 0 || el.closest('[inert], [hidden]')) return false;
    if (el instanceof HTMLInputElement && el.type === 'hidden') return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && el.getClientRects().length > 0;
  });
  return tabbable.map((el, index) => {
    el.setAttribute('data-tab-probe', String(index));
    const style = getComputedStyle(el);
    const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('name') || el.id || el.tagName).trim().slice(0, 40);
    return { index, name: el.tagName.toLowerCase() + ' ' + name, outline: style.outlineStyle === 'none' ? 'none' : style.outlineStyle + ' ' + style.outlineWidth + ' ' + style.outlineColor, boxShadow: style.boxShadow };
  });
})()`;

/**
 * The focused element's probe index and its focus styles. A focus group (Radix tabs: the list is
 * the tab stop and hands focus to its selected tab) counts as the group's index, with `delegated`.
 */
const FOCUSED = `(() => {
  const el = document.activeElement;
  const style = el ? getComputedStyle(el) : null;
  const probe = el && el.closest('[data-tab-probe]');
  return {
    index: probe ? Number(probe.getAttribute('data-tab-probe')) : -1,
    delegated: probe !== el,
    name: el ? el.tagName.toLowerCase() + ' ' + (el.getAttribute('aria-label') || el.textContent || el.id || '').trim().slice(0, 40) : 'nothing',
    outline: !style || style.outlineStyle === 'none' || style.outlineWidth === '0px' ? 'none' : style.outlineStyle + ' ' + style.outlineWidth + ' ' + style.outlineColor,
    boxShadow: style ? style.boxShadow : 'none',
  };
})()`;

interface FocusStyle {
  index: number;
  delegated?: boolean;
  name: string;
  outline: string;
  boxShadow: string;
}

/**
 * Presses Tab through the whole page: each control must take focus in turn and look different
 * focused (outline or box-shadow) than unfocused. Returns the problems, one line each.
 */
async function walkTabOrder(page: Page): Promise<string[]> {
  // The page may still be swapping its skeleton for the loaded view when its readiness shows:
  // wait for its controls (a page that never shows one still fails here).
  await expect
    .poll(async () => (await page.evaluate<FocusStyle[]>(COLLECT_TABBABLES)).length, { timeout: 10_000 })
    .toBeGreaterThan(0);
  const controls = await page.evaluate<FocusStyle[]>(COLLECT_TABBABLES);
  expect(controls.length).toBeGreaterThan(0);
  const problems: string[] = [];
  for (const control of controls) {
    await page.keyboard.press('Tab');
    // Transitions (colors) settle within 150 ms; a ring (box-shadow) shows at once.
    let focused = await page.evaluate<FocusStyle>(FOCUSED);
    for (
      let waited = 0;
      waited < 300 && focused.outline === control.outline && focused.boxShadow === control.boxShadow;
      waited += 50
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      focused = await page.evaluate<FocusStyle>(FOCUSED);
    }
    if (focused.index !== control.index) {
      problems.push(`Tab ${control.index}: expected ${control.name}, focus is on ${focused.name} (#${focused.index})`);
      break;
    }
    // A delegated focus lands on another element than the one measured unfocused: it must show some indicator.
    const before = focused.delegated ? { outline: 'none', boxShadow: 'none' } : control;
    const visible = focused.outline !== before.outline && focused.outline !== 'none';
    if (!visible && focused.boxShadow === before.boxShadow)
      problems.push(
        `${control.name}: no visible focus indicator (outline ${focused.outline}, box-shadow ${focused.boxShadow})`,
      );
  }
  return problems;
}

describe('dashboard part 1 in Chromium: data arriving, CLI logins, profile, keyboard, tablet width', () => {
  let service: ListeningTestService;
  let browser: LaunchedBrowser;
  let page: Page;
  let watch: ReturnType<typeof watchProblems>;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let deviceUserCode = '';

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    service = await listeningTestService();
    browser = await launchChromium({ baseURL: service.url });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    watch = watchProblems(page);
    owner = await registerUser(service.app, { name: 'Ada Lovelace' });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  const signIn = async () => {
    await page.goto('/login');
    await page.evaluate(`localStorage.setItem('sightline.session', ${JSON.stringify(owner.token)})`);
  };
  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    service.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${owner.token}` },
      ...(payload ? { payload } : {}),
    });
  const PART_ONE_PAGES = (projectId: string) =>
    [
      ['connection', `/connection?projectId=${projectId}`, 'Connection'],
      ['project-settings', `/settings/project?projectId=${projectId}`, 'Project settings'],
      ['organization-settings', `/settings/organization?projectId=${projectId}`, 'Organization'],
      ['account-settings', `/settings/account?projectId=${projectId}`, 'Account'],
    ] as const;

  it('Connection and home wait for the first data, then flip to receiving once a demo batch arrives through the ingest routes', async () => {
    await signIn();
    await page.goto(`/connection?projectId=${owner.project.id}`);
    const status = page.getByRole('status').filter({ hasText: /data/ });
    await status.getByText('Waiting for the first data…').waitFor();
    await captureLightAndDark(page, 'connection-waiting');
    await page.goto(`/?projectId=${owner.project.id}`);
    await page.getByText('Waiting for the first data…').waitFor();

    await page.goto(`/connection?projectId=${owner.project.id}`);
    await status.getByText('Waiting for the first data…').waitFor();
    await sendDemoBatch(
      service.url,
      owner.project.token,
      demoBatch({ now: Date.now(), spanMs: 5000, calls: 20, session: false }),
    );
    // The page polls every 3 s while waiting: no reload.
    await status.getByText('Receiving data').waitFor({ timeout: 10_000 });
    expect(await status.textContent()).toMatch(/last event \d+ s ago/);
    await captureLightAndDark(page, 'connection-receiving');
    // Home leaves its onboarding for the project's figures once data is there.
    await page.goto(`/?projectId=${owner.project.id}`);
    await page.getByText('Requests', { exact: true }).first().waitFor();
    expect(await page.getByText('Send your first data').count()).toBe(0);
  });

  it('lists CLI logins on Account settings and revokes one behind a confirmation that Esc closes; the CLI refresh then fails', async () => {
    const started = (
      await service.app.inject({
        method: 'POST',
        url: '/api/auth/device/authorize',
        remoteAddress: '203.0.113.7',
        headers: { 'user-agent': 'sightline-cli/0.1.0 node/20.19.0 linux' },
        payload: { client_id: 'sightline-cli' },
      })
    ).json() as { device_code: string; user_code: string };
    expect((await api('POST', '/api/device/approve', { user_code: started.user_code })).statusCode).toBe(200);
    const tokens = (
      await service.app.inject({
        method: 'POST',
        url: '/api/auth/device/token',
        payload: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code },
      })
    ).json() as { refresh_token: string };

    await page.goto(`/settings/account?projectId=${owner.project.id}`);
    const logins = page.locator('section', { has: page.getByRole('heading', { name: 'CLI logins' }) });
    const revoke = logins.getByRole('button', { name: /^Revoke Sightline CLI login from / });
    await revoke.waitFor();
    const login = await logins.getByRole('row').nth(1).textContent();
    expect(login).toContain('Sightline CLI');
    // Where the login came from, as the approval page showed it (before: not shown).
    expect(login).toContain('203.0.113.7');
    expect(login).toContain('sightline-cli/0.1.0 node/20.19.0 linux');
    await captureLightAndDark(page, 'account-cli-logins');

    // Esc closes the confirmation and revokes nothing.
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this Sightline CLI login?' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Focus goes back to the button that opened it (the dialog hands it back as it unmounts, not always before).
    await expect
      .poll(() =>
        page.evaluate<string>(
          "document.activeElement?.getAttribute('aria-label') ?? String(document.activeElement?.tagName)",
        ),
      )
      .toMatch(/^Revoke Sightline CLI login/);
    await revoke.click();
    await dialog.getByRole('button', { name: 'Revoke login' }).click();
    await page.getByText('Sightline CLI login revoked').waitFor();
    await logins.getByText('npx sightline-cli login').waitFor();
    await captureLightAndDark(page, 'account-cli-logins-empty');
    const refreshed = await service.app.inject({
      method: 'POST',
      url: '/api/auth/device/token',
      payload: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
    });
    expect(refreshed.statusCode).toBe(400);
    expect(refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('edits the display name in the profile; the user menu and the API follow', async () => {
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('Ada King');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Profile saved').waitFor();
    const me = (await api('GET', '/api/me')).json() as { user: { name: string } };
    expect(me.user.name).toBe('Ada King');
    expect(await page.getByRole('button', { name: 'Save profile' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menu').getByText('Ada King').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
  });

  it('the last admin cannot lower their own role: the select is disabled and says why', async () => {
    await page.goto(`/settings/organization?projectId=${owner.project.id}`);
    const role = page.getByLabel('Role of Ada King');
    await role.waitFor();
    expect(await role.isDisabled()).toBe(true);
    expect(await role.getAttribute('title')).toBe(
      'The only admin cannot take a lower role: make another member admin first.',
    );
    expect(await role.getAttribute('aria-description')).toBe(
      'The only admin cannot take a lower role: make another member admin first.',
    );
  });

  it('Tab reaches every control of every part-1 page in order, each with a visible focus indicator', async () => {
    const started = (
      await service.app.inject({ method: 'POST', url: '/api/auth/device/authorize', payload: {} })
    ).json() as { user_code: string };
    deviceUserCode = started.user_code;
    const problems: string[] = [];
    const walk = async (name: string, url: string, ready: () => Promise<void>) => {
      await page.goto(url);
      await ready();
      problems.push(...(await walkTabOrder(page)).map((problem) => `${name}: ${problem}`));
    };
    const signedIn = await page.evaluate<string | null>("localStorage.getItem('sightline.session')");
    await page.evaluate("localStorage.removeItem('sightline.session')");
    await walk('login', '/login', () => page.getByRole('button', { name: 'Sign in' }).waitFor());
    await walk('register', '/register', () => page.getByRole('button', { name: 'Create account' }).waitFor());
    await page.evaluate(`localStorage.setItem('sightline.session', ${JSON.stringify(signedIn)})`);
    for (const [name, url, heading] of PART_ONE_PAGES(owner.project.id)) {
      await walk(name, url, async () => {
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await page.getByRole('main').locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      });
    }
    await walk('device', '/device', () => page.getByLabel('Code').waitFor());
    await walk('device-approve', `/device?user_code=${deviceUserCode}`, () =>
      page.getByRole('button', { name: 'Approve' }).waitFor(),
    );
    expect(problems).toEqual([]);
  });

  it('at a tablet width (900 px) every part-1 page fits without horizontal scrolling (screenshots *-tablet.png)', async () => {
    await page.setViewportSize({ width: 900, height: 1000 });
    const overflow = `(() => {
      const root = document.documentElement;
      const main = document.querySelector('main');
      return { page: root.scrollWidth - root.clientWidth, main: main ? main.scrollWidth - main.clientWidth : 0 };
    })()`;
    const pages: Array<readonly [string, string, () => Promise<void>]> = [
      ...PART_ONE_PAGES(owner.project.id).map(
        ([name, url, heading]) =>
          [name, url, () => page.getByRole('heading', { name: heading, level: 1 }).waitFor()] as const,
      ),
      ['device', `/device?user_code=${deviceUserCode}`, () => page.getByRole('button', { name: 'Approve' }).waitFor()],
    ];
    const failures: string[] = [];
    for (const [name, url, ready] of pages) {
      await page.goto(url);
      await ready();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      const measured = await page.evaluate<{ page: number; main: number }>(overflow);
      if (measured.page > 0 || measured.main > 0) failures.push(`${name}: ${JSON.stringify(measured)}`);
      await screenshotWholePage(page, path.join(SCREENSHOTS, `${name}-tablet.png`));
    }
    const token = await page.evaluate<string | null>("localStorage.getItem('sightline.session')");
    await page.evaluate("localStorage.removeItem('sightline.session')");
    for (const name of ['login', 'register'] as const) {
      await page.goto(`/${name}`);
      await page.getByRole('button', { name: name === 'login' ? 'Sign in' : 'Create account' }).waitFor();
      const measured = await page.evaluate<{ page: number; main: number }>(overflow);
      if (measured.page > 0 || measured.main > 0) failures.push(`${name}: ${JSON.stringify(measured)}`);
      await screenshotWholePage(page, path.join(SCREENSHOTS, `${name}-tablet.png`));
    }
    await page.evaluate(`localStorage.setItem('sightline.session', ${JSON.stringify(token)})`);
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(failures).toEqual([]);
  });

  it('saw no console error and no failed request on the way', () => {
    expect(watch.problems).toEqual([]);
  });
}, 300_000);
