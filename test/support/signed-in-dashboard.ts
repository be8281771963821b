/**
 * A signed-in dashboard in Chromium against a real service on embedded engines, for the browser
 * suites of the telemetry pages: one registered user (through the real route) with its first
 * project, the session put where the web app keeps it, the page watched for console errors and
 * failed requests, and light/dark screenshots with an axe check. Data is sent by each suite through
 * the real ingest routes (src/demo/demo-data.ts, the OpenTelemetry SDK).
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  captureLightAndDark,
  launchChromium,
  SCREENSHOTS,
  storeSession,
  watchProblems,
  type LaunchedBrowser,
} from './browser.js';
import { listeningTestService, registerUser, type TestService } from './service.js';

export { SCREENSHOTS };

export interface SignedInDashboard {
  service: TestService;
  /** The service's loopback origin, e.g. http://127.0.0.1:43121 */
  base: string;
  browser: LaunchedBrowser;
  page: Page;
  watch: ReturnType<typeof watchProblems>;
  session: string;
  projectId: string;
  projectToken: string;
  /** GET an API path with the user's session; the parsed JSON (throws on a non-2xx answer). */
  api<T>(url: string): Promise<T>;
  /** POST a list route of the read API with the user's session and an empty body (the default range); the parsed JSON (a non-200 answer fails the test). */
  list<T>(url: string): Promise<T>;
  /** Opens a dashboard path with `projectId` (and any other query) set. */
  open(pathname: string, query?: Record<string, string>): Promise<void>;
  /** Light and dark full-page screenshots named `name`, each checked with axe. */
  capture(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openSignedInDashboard(
  options: { env?: Record<string, string>; viewport?: { width: number; height: number } } = {},
): Promise<SignedInDashboard> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const service = await listeningTestService(options.env ?? {});
  const base = service.url;
  const user = await registerUser(service.app);
  const browser = await launchChromium({ baseURL: base, ...(options.viewport ? { viewport: options.viewport } : {}) });
  await storeSession(browser.context, user.token);
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const watch = watchProblems(page);

  return {
    service,
    base,
    browser,
    page,
    watch,
    session: user.token,
    projectId: user.project.id,
    projectToken: user.project.token,
    async api<T>(url: string): Promise<T> {
      const response = await service.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${user.token}` },
      });
      if (response.statusCode >= 300) throw new Error(`GET ${url}: ${response.statusCode} ${response.body}`);
      return response.json() as T;
    },
    async list<T>(url: string): Promise<T> {
      const response = await service.app.inject({
        method: 'POST',
        url: `${url}?projectId=${user.project.id}`,
        headers: { authorization: `Bearer ${user.token}` },
        payload: {},
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as T;
    },
    async open(pathname: string, query: Record<string, string> = {}): Promise<void> {
      const search = new URLSearchParams({ projectId: user.project.id, ...query });
      await page.goto(`${pathname}?${search}`);
    },
    capture: (name: string) => captureLightAndDark(page, name),
    async close(): Promise<void> {
      await browser.close();
      await service.close();
    },
  };
}
