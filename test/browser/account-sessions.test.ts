/**
 * Account settings' Sessions card in Chromium against a real service: the person signs in through
 * the sign-in page (so the current session carries Chromium's own User-Agent), other sign-ins come
 * through the real login route from other addresses and browsers, and a CLI logs in both ways. The
 * card names each device in words, marks this session, signs one out, then signs out everywhere
 * else (CLI device logins included) — and another browser signed in as the person is sent to
 * sign-in at its next request.
 *
 * Needs the built dashboard (`npm run build -w web`) and Debian's chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanizeUserAgent } from '../../web/src/lib/user-agent.js';
import { SECOND, TestClock, bearer, call, createPersonalAccessToken, deviceLogin } from '../support/access.js';
import {
  captureLightAndDark,
  launchChromium,
  storeSession,
  watchProblems,
  type LaunchedBrowser,
} from '../support/browser.js';
import { listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';

const PASSWORD = 'correct horse battery';
const FIREFOX_ON_MACOS = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('Account settings: sessions', () => {
  let service: ListeningTestService;
  let browser: LaunchedBrowser;
  let other: LaunchedBrowser;
  let page: Page;
  let user: Awaited<ReturnType<typeof registerUser>>;
  const tokens: Record<string, string> = {};
  const clock = new TestClock();

  const signIn = async (remoteAddress: string, userAgent: string | null, cli = false) => {
    const answer = await call(service.app, {
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      headers: userAgent ? { 'user-agent': userAgent } : {},
      payload: { email: user.user.email, password: PASSWORD, ...(cli ? { clientId: 'sightline-cli' } : {}) },
    });
    expect(answer.status).toBe(200);
    return answer.body!.token as string;
  };
  const me = async (token: string) =>
    (await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) })).status;
  const sessionsCard = () => page.locator('section', { has: page.getByRole('heading', { name: 'Sessions' }) });
  const deviceCells = async () =>
    (await sessionsCard().locator('tbody tr td:first-child').allInnerTexts()).map((text) =>
      text.replace(/\s+/g, ' ').trim(),
    );

  beforeAll(async () => {
    service = await listeningTestService({}, { now: clock.now });
    user = await registerUser(service.app, { name: 'Ada' });
    // A second apart, so the order of the list (newest sign-in first) is the order here.
    clock.advance(SECOND);
    tokens.firefox = await signIn('203.0.113.10', FIREFOX_ON_MACOS);
    clock.advance(SECOND);
    tokens.iphone = await signIn('198.51.100.23', SAFARI_ON_IPHONE);
    clock.advance(SECOND);
    tokens.cli = await signIn('192.0.2.40', 'sightline-cli/0.1.0 node/20.19.0 linux', true);
    clock.advance(SECOND);
    browser = await launchChromium({ baseURL: service.url });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    // The person signs in here through the page: the current session is this browser's.
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(user.user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    tokens.device = (await deviceLogin(service.app, user.token, '192.0.2.41')).access_token;
    // Another browser, signed in as the person with the iPhone's session.
    other = await launchChromium({ baseURL: service.url });
    await storeSession(other.context, tokens.iphone);
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await browser?.close();
    await service?.close();
  });

  it('lists where the person is signed in, in words, with this session marked and no sign-out on it', async () => {
    const watch = watchProblems(page);
    await page.goto(`/settings/account?projectId=${user.project.id}`);
    await sessionsCard().locator('tbody tr').nth(4).waitFor();
    const chromium = humanizeUserAgent(await page.evaluate<string>('navigator.userAgent')).label;
    // Newest first; the registration's session (no User-Agent: made by a script) last.
    expect(await deviceCells()).toEqual([
      `${chromium} this session`,
      'CLI (password login)',
      'Safari 17 on iOS',
      'Firefox 132 on macOS',
      'Unknown browser',
    ]);
    const current = sessionsCard().locator('tbody tr').first();
    expect(await current.getByRole('button', { name: /^Sign out/ }).count()).toBe(0);
    expect(await current.locator('td').nth(3).innerText()).toBe('Now');
    const firefox = sessionsCard().locator('tbody tr', { hasText: 'Firefox 132 on macOS' });
    expect(await firefox.locator('td').nth(1).innerText()).toBe('203.0.113.10');
    await captureLightAndDark(page, 'account-sessions');
    expect(watch.problems).toEqual([]);
  });

  it('signs one session out after a confirmation; its token is refused from then on', async () => {
    const watch = watchProblems(page);
    await sessionsCard()
      .getByRole('button', { name: /^Sign out Firefox 132 on macOS/ })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Sign out Firefox 132 on macOS?').waitFor();
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(deviceCells).not.toContain('Firefox 132 on macOS');
    expect(await me(tokens.firefox!)).toBe(401);
    expect(await me(tokens.iphone!)).toBe(200);
    await page.getByText('Firefox 132 on macOS signed out').waitFor({ state: 'detached' });
    expect(watch.problems).toEqual([]);
  });

  it('signs out everywhere else, CLI logins included, after a confirmation saying so; another browser is sent to sign-in', async () => {
    const watch = watchProblems(page);
    const otherPage = other.context.pages()[0] ?? (await other.context.newPage());
    await otherPage.goto(`/settings/account?projectId=${user.project.id}`);
    await otherPage.getByRole('heading', { name: 'Sessions' }).waitFor();

    const everywhere = page.getByRole('button', { name: 'Sign out of all other sessions and CLI logins…' });
    await everywhere.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Sign out of all other sessions and CLI logins?').waitFor();
    expect(await dialog.innerText()).toContain('every CLI device login');
    // A title long enough to reach the close button wraps before it (before: the "×" covered its "?").
    const textRight = await dialog.getByRole('heading').evaluate((heading) => {
      const range = heading.ownerDocument.createRange();
      range.selectNodeContents(heading);
      return Math.max(...[...range.getClientRects()].map((line) => line.right));
    });
    const close = (await dialog.getByRole('button', { name: 'Close' }).boundingBox())!;
    expect(textRight).toBeLessThanOrEqual(close.x);
    await captureLightAndDark(page, 'account-sessions-confirm');
    await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Signed out of 3 other sessions and 1 CLI login').waitFor();
    await expect.poll(async () => (await deviceCells()).length).toBe(1);
    expect((await deviceCells())[0]).toMatch(/this session$/);
    for (const ended of [tokens.iphone!, tokens.cli!, tokens.device!, user.token]) expect(await me(ended)).toBe(401);
    // Nothing is left to sign out of: the button says so instead of acting.
    await expect.poll(() => everywhere.isDisabled()).toBe(true);
    const cliLogins = page.locator('section', { has: page.getByRole('heading', { name: 'CLI logins' }) });
    await cliLogins.getByText('No CLI logins.').waitFor();
    // The toast gone, so the screenshots show the card alone.
    await page.getByText('Signed out of 3 other sessions and 1 CLI login').waitFor({ state: 'detached' });
    await captureLightAndDark(page, 'account-sessions-signed-out-elsewhere');
    expect(watch.problems).toEqual([]);

    // The other browser's next request is refused: it lands on sign-in, saying why.
    const otherWatch = watchProblems(otherPage);
    await otherWatch.allowing([/HTTP 401/, /status of 401/], async () => {
      await otherPage.reload();
      await otherPage.getByText('Your session ended (it expired or was signed out elsewhere).').waitFor();
    });
    expect(otherWatch.problems).toEqual([]);
  });

  it('says so when there is no session to list (a personal access token as credential) or the list is refused (a CLI token)', async () => {
    const fresh = await registerUser(service.app);
    /** The account page opened with `credential` as the dashboard's, once the card shows `text`. */
    const showCard = async (credential: string, text: string, name: string) => {
      const context = await launchChromium({ baseURL: service.url });
      try {
        await storeSession(context.context, credential);
        const tab = context.context.pages()[0] ?? (await context.context.newPage());
        const watch = watchProblems(tab);
        await watch.allowing([/HTTP 403/, /status of 403/], async () => {
          await tab.goto(`/settings/account?projectId=${fresh.project.id}`);
          const card = tab.locator('section', { has: tab.getByRole('heading', { name: 'Sessions' }) });
          await card.getByText(text).waitFor();
          // A refusal of the credential, not of a role: no "ask an administrator" (before: it did).
          expect(await card.innerText()).not.toContain('Ask an administrator');
          await captureLightAndDark(tab, name);
        });
        expect(watch.problems).toEqual([]);
      } finally {
        await context.close();
      }
    };
    const pat = await createPersonalAccessToken(service.app, fresh.token, 'dashboard');
    // With a personal access token no session is the caller's: ending the others ends them all.
    expect(
      (await call(service.app, { method: 'POST', url: '/api/auth/sessions/end-others', headers: bearer(pat) })).status,
    ).toBe(200);
    await showCard(
      pat,
      'No sessions. Signed in with a personal access token, you have no session here.',
      'account-sessions-empty',
    );
    const cli = (
      await call(service.app, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: fresh.user.email, password: PASSWORD, clientId: 'sightline-cli' },
      })
    ).body!.token as string;
    await showCard(cli, 'A CLI token cannot do this: sign in to the dashboard', 'account-sessions-refused');
  });
});
