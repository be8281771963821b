/**
 * Debian's Chromium driven by playwright-core, for browser tests against a real service. Never a
 * downloaded browser: the binary is /usr/bin/chromium (CHROMIUM_PATH overrides), started headless
 * with a fresh profile folder that is removed on close. Self-contained so any browser test can use it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Where the browser suites put their pictures (git-ignored): look at them before calling a page done. */
export const SCREENSHOTS = path.resolve('test/browser/screenshots');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Quiet, reproducible, offline: no sandbox (root in CI), no GPU, no background calls home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(
  options: { viewport?: { width: number; height: number }; baseURL?: string } = {},
): Promise<LaunchedBrowser> {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install -y chromium; .ci/run installs it when it is missing)`,
    );
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1440, height: 900 },
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Signs every page of the context in as the holder of `token`: the web app reads its session from
 * localStorage (web/src/lib/session.ts) before the first render. Init scripts run in every frame:
 * frames without storage (about:blank, a sandboxed replay iframe) are not the app, and must not
 * report the refusal as a page error.
 */
export async function storeSession(context: BrowserContext, token: string): Promise<void> {
  await context.addInitScript(`try { localStorage.setItem('sightline.session', ${JSON.stringify(token)}) } catch {}`);
}

/**
 * Everything that went wrong in a page: console errors, uncaught exceptions, requests that failed
 * or were answered 4xx/5xx. A test asserts the list is empty; `expect` lets a step that provokes
 * one on purpose (a 401 to test sign-in) name it, so it is not reported.
 */
export function watchProblems(page: Page) {
  const problems: string[] = [];
  const expected: RegExp[] = [];
  const report = (problem: string) => {
    if (!expected.some((pattern) => pattern.test(problem))) problems.push(problem);
  };
  page.on('console', (message) => {
    if (message.type() === 'error') report(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => report(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    // A navigation that replaces the page aborts its pending fetches: not a failure of the app.
    if (reason !== 'net::ERR_ABORTED') report(`request failed: ${request.method()} ${request.url()} ${reason}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) report(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return {
    problems,
    /** Runs `step` with problems matching `patterns` allowed (and requires that each occurred is not asserted). */
    async allowing<T>(patterns: RegExp[], step: () => Promise<T>): Promise<T> {
      expected.push(...patterns);
      try {
        return await step();
      } finally {
        expected.splice(expected.length - patterns.length, patterns.length);
      }
    },
  };
}

/** axe-core's violations of impact serious or critical on the page as it is now. */
export async function seriousAccessibilityViolations(
  page: Page,
): Promise<Array<{ id: string; impact: string; help: string; targets: string[] }>> {
  const source = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(source);
  // Contrast is judged on the settled page: a toast still fading in is half transparent. Finite
  // animations and transitions only (a spinner runs forever).
  await page.evaluate(`Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => undefined)))`);
  // A string expression: this file's TypeScript has no DOM types.
  const violations = await page.evaluate<Array<{ id: string; impact: string; help: string; targets: string[] }>>(`
    axe.run(document, { resultTypes: ['violations'] }).then((result) =>
      result.violations.map((v) => ({ id: v.id, impact: v.impact || 'unknown', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))
  `);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * A screenshot of the whole page. The shell is one screen high and scrolls inside <main>, which
 * Playwright's fullPage cannot see past; for the picture, the shell is let grow to its content.
 */
export async function screenshotWholePage(page: Page, file: string): Promise<void> {
  const unfold = await page.addStyleTag({
    content:
      '.h-screen { height: auto !important; min-height: 100vh; overflow: visible !important } main { overflow: visible !important }',
  });
  try {
    await page.screenshot({ path: file, fullPage: true });
  } finally {
    // A function, not a string: Playwright runs a string as an expression without the element.
    await unfold.evaluate((element: { remove(): void }) => element.remove());
  }
}

/** Light and dark screenshots of the page as it is, each checked with axe (contrast differs by theme). */
export async function captureLightAndDark(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect
      .poll(() => page.evaluate<boolean>("document.documentElement.classList.contains('dark')"))
      .toBe(colorScheme === 'dark');
    await screenshotWholePage(page, path.join(SCREENSHOTS, `${name}-${colorScheme}.png`));
    expect(await seriousAccessibilityViolations(page), `${name} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * The text the rrweb replayer has rebuilt in its iframe (a same-origin sandbox, so the page can
 * read it); `within` narrows to the player inside one element (a selector).
 */
export function replayedText(page: Page, within = ''): Promise<string> {
  const selector = `${within ? `${within} ` : ''}.replayer-wrapper iframe`;
  return page.evaluate((query) => {
    const frame = (
      globalThis as unknown as {
        document: {
          querySelector(s: string): { contentDocument: { body: { textContent: string } | null } | null } | null;
        };
      }
    ).document.querySelector(query);
    return frame?.contentDocument?.body?.textContent ?? '';
  }, selector);
}
