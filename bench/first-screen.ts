/**
 * The dashboard's first screen: the JavaScript and CSS that Chromium loads to show `/login`
 * (signed out) and `/` (signed in, the shell and home), from the built web/dist served by the
 * service. Raw bytes as served, and gzip bytes (level 6, what a compressing proxy sends) of each
 * file loaded until the network is idle, code-split chunks included. Goal: under 200 KB gzip.
 * Needs `npm run build` first and Debian's chromium.
 */
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/browser.js';
import { assetBytes, assetLines, assetList, collectAssets, kb, type Loaded } from './page-assets.js';
import { startBenchService } from './service.js';
import { report } from './support.js';

async function loadedBy(page: Page, path: string, ready: () => Promise<unknown>): Promise<Loaded[]> {
  const collected = collectAssets(page);
  await page.goto(path, { waitUntil: 'networkidle' });
  await ready();
  return collected();
}

const service = await startBenchService('first-screen');
const base = await service.app.listen({ port: 0, host: '127.0.0.1' });
/** Each screen in a fresh browser profile: nothing comes from a cache. */
async function coldLoad(
  path: string,
  session: string | null,
  ready: (page: Page) => Promise<unknown>,
): Promise<Loaded[]> {
  const browser = await launchChromium({ baseURL: base });
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    if (session !== null) {
      // The session is set on the origin first (a file the app does not load), as sign-in would.
      await page.goto('/favicon.svg');
      await page.evaluate(`localStorage.setItem('sightline.session', ${JSON.stringify(session)})`);
    }
    return await loadedBy(page, path, () => ready(page));
  } finally {
    await browser.close();
  }
}

try {
  const login = await coldLoad('/login', null, (page) => page.getByRole('button', { name: 'Sign in' }).waitFor());
  const signedIn = await coldLoad('/', service.owner.token, (page) =>
    page.getByRole('navigation', { name: 'Main' }).waitFor(),
  );

  const lines = (name: string, files: Loaded[]): Array<[string, string]> => [
    ...assetLines(name, files),
    [`${name}: total gzip (goal < 200 KB)`, kb(assetBytes(files, 'gzip'))],
  ];
  report('dashboard first screen (bytes Chromium loads, gzip level 6)', [
    ...lines('/login', login),
    ...lines('/ (signed in)', signedIn),
  ]);
  for (const [name, files] of [
    ['/login', login],
    ['/', signedIn],
  ] as const)
    process.stdout.write(`  ${name}: ${assetList(files)}\n`);
} finally {
  await service.close();
}
