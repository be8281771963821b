/**
 * The dashboard with the keyboard only, as someone who cannot use a mouse: signing in, the
 * sidebar, the project switcher, the time-range picker, the ⌘K palette, the lists (open a row
 * with Enter, page by keyboard), the issue's status menu, the alert rule and widget dialogs
 * (focus kept inside, Escape closes, focus back on the opener) and the organization's forms;
 * then the main pages at a tablet's 820×1180. Every stop must show where the focus is: a ring
 * (or a bar beside an item), not only a faint background or the hover's underline. Real service,
 * demo data through the real ingest routes; measured in the DOM, never timed.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoBatch, seededRandom, sendDemoBatch } from '../../src/demo/demo-data.js';
import nodePath from 'node:path';
import { launchChromium, SCREENSHOTS, screenshotWholePage } from '../support/browser.js';
import { registerUser, reportFrame } from '../support/service.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';

const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 820, height: 1180 };

/**
 * How the focused element (or, in a menu or the palette, the highlighted item) shows it: "ring"
 * when it draws a line around or beside itself (an outline, or a box-shadow of a visible colour),
 * else what changed. A string: the test's TypeScript has no DOM types.
 */
const FOCUS_MARK = `(el) => {
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
  const shadows = style.boxShadow === 'none' ? [] : style.boxShadow.split(/,(?![^(]*\\))/);
  const ring = shadows.some((shadow) => {
    if (/rgba\\(0, 0, 0, 0\\)/.test(shadow)) return false;
    const lengths = (shadow.replace(/\\w+\\([^)]*\\)/g, '').match(/-?[\\d.]+px/g) || []).map(parseFloat);
    // x, y, blur, spread: a line is an offset or a spread, not a soft blur alone.
    return Math.abs(lengths[0] || 0) >= 1 || Math.abs(lengths[1] || 0) >= 1 || (lengths[3] || 0) >= 1;
  });
  return outline || ring ? 'ring' : 'no ring (' + style.backgroundColor + ', ' + style.textDecorationLine + ')';
}`;

/** FOCUS_MARK of `target`, read in its page (a string function cannot be handed the element). */
async function focusMarkOf(target: Locator): Promise<string> {
  await target.evaluate((el) => el.setAttribute('data-focus-probe', ''));
  return target.page().evaluate<string>(`(() => {
    const el = document.querySelector('[data-focus-probe]');
    el.removeAttribute('data-focus-probe');
    return (${FOCUS_MARK})(el);
  })()`);
}

