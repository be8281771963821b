/**
 * Account settings' personal access tokens in Chromium against a real service: "Revoke all…" asks
 * first, naming how many tokens go, does nothing when cancelled, and on confirmation revokes every
 * token of the person (each then refused) and none of anyone else's; with no token left it is
 * disabled.
 *
 * Needs the built dashboard (`npm run build -w web`) and Debian's chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, call, createPersonalAccessToken } from '../support/access.js';
import {
  captureLightAndDark,
  launchChromium,
  storeSession,
  watchProblems,
  type LaunchedBrowser,
} from '../support/browser.js';
import { listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';

describe('Account settings: revoke all personal access tokens', () => {
  let service: ListeningTestService;
  let browser: LaunchedBrowser;
  let page: Page;
  let user: Awaited<ReturnType<typeof registerUser>>;
  let mine: string[];
  let someoneElses: string;

  const me = async (token: string) =>
    (await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) })).status;
  const tokensCard = () =>
    page.locator('section', { has: page.getByRole('heading', { name: 'Personal access tokens' }) });
  const revokeAll = () => tokensCard().getByRole('button', { name: 'Revoke all…' });

  beforeAll(async () => {
    service = await listeningTestService();
    user = await registerUser(service.app, { name: 'Ada' });
    mine = [];
    for (const name of ['deploy from CI', 'laptop CLI', 'nightly export'])
      mine.push(await createPersonalAccessToken(service.app, user.token, name));
    const other = await registerUser(service.app);
    someoneElses = await createPersonalAccessToken(service.app, other.token, 'their CI');
    browser = await launchChromium({ baseURL: service.url });
    await storeSession(browser.context, user.token);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('asks first, naming the count, and cancelling keeps every token', async () => {
    const watch = watchProblems(page);
    await page.goto(`/settings/account?projectId=${user.project.id}`);
    await tokensCard().locator('tbody tr').nth(2).waitFor();
    await captureLightAndDark(page, 'account-tokens');
    await revokeAll().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Revoke all 3 personal access tokens?' }).waitFor();
    expect(await dialog.innerText()).toContain('stops working at once');
    await captureLightAndDark(page, 'account-tokens-revoke-all-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    for (const token of mine) expect(await me(token)).toBe(200);
    expect(watch.problems).toEqual([]);
  });

  it("revokes every one of the person's tokens on confirmation, no one else's, and is then disabled", async () => {
    const watch = watchProblems(page);
    await revokeAll().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Revoke 3 tokens' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Revoked 3 tokens').waitFor();
    await tokensCard().getByText('No tokens yet.').waitFor();
    for (const token of mine) expect(await me(token)).toBe(401);
    expect(await me(someoneElses)).toBe(200);
    await expect.poll(() => revokeAll().isDisabled()).toBe(true);
    expect(await revokeAll().getAttribute('title')).toBe('You have no tokens to revoke');
    // The toast gone, so the screenshots show the card alone.
    await page.getByText('Revoked 3 tokens').waitFor({ state: 'detached' });
    await captureLightAndDark(page, 'account-tokens-none-left');
    expect(watch.problems).toEqual([]);
  });

  it('names a single token as the only one', async () => {
    await createPersonalAccessToken(service.app, user.token, 'the only one');
    await page.reload();
    await tokensCard().getByText('the only one').waitFor();
    await revokeAll().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Revoke your only personal access token?' }).waitFor();
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('Revoked 1 token').waitFor();
    await tokensCard().getByText('No tokens yet.').waitFor();
  });
});
