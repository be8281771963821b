/**
 * The issue page of a source-mapped browser error in Chromium: the esbuild fixture's maps uploaded
 * with the project's source-map token, the trace captured in Chromium reported as received, and the
 * page showing the original frames marked "source map" with the source around each line, the raw
 * minified trace one click away, and the mapped-frames record kept out of the attribute table.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';
import type { IssueList } from '../../web/src/pages/issues/types.js';

const DIR = path.resolve('test/fixtures/sourcemaps');
const manifest = JSON.parse(fs.readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as {
  releases: Array<{ version: string; js: string; map: string }>;
};
const release = manifest.releases[0]!;

describe('source-mapped issue in Chromium', () => {
  let dashboard: SignedInDashboard;
  let page: Page;

  beforeAll(async () => {
    dashboard = await openSignedInDashboard();
    page = dashboard.page;
    const app = dashboard.service.app;
    const rows = await dashboard.service.services.meta.query<{ source_map_token: string }>(
      'SELECT source_map_token FROM projects WHERE id = $1',
      [dashboard.projectId],
    );
    const token = rows[0]!.source_map_token;
    const boundary = '----sightlinebrowser';
    const parts = [release.js, release.map].map((file) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="assets/${path.basename(file)}"\r\n\r\n`,
        ),
        fs.readFileSync(path.join(DIR, file)),
        Buffer.from('\r\n'),
      ]),
    );
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="release"\r\n\r\n${release.version}\r\n`),
      ...parts,
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const uploaded = await app.inject({
      method: 'POST',
      url: '/api/sourcemaps/upload',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(uploaded.json()).toEqual({ uploaded: 2, skipped: [] });
    const stackTrace = fs.readFileSync(path.join(DIR, 'traces', `${release.version}.chromium.txt`), 'utf8');
    const reported = await app.inject({
      method: 'POST',
      url: '/api/report',
      headers: { authorization: `Bearer ${dashboard.projectToken}`, 'content-type': 'application/json' },
      payload: {
        appVersion: release.version,
        serverName: '',
        collectionFrames: [
          {
            stackTraces: [
              { stackTrace, recordedAt: new Date().toISOString(), isMessage: false, attributes: { page: '/checkout' } },
            ],
          },
        ],
      },
    });
    expect(reported.statusCode).toBe(200);
  }, 300_000);

  afterEach(() => {
    expect(dashboard.watch.problems).toEqual([]);
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  it('marks the mapped frames, shows the original source around each, and keeps the raw trace one click away', async () => {
    const response = await dashboard.service.app.inject({
      method: 'POST',
      url: `/api/exception-stack-traces?projectId=${dashboard.projectId}`,
      headers: { authorization: `Bearer ${dashboard.session}` },
      payload: { search: 'unknown currency' },
    });
    const group = (response.json() as IssueList).items[0]!;
    await dashboard.open(`/issues/${group.hash}`);
    const frames = page.getByRole('list', { name: 'Stack frames' });
    await frames.waitFor();
    await expect.poll(() => frames.locator('[data-mapped="true"]').count()).toBe(3);
    expect(await frames.locator('[data-mapped="true"]').first().innerText()).toContain('formatPrice');
    const source = page.getByRole('list', { name: /^Source of src\/format\.ts around line \d+$/ });
    expect(await source.locator('[aria-current="location"]').innerText()).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture app's source line, template literal and all
      'throw new Error(`unknown currency ${currency}`);',
    );
    // The page script's frames had no map: shown as received, unmarked.
    expect(await frames.locator('[data-frame]:not([data-mapped])').count()).toBe(2);
    // The record of mapped frames is not an attribute row; the client's own attribute is.
    const attributes = page.getByRole('table', { name: 'Occurrence attributes' });
    expect(await attributes.innerText()).toContain('/checkout');
    expect(await attributes.innerText()).not.toContain('sightline.frames');
    await dashboard.capture('issue-source-mapped');
    await page.getByRole('button', { name: 'Show raw trace' }).click();
    expect(await page.getByLabel('Raw stack trace').innerText()).toContain('at c (https://shop.example.com/assets/');
  });
});
