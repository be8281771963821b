/**
 * The dashboard's first screen: the JavaScript and CSS that Chromium loads to show `/login`
 * (signed out) and `/` (signed in, the shell and home), from the built web/dist served by the
 * service. Raw bytes as served, and gzip bytes (level 6, what a compressing proxy sends) of each
 * file loaded until the network is idle, code-split chunks included. Goal: under 200 KB gzip.
 * Needs `npm run build` first and Debian's chromium.
 */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/browser.js';
import { startBenchService } from './service.js';
import { fmt, report } from './support.js';

interface Loaded {
  url: string;
  kind: 'script' | 'stylesheet';
  raw: number;
  gzip: number;
}

async function loadedBy(page: Page, path: string, ready: () => Promise<unknown>): Promise<Loaded[]> {
  const files: Array<Promise<Loaded>> = [];
  const onResponse = (response: import('playwright-core').Response) => {
    const kind = response.request().resourceType();
    if (kind !== 'script' && kind !== 'stylesheet') return;
    files.push(response.body().then((body) => ({ url: new URL(response.url()).pathname, kind, raw: body.length, gzip: gzipSync(body, { level: 6 }).length })));
  };
  page.on('response', onResponse);
  await page.goto(path, { waitUntil: 'networkidle' });
  await ready();
  page.off('response', onResponse);
  return Promise.all(files);
}

const service = await startBenchService('first-screen');
const base = await service.app.listen({ port: 0, host: '127.0.0.1' });
/** Each screen in a fresh browser profile: nothing comes from a cache. */
async function coldLoad(path: string, session: string | null, ready: (page: Page) => Promise<unknown>): Promise<Loaded[]> {
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
  const signedIn = await coldLoad('/', service.owner.token, (page) => page.getByRole('navigation', { name: 'Main' }).waitFor());

  const sum = (files: Loaded[], key: 'raw' | 'gzip', kind?: Loaded['kind']) => files.filter((f) => !kind || f.kind === kind).reduce((total, f) => total + f[key], 0);
  const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`;
  const lines = (name: string, files: Loaded[]): Array<[string, string]> => [
    [`${name}: files (scripts + stylesheets)`, `${files.filter((f) => f.kind === 'script').length} + ${files.filter((f) => f.kind === 'stylesheet').length}`],
    [`${name}: JavaScript raw / gzip`, `${kb(sum(files, 'raw', 'script'))} / ${kb(sum(files, 'gzip', 'script'))}`],
    [`${name}: CSS raw / gzip`, `${kb(sum(files, 'raw', 'stylesheet'))} / ${kb(sum(files, 'gzip', 'stylesheet'))}`],
    [`${name}: total gzip (goal < 200 KB)`, kb(sum(files, 'gzip'))],
  ];
  report('dashboard first screen (bytes Chromium loads, gzip level 6)', [...lines('/login', login), ...lines('/ (signed in)', signedIn)]);
  for (const [name, files] of [['/login', login], ['/', signedIn]] as const) {
    process.stdout.write(`  ${name}: ${files.map((f) => `${f.url.replace('/assets/', '')} ${kb(f.gzip)}`).join(', ')}\n`);
  }
} finally {
  await service.close();
}
