/**
 * The dashboard on a phone (390×844) and a small laptop (1280×720), in Chromium against a real
 * service with the demo shop's data: every page of DASHBOARD.md's list keeps its heading on screen
 * and never scrolls sideways as a whole. The shell scrolls inside its own `main` panel, so a page
 * wider than the screen shows as `main` scrolling sideways rather than the document: both are
 * measured. A wide table scrolling inside its own card is fine. Measured, never timed.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBatch, seededRandom, sendDemoBatch } from '../../src/demo/demo-data.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 720 };

/** A model name as long as today's are: the demo's ("gpt-4o-mini") fit where this one broke over lines. */
const LONG_MODEL = 'claude-sonnet-4-5-20250929';

/** One LLM call of LONG_MODEL through the OTLP/JSON trace route, as an SDK sends it. */
async function sendLongModelCall(base: string, projectToken: string): Promise<void> {
  const startNanos = BigInt(Date.now() - 120_000) * 1_000_000n;
  const attribute = (key: string, value: string | number) => ({
    key,
    value: typeof value === 'string' ? { stringValue: value } : { intValue: String(value) },
  });
  const span = {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    name: `chat ${LONG_MODEL}`,
    kind: 3,
    startTimeUnixNano: String(startNanos),
    endTimeUnixNano: String(startNanos + 900_000_000n),
    attributes: [
      attribute('gen_ai.operation.name', 'chat'),
      attribute('gen_ai.provider.name', 'anthropic'),
      attribute('gen_ai.request.model', LONG_MODEL),
      attribute('gen_ai.usage.input_tokens', 820),
      attribute('gen_ai.usage.output_tokens', 96),
    ],
  };
  const response = await fetch(new URL('/api/otel/v1/traces', base), {
    method: 'POST',
    headers: { authorization: `Bearer ${projectToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [attribute('service.name', 'shop-assistant')] },
          scopeSpans: [{ spans: [span] }],
        },
      ],
    }),
  });
  expect(response.status, await response.text()).toBe(200);
}

/**
 * How much of the first issue's title the list shows: the characters, from the first, that lie
 * inside the title link's box (the rest is cut by its ellipsis or below its last line).
 */
const SHOWN_TITLE = `(() => {
  const link = document.querySelector('main table[aria-label="Issues"] tbody tr a');
  const text = link.firstChild;
  const box = link.getBoundingClientRect();
  const range = document.createRange();
  let shown = 0;
  while (shown < text.length) {
    range.setStart(text, shown);
    range.setEnd(text, shown + 1);
    const glyph = range.getBoundingClientRect();
    if (glyph.right > box.right + 0.5 || glyph.bottom > box.bottom + 0.5) break;
    shown++;
  }
  return { title: text.textContent, shown, row: link.closest('tr').textContent };
})()`;

/**
 * Where a model name (any of the given) is written over several lines, or cut without a tooltip
 * holding it whole; and how many were seen. Headings (a span's name such as "chat <model>") may
 * wrap, the menus of the filters are the browser's own.
 */
const BROKEN_MODEL_NAMES = (models: string[]) => `(() => {
  const models = new Set(${JSON.stringify(models)});
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  const broken = [];
  let seen = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const name = node.data.trim();
    const holder = node.parentElement;
    if (!models.has(name) || holder.closest('h1, option')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
    if (rects.length === 0) continue; // in a closed <details>
    seen++;
    const lines = new Set(rects.map((rect) => Math.round(rect.top))).size;
    if (lines > 1) broken.push(name + ' over ' + lines + ' lines in ' + holder.closest('table, dl, section, div').getAttribute('aria-label'));
    else if (holder.scrollWidth > holder.clientWidth + 1 && holder.closest('[title]')?.title !== name) broken.push(name + ' cut without a tooltip');
  }
  return { broken, seen };
})()`;

interface Fit {
  /** How much wider than the window the document is. */
  document: number;
  /** How much wider than itself the app's scroll panel is (0 on pages outside the shell). */
  panel: number;
  /** Whether the page's main heading lies on screen, whole and horizontally inside the window. */
  headingOnScreen: boolean;
  /** Whether the heading breaks over lines though the panel has room for it on one (actions beside it took the room). */
  headingSqueezed: boolean;
  /** Column headers whose text runs out of their cell (a column squeezed to nothing by the others). */
  squeezedColumns: string[];
}

const FIT = `(() => {
  const main = document.querySelector('main');
  const heading = document.querySelector('main h1') ?? document.querySelector('h1');
  const box = heading?.getBoundingClientRect();
  return {
    document: document.documentElement.scrollWidth - innerWidth,
    panel: main ? main.scrollWidth - main.clientWidth : 0,
    headingOnScreen: !!box && box.width > 0 && box.left >= 0 && box.right <= innerWidth && box.top >= 0 && box.bottom <= innerHeight,
    headingSqueezed: (() => {
      if (!heading || !main) return false;
      const range = document.createRange();
      range.selectNodeContents(heading);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      const probe = heading.cloneNode(true);
      probe.style.cssText = 'position: fixed; visibility: hidden; white-space: nowrap; width: auto';
      heading.parentElement.append(probe);
      const natural = probe.getBoundingClientRect().width;
      probe.remove();
      const padding = parseFloat(getComputedStyle(main.firstElementChild).paddingLeft) * 2;
      return lines > 1 && natural <= main.clientWidth - padding;
    })(),
    squeezedColumns: [...document.querySelectorAll('main table')].flatMap((table) =>
      [...table.querySelectorAll('thead th')].flatMap((th) => {
        // A screen-reader-only header ("Actions") is a 1 px box placed anywhere: only visible text counts.
        const shown = [...th.childNodes].some((node) =>
          node.nodeType === 3 ? node.textContent.trim() : getComputedStyle(node).position !== 'absolute' && node.textContent.trim(),
        );
        if (getComputedStyle(th).display === 'none' || !shown) return [];
        const range = document.createRange();
        range.selectNodeContents(th);
        const text = range.getBoundingClientRect();
        const cell = th.getBoundingClientRect();
        if (text.width === 0 || (text.left >= cell.left - 1 && text.right <= cell.right + 1)) return [];
        return [(table.getAttribute('aria-label') ?? 'table') + ': ' + th.textContent.trim()];
      }),
    ),
  };
})()`;

describe('the dashboard on a phone and a small laptop', () => {
  let dashboard: SignedInDashboard;
  /** [name, path, query] of every page, the detail pages pointing at the demo's own rows. */
  let pages: Array<[string, string, Record<string, string>]>;

  /** The first row of a list route of the read API. */
  const first = async <T>(url: string): Promise<T> => {
    const row = (await dashboard.list<{ items: T[] }>(url)).items[0];
    expect(row, url).toBeDefined();
    return row!;
  };

  beforeAll(async () => {
    dashboard = await openSignedInDashboard({ viewport: PHONE });
    await sendDemoBatch(
      dashboard.base,
      dashboard.projectToken,
      demoBatch({ now: Date.now() - 60_000, spanMs: 40 * 60_000, calls: 120, random: seededRandom(7) }),
    );
    // Ingest commits asynchronously: wait until every kind the pages show is readable.
    for (let attempt = 0; attempt < 150; attempt++) {
      const { stats } = await dashboard.api<{
        stats: { requests: number; tasks: number; aiCalls: number; sessions: number; issues: number };
      }>(`/api/dashboard/overview?projectId=${dashboard.projectId}`);
      if (stats.requests > 0 && stats.tasks > 0 && stats.aiCalls > 0 && stats.sessions > 0 && stats.issues > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const issue = await first<{ hash: string }>('/api/exception-stack-traces');
    const endpoint = await first<{ name: string }>('/api/endpoints');
    const task = await first<{ name: string }>('/api/tasks');
    await sendLongModelCall(dashboard.base, dashboard.projectToken);
    let aiCalls: Array<{ id: string; model: string }> = [];
    for (let attempt = 0; attempt < 150 && !aiCalls.some((call) => call.model === LONG_MODEL); attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      aiCalls = (await dashboard.list<{ items: typeof aiCalls }>('/api/ai-traces')).items;
    }
    // The AI call's page is pictured with the long name.
    const aiCall = aiCalls.find((call) => call.model === LONG_MODEL);
    expect(aiCall, LONG_MODEL).toBeDefined();
    const session = await first<{ id: string }>('/api/sessions');
    pages = [
      ['home', '/', {}],
      ['issues', '/issues', {}],
      ['issue', `/issues/${issue.hash}`, {}],
      ['endpoints', '/endpoints', {}],
      ['endpoint', '/endpoints/detail', { name: endpoint.name }],
      ['tasks', '/tasks', {}],
      ['task', '/tasks/detail', { name: task.name }],
      ['ai-traces', '/ai-traces', {}],
      ['ai-trace', `/ai-traces/${aiCall!.id}`, {}],
      ['sessions', '/sessions', {}],
      ['session', `/sessions/${session.id}`, {}],
      ['alerts', '/alerts', {}],
      ['alert-channels', '/alerts', { tab: 'channels' }],
      ['alert-history', '/alerts', { tab: 'history' }],
      ['logs', '/logs', {}],
      ['metrics', '/metrics', {}],
      ['dashboards', '/dashboards', {}],
      ['connection', '/connection', {}],
      ['settings-project', '/settings/project', {}],
      ['settings-organization', '/settings/organization', {}],
      ['settings-account', '/settings/account', {}],
    ];
  }, 180_000);

  afterAll(async () => {
    await dashboard?.close();
  });

  /** Opens a page and waits until its heading and its data have arrived. */
  const openSettled = async (path: string, query: Record<string, string>) => {
    await dashboard.open(path, query);
    await dashboard.page.locator('main h1').first().waitFor();
    await dashboard.page.waitForLoadState('networkidle');
    await expect.poll(() => dashboard.page.locator('main [aria-busy="true"]').count()).toBe(0);
  };

  /** "name at W×H: what is wrong" for a page that does not fit. */
  const misfits = (name: string, viewport: { width: number }, fit: Fit) => [
    ...(fit.document > 0 ? [`${name} at ${viewport.width}: the document is ${fit.document} px too wide`] : []),
    ...(fit.panel > 0 ? [`${name} at ${viewport.width}: the page scrolls ${fit.panel} px sideways`] : []),
    ...(fit.headingOnScreen ? [] : [`${name} at ${viewport.width}: its heading is not on screen`]),
    ...(fit.headingSqueezed ? [`${name} at ${viewport.width}: its heading is squeezed onto several lines`] : []),
    ...fit.squeezedColumns.map((column) => `${name} at ${viewport.width}: the column ${column} is squeezed`),
  ];

  it('fits every page to the width of a phone and of a small laptop, its heading on screen', async () => {
    const page = dashboard.page;
    const problems: string[] = [];
    // Pages fixed for the phone, pictured light and dark (test/browser/screenshots/small-*).
    const pictured = new Set(['issues', 'issue', 'endpoints', 'tasks', 'ai-traces', 'ai-trace', 'logs', 'metrics']);
    pictured.add('dashboards');
    pictured.add('connection').add('settings-project').add('settings-organization').add('settings-account');
    for (const viewport of [PHONE, LAPTOP]) {
      await page.setViewportSize(viewport);
      for (const [name, path, query] of pages) {
        await openSettled(path, query);
        problems.push(...misfits(name, viewport, await page.evaluate<Fit>(FIT)));
        if (viewport === PHONE && pictured.has(name)) await dashboard.capture(`small-${name}-${viewport.width}`);
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it("shows an issue's title on a phone, its figures under it and a menu to sort", async () => {
    const page = dashboard.page;
    await page.setViewportSize(PHONE);
    await openSettled('/issues', {});
    const { title, shown, row } = await page.evaluate<{ title: string; shown: number; row: string }>(SHOWN_TITLE);
    // Before: "TypeErr…", the columns of events and last seen took the row's width.
    expect(shown, title).toBeGreaterThanOrEqual(Math.min(title.length, 40));
    expect(row).toMatch(/\d+ events? · .+ ago/);
    // The sortable column headers are gone on a phone: the menu sorts.
    await page.getByRole('combobox', { name: 'Sort issues' }).selectOption('lastSeen');
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('lastSeen');
    // The laptop keeps its columns and no menu.
    await page.setViewportSize(LAPTOP);
    await expect.poll(() => page.getByRole('combobox', { name: 'Sort issues' }).isVisible()).toBe(false);
    await expect.poll(() => page.getByRole('columnheader', { name: /Last seen/ }).isVisible()).toBe(true);
  });

  it('writes a model name on one line on the AI pages of a phone', async () => {
    const page = dashboard.page;
    await page.setViewportSize(PHONE);
    const { items, perModel } = await dashboard.list<{
      items: Array<{ id: string; model: string }>;
      perModel: Array<{ model: string }>;
    }>('/api/ai-traces');
    const models = perModel.map((total) => total.model);
    expect(models).toContain(LONG_MODEL);
    const longCall = items.find((item) => item.model === LONG_MODEL)!;
    const problems: string[] = [];
    for (const path of ['/ai-traces', `/ai-traces/${longCall.id}`]) {
      await openSettled(path, {});
      const { broken, seen } = await page.evaluate<{ broken: string[]; seen: number }>(BROKEN_MODEL_NAMES(models));
      expect(seen, path).toBeGreaterThan(0);
      problems.push(...broken.map((problem) => `${path}: ${problem}`));
    }
    // Before: "claude-3-5-haiku" over three lines in the list's By model, LONG_MODEL over two in the call's details.
    expect(problems).toEqual([]);
  });

  it("keeps the alert rule dialog's buttons on a phone's screen", async () => {
    const page = dashboard.page;
    await page.setViewportSize(PHONE);
    await openSettled('/alerts', {});
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New alert rule' });
    await dialog.waitFor();
    const create = dialog.getByRole('button', { name: 'Create rule' });
    await create.scrollIntoViewIfNeeded();
    const box = await create.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
    expect(await page.evaluate<Fit>(FIT)).toMatchObject({ document: 0 });
    await dashboard.capture('small-alert-rule-dialog-390');
  });

  it('fits the sign-in page to a phone and a small laptop', async () => {
    const page = dashboard.page;
    // The suite's context signs every page in; the sign-in page is seen signed out.
    await page
      .context()
      .addInitScript("if (location.pathname === '/login') localStorage.removeItem('sightline.session')");
    const problems: string[] = [];
    for (const viewport of [PHONE, LAPTOP]) {
      await page.setViewportSize(viewport);
      await page.goto('/login');
      await page.getByRole('heading', { level: 1 }).waitFor();
      problems.push(...misfits('login', viewport, await page.evaluate<Fit>(FIT)));
    }
    expect(problems).toEqual([]);
    expect(dashboard.watch.problems).toEqual([]);
  });
});