/** The focused element, named for a failure message. */
const FOCUSED = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'body';
  const name = el.getAttribute('aria-label') || (el.textContent || '').trim().slice(0, 50);
  return el.tagName.toLowerCase() + ' "' + name + '"';
})()`;

describe('the dashboard by keyboard', () => {
  let d: SignedInDashboard;
  let page: Page;
  let secondProject: { id: string; name: string };

  const inject = async <T>(method: 'POST' | 'PUT', url: string, payload: object): Promise<T> => {
    const response = await d.service.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${d.session}` },
      payload,
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json() as T;
  };

  beforeAll(async () => {
    d = await openSignedInDashboard({ viewport: DESKTOP });
    page = d.page;
    await sendDemoBatch(
      d.base,
      d.projectToken,
      demoBatch({ now: Date.now() - 60_000, spanMs: 40 * 60_000, calls: 200, random: seededRandom(5) }),
    );
    // One issue seen 25 times: more occurrences than its page shows (20), so it has a next page.
    await reportFrame(d.service.app, d.projectToken, {
      stackTraces: Array.from({ length: 25 }, (_, index) => ({
        stackTrace: 'QuotaError: over the limit\n    at charge (/srv/shop/quota.js:1:1)',
        recordedAt: new Date(Date.now() - index * 1000).toISOString(),
        isMessage: false,
      })),
    });
    const { organizations } = await d.api<{ organizations: Array<{ id: string }> }>('/api/me');
    secondProject = await inject('POST', `/api/projects?projectId=${d.projectId}`, {
      name: 'Warehouse',
      framework: 'nodejs',
      organizationId: organizations[0]!.id,
    });
    for (let attempt = 0; attempt < 150; attempt++) {
      const { stats } = await d.api<{ stats: { requests: number; logs?: number; sessions: number } }>(
        `/api/dashboard/overview?projectId=${d.projectId}`,
      );
      const { total } = await inject<{ total: number }>(
        'POST',
        `/api/exception-stack-traces?projectId=${d.projectId}`,
        {
          search: 'QuotaError',
        },
      );
      if (stats.requests > 0 && stats.sessions > 0 && total > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 180_000);

  afterEach(() => {
    // Emptied either way, so one test's problems are not reported again by the next.
    const problems = d.watch.problems.splice(0);
    expect(problems).toEqual([]);
  });

  afterAll(async () => {
    await d?.close();
  });

  const openSettled = async (path: string, query: Record<string, string> = {}) => {
    await d.open(path, query);
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.locator('main [aria-busy="true"]').count()).toBe(0);
  };

  const isFocused = (target: Locator) => target.evaluate((el) => el === el.ownerDocument.activeElement);
  const focusMark = focusMarkOf;

  /** Tab (or Shift+Tab) until `target` has the focus; fails after `limit` presses. */
  const tabTo = async (target: Locator, { limit = 80, back = false } = {}) => {
    await target.waitFor();
    for (let press = 0; press < limit; press++) {
      if (await isFocused(target)) return;
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    }
    throw new Error(`not reached by Tab: ${target} (focus on ${await page.evaluate<string>(FOCUSED)})`);
  };

  /** Tabs to `target` and requires it to show its focus. */
  const tabToVisibly = async (target: Locator, options?: { limit?: number; back?: boolean }) => {
    await tabTo(target, options);
    expect(await focusMark(target), String(target)).toBe('ring');
  };

  const expectFocusOn = async (target: Locator) =>
    expect.poll(() => isFocused(target), { message: `focus on ${target}` }).toBe(true);

  /** Starts a walk from the top of the page, as after a click on nothing or a fresh load. */
  const fromTop = async () => {
    await page.evaluate('document.activeElement && document.activeElement.blur()');
  };

  it('signs in with the keyboard alone', async () => {
    const person = await registerUser(d.service.app, { email: 'keys@example.com', password: 'correct horse battery' });
    const browser = await launchChromium({ baseURL: d.base, viewport: DESKTOP });
    try {
      const login = await browser.context.newPage();
      await login.goto('/login');
      await login.getByRole('heading', { name: 'Sign in to Sightline' }).waitFor();
      const email = login.getByLabel('E-mail');
      for (let press = 0; press < 20 && !(await email.evaluate((el) => el === el.ownerDocument.activeElement)); press++)
        await login.keyboard.press('Tab');
      expect(await focusMarkOf(email)).toBe('ring');
      await login.keyboard.type(person.user.email);
      await login.keyboard.press('Tab');
      const password = login.getByLabel('Password', { exact: true });
      expect(await password.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      await login.keyboard.type('correct horse battery');
      await login.keyboard.press('Enter');
      await login.waitForURL((url) => url.pathname === '/');
      await login.locator('main h1').first().waitFor();
    } finally {
      await browser.close();
    }
  });

  it('walks the sidebar: every page reachable, named and visibly focused; Enter opens it', async () => {
    await openSettled('/');
    await fromTop();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Issues', 'Endpoints', 'Logs', 'Organization'])
      await tabToVisibly(nav.getByRole('link', { name }));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/settings/organization');
  });

  it('switches project from the keyboard; focus comes back to the switcher', async () => {
    await openSettled('/issues');
    await fromTop();
    const trigger = page.getByRole('button', { name: /^Switch project/ });
    await tabToVisibly(trigger);
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const warehouse = menu.getByRole('menuitem', { name: 'Warehouse' });
    for (let press = 0; press < 5 && !(await isFocused(warehouse)); press++) await page.keyboard.press('ArrowDown');
    expect(await isFocused(warehouse)).toBe(true);
    expect(await focusMark(warehouse), 'the highlighted project').toBe('ring');
    // Pictures only: axe reads a modal menu's aria-hidden page (Radix hides the rest while it is
    // open) as focusable content hidden, which the menu's focus trap makes unreachable.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await screenshotWholePage(page, nodePath.join(SCREENSHOTS, `keyboard-project-menu-${colorScheme}.png`));
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('projectId') === secondProject.id);
    await expectFocusOn(trigger);

    // Create project, from the same menu: Escape closes its dialog, the focus is back on the switcher.
    await page.keyboard.press('Enter');
    const create = page.getByRole('menu').getByRole('menuitem', { name: 'Create project' });
    await create.waitFor();
    await page.keyboard.press('End');
    await expectFocusOn(create);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /project/i });
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((el) => el.contains(el.ownerDocument.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocusOn(trigger);
    await openSettled('/issues');
  });

  it('works the time-range picker: a preset, a custom range, Escape; focus back on its button', async () => {
    await openSettled('/endpoints');
    await fromTop();
    const trigger = page.getByRole('button', { name: /^Time range:/ });
    await tabToVisibly(trigger);
    await page.keyboard.press('Enter');
    const picker = page.getByRole('dialog', { name: 'Time range' });
    await picker.waitFor();
    const hour = picker.getByRole('button', { name: /Last hour/ });
    await tabToVisibly(hour, { limit: 12 });
    await d.capture('keyboard-time-presets');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('range') === '1h');
    await picker.waitFor({ state: 'detached' });
    await expectFocusOn(trigger);

    // A custom range from the keyboard. A year back (ArrowDown on the year, the field's third part)
    // is longer than the API answers: said in the picker, not as an error on every card.
    await page.keyboard.press('Enter');
    await picker.waitFor();
    const from = picker.getByLabel('From');
    await tabToVisibly(from, { limit: 20 });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    const apply = picker.getByRole('button', { name: 'Apply' });
    // Tab walks the parts of each date field (month, day, year, hours, minutes, AM/PM) first.
    await tabToVisibly(apply, { limit: 20 });
    await page.keyboard.press('Enter');
    await expect.poll(() => picker.getByRole('alert').textContent()).toBe('The range can be at most 31 days.');
    expect(new URL(page.url()).searchParams.get('range')).toBe('1h');
    await d.capture('keyboard-time-too-long');

    // Escape, and again: the start typed a day earlier (month, day, year, hours, minutes, AM/PM).
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    await expectFocusOn(trigger);
    await page.keyboard.press('Enter');
    await tabTo(from, { limit: 20 });
    const [date, time] = (await from.inputValue()).split('T') as [string, string];
    const dayBefore = new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const [year, month, day] = dayBefore.split('-');
    const [hours, minutes] = time.split(':').map(Number) as [number, number];
    const twelve = String(hours % 12 === 0 ? 12 : hours % 12).padStart(2, '0');
    // The year takes up to six digits: ArrowRight moves on from it.
    await page.keyboard.type(`${month}${day}${year}`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type(`${twelve}${String(minutes).padStart(2, '0')}${hours < 12 ? 'A' : 'P'}`);
    expect(await from.inputValue()).toBe(`${dayBefore}T${time}`);
    await tabTo(apply, { limit: 20 });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.has('from') && url.searchParams.has('to'));
    const applied = new URL(page.url()).searchParams;
    expect(Date.parse(applied.get('to')!) - Date.parse(applied.get('from')!)).toBe(25 * 3_600_000);
    await expectFocusOn(trigger);

    await page.keyboard.press('Enter');
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    await expectFocusOn(trigger);
  });

  it('runs the Ctrl+K palette: the chosen entry shows, Enter goes there, Escape gives focus back', async () => {
    await openSettled('/endpoints');
    await fromTop();
    const search = page.getByRole('button', { name: /Jump to/ });
    await tabTo(search);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog');
    const input = palette.getByRole('combobox');
    await expectFocusOn(input);
    await page.keyboard.type('logs');
    const chosen = palette.locator('[cmdk-item][data-selected="true"]');
    await expect.poll(() => chosen.textContent()).toContain('Logs');
    expect(await focusMark(chosen), 'the chosen palette entry').toBe('ring');
    await d.capture('keyboard-palette');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/logs');
    await palette.waitFor({ state: 'detached' });

    await page.keyboard.press('Control+k');
    await expectFocusOn(page.getByRole('dialog').getByRole('combobox'));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.evaluate<string>(FOCUSED)).not.toBe('body');
  });

  it('opens list rows with Enter, by Tab and by j/k, each visibly focused', async () => {
    // Issues: the title link by Tab, then the j/k cursor.
    await openSettled('/issues');
    await fromTop();
    const issues = page.getByRole('table', { name: 'Issues' });
    const firstTitle = issues.locator('tbody tr').first().getByRole('link').first();
    await tabToVisibly(firstTitle);
    await d.capture('keyboard-issue-title');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.startsWith('/issues/'));
    await page.goBack();
    await issues.locator('tbody tr').first().waitFor();
    await fromTop();
    await page.keyboard.press('j');
    const cursor = issues.locator('tbody tr[data-active]');
    await cursor.waitFor();
    expect(await focusMarkOf(cursor.locator('td').first()), 'the j/k cursor row').toBe('ring');
    await d.capture('keyboard-issue-cursor');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.startsWith('/issues/'));

    // Endpoints: the name link by Tab.
    await openSettled('/endpoints');
    await fromTop();
    const endpoint = page
      .getByRole('table', { name: 'Endpoints' })
      .locator('tbody tr')
      .first()
      .getByRole('link')
      .first();
    await tabToVisibly(endpoint);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/endpoints/detail');

    // Logs: a row's message unfolds its attributes with Enter.
    await openSettled('/logs');
    await fromTop();
    const message = page
      .getByRole('table', { name: 'Log records' })
      .locator('tbody tr')
      .first()
      .locator('button[aria-expanded]');
    await tabToVisibly(message);
    await d.capture('keyboard-log-row');
    await page.keyboard.press('Enter');
    await expect.poll(() => message.getAttribute('aria-expanded')).toBe('true');
  });

  it("pages an issue's occurrences and sets its status from the menu, focus kept", async () => {
    const { items } = await inject<{ items: Array<{ hash: string; count: number }> }>(
      'POST',
      `/api/exception-stack-traces?projectId=${d.projectId}`,
      { search: 'QuotaError' },
    );
    const busiest = items.find((item) => item.count === 25);
    expect(busiest, JSON.stringify(items.map((item) => item.count))).toBeDefined();
    await openSettled(`/issues/${busiest!.hash}`);
    await fromTop();
    const next = page.getByRole('button', { name: 'Next page' });
    await tabToVisibly(next, { limit: 150 });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    // The last page: Next says it has nowhere to go, and keeps the focus.
    await expectFocusOn(next);
    expect(await next.getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Enter');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await d.capture('keyboard-occurrences-last-page');

    await fromTop();
    const ignore = page.getByRole('button', { name: 'Ignore' });
    await tabToVisibly(ignore);
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const forever = menu.getByRole('menuitem', { name: 'Forever' });
    await expectFocusOn(forever);
    expect(await focusMark(forever), 'the highlighted status').toBe('ring');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    // The status changed and the Ignore button went with it: the focus stays in the status actions.
    const reopen = page.getByTestId('issue-status').getByRole('button', { name: 'Reopen' });
    await reopen.waitFor();
    await expectFocusOn(reopen);
    await d.capture('keyboard-issue-reopen');
    await page.keyboard.press('Enter');
    await page.getByTestId('issue-status').getByRole('button', { name: 'Ignore' }).waitFor();
    await expect.poll(() => page.evaluate<string>(FOCUSED)).toBe('button "Resolve"');
  });

  /** Opens a dialog from `opener` with Enter; Tab and Shift+Tab stay inside; Escape gives the focus back. */
  const walkDialog = async (opener: Locator, title: string) => {
    await tabToVisibly(opener);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.waitFor();
    const inside = () => dialog.evaluate((el) => el.contains(el.ownerDocument.activeElement));
    await expect.poll(inside).toBe(true);
    await d.capture(`keyboard-dialog-${title.toLowerCase().replaceAll(' ', '-')}`);
    const unmarked = new Set<string>();
    for (const key of [...Array(25).fill('Tab'), ...Array(25).fill('Shift+Tab')]) {
      await page.keyboard.press(key);
      expect(await inside(), `${title}: ${key} left the dialog for ${await page.evaluate<string>(FOCUSED)}`).toBe(true);
      const mark = await page.evaluate<string>(`(${FOCUS_MARK})(document.activeElement)`);
      if (mark !== 'ring') unmarked.add(`${await page.evaluate<string>(FOCUSED)}: ${mark}`);
    }
    expect([...unmarked], `${title}: stops without a visible focus`).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocusOn(opener);
  };

  it('keeps the focus inside the alert rule dialog; Escape returns it to New rule', async () => {
    await openSettled('/alerts');
    await fromTop();
    await walkDialog(page.getByRole('button', { name: 'New rule' }), 'New alert rule');
  });

  it('keeps the focus inside the widget dialog; Escape returns it to Add widget', async () => {
    const board = await inject<{ id: string }>('POST', `/api/dashboards?projectId=${d.projectId}`, { name: 'Keys' });
    await openSettled(`/dashboards/${board.id}`);
    await fromTop();
    await walkDialog(page.getByRole('button', { name: 'Add widget' }).first(), 'Add widget');
  });

  it("invites and changes a member's role on the organization page by keyboard", async () => {
    await openSettled('/settings/organization');
    await fromTop();
    const email = page.getByPlaceholder('name@example.com');
    await tabToVisibly(email);
    await page.keyboard.type('new.colleague@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>(`(${FOCUS_MARK})(document.activeElement)`)).toBe('ring');
    await page.keyboard.press('Enter');
    const invitations = page.getByRole('table', { name: 'Invitations' });
    await invitations.getByText('new.colleague@example.com').waitFor();
    // The address is cleared for the next one; the focus stays on Invite, not at the top of the page.
    await expectFocusOn(page.getByRole('button', { name: 'Invite', exact: true }));
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expectFocusOn(email);
    await d.capture('keyboard-organization-invite');

    // A second member, who joined through an invitation: a write member made read-only by arrows.
    const { organizations } = await d.api<{ organizations: Array<{ id: string }> }>('/api/me');
    const colleague = await registerUser(d.service.app, { email: 'arrows@example.com' });
    const { acceptUrl } = await inject<{ acceptUrl: string }>(
      'POST',
      `/api/organizations/${organizations[0]!.id}/invitations`,
      { email: 'arrows@example.com', role: 'write' },
    );
    const accepted = await d.service.app.inject({
      method: 'POST',
      url: '/api/invitations/accept',
      headers: { authorization: `Bearer ${colleague.token}` },
      payload: { token: new URL(acceptUrl).searchParams.get('token') },
    });
    expect(accepted.statusCode, accepted.body).toBeLessThan(300);
    await openSettled('/settings/organization');
    await fromTop();
    const role = page
      .getByRole('table', { name: 'Members' })
      .getByRole('combobox', { name: /^Role of .*arrows|^Role of User/ })
      .and(page.locator(':not(:disabled)'));
    await tabToVisibly(role);
    expect(await role.inputValue()).toBe('write');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(async () => {
        const { members } = await d.api<{ members: Array<{ email: string; role: string }> }>(
          `/api/organizations/${organizations[0]!.id}/members`,
        );
        return members.find((member) => member.email === 'arrows@example.com')?.role;
      })
      .toBe('read-only');
    // The select was busy while the change was saved; the focus is still on it, for the next arrow.
    await expectFocusOn(role);
  });

  describe('at a tablet’s 820×1180', () => {
    beforeAll(async () => {
      await page.setViewportSize(TABLET);
    });
    afterAll(async () => {
      await page.setViewportSize(DESKTOP);
    });

    /**
     * What sticks out at this width: the document or the page panel scrolling sideways, an element
     * reaching past the panel's right edge that no scroll area of its own holds, header controls
     * drawn over each other.
     */
    const OVERFLOW = `(() => {
      const problems = [];
      const main = document.querySelector('main');
      const edge = main.getBoundingClientRect().right;
      if (document.scrollingElement.scrollWidth > window.innerWidth)
        problems.push('the document is ' + document.scrollingElement.scrollWidth + ' px wide');
      if (main.scrollWidth > main.clientWidth + 1) problems.push('the page scrolls sideways by ' + (main.scrollWidth - main.clientWidth) + ' px');
      const held = (el) => {
        for (let up = el.parentElement; up && up !== main; up = up.parentElement)
          if (getComputedStyle(up).overflowX !== 'visible') return true;
        return false;
      };
      for (const el of main.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= edge + 1 || held(el)) continue;
        const style = getComputedStyle(el);
        if (style.position === 'absolute' && style.clipPath !== 'none') continue;
        problems.push(el.tagName.toLowerCase() + '.' + String(el.className).split(' ').slice(0, 3).join('.') + ' reaches ' + Math.round(r.right) + ' px (panel ends at ' + Math.round(edge) + ')');
        if (problems.length > 8) break;
      }
      const controls = [...document.querySelectorAll('header button')].map((b) => [b.getAttribute('aria-label') || b.textContent.trim(), b.getBoundingClientRect()]);
      controls.forEach(([a, ra], i) => controls.slice(i + 1).forEach(([b, rb]) => {
        if (ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1 && rb.top < ra.bottom - 1) problems.push('header: ' + a + ' over ' + b);
      }));
      return problems;
    })()`;

    it('keeps the sidebar collapsed and every page in it reachable, named and visibly focused', async () => {
      await openSettled('/');
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThan(80);
      await fromTop();
      for (const name of ['Home', 'Issues', 'Endpoints', 'Logs', 'Dashboards', 'Organization', 'Account'])
        await tabToVisibly(nav.getByRole('link', { name, exact: true }));
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/settings/account');
      await tabToVisibly(page.getByRole('button', { name: /^Time range:/ }));
    });

    it('names the palette button where its text is hidden (below 768 px only its icon shows)', async () => {
      await page.setViewportSize({ width: 700, height: 1000 });
      try {
        await openSettled('/');
        const button = page.getByRole('button', { name: 'Jump to…' });
        expect(await button.isVisible()).toBe(true);
        expect(await button.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThan(60);
      } finally {
        await page.setViewportSize(TABLET);
      }
    });

    it('cuts off nothing and overlaps nothing on the main pages; tables scroll inside their card', async () => {
      const { items } = await inject<{ items: Array<{ hash: string }> }>(
        'POST',
        `/api/exception-stack-traces?projectId=${d.projectId}`,
        { search: 'QuotaError' },
      );
      const pages = [
        '/',
        '/issues',
        `/issues/${items[0]!.hash}`,
        '/endpoints',
        '/logs',
        '/sessions',
        '/alerts',
        '/metrics',
        '/dashboards',
        '/connection',
        '/settings/project',
        '/settings/organization',
        '/settings/account',
      ];
      const problems: string[] = [];
      for (const path of pages) {
        await openSettled(path);
        for (const problem of await page.evaluate<string[]>(OVERFLOW)) problems.push(`${path}: ${problem}`);
        if (path === '/metrics' || path === '/settings/organization')
          await d.capture(`keyboard-tablet${path.replaceAll('/', '-')}`);
      }
      expect(problems).toEqual([]);
    });
  });
});
