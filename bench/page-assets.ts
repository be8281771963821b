/**
 * The JavaScript and CSS a page loads in Chromium (bench/first-screen.ts, bench/dashboard-pages.ts):
 * each script and stylesheet response's body, raw as served and gzipped at level 6 (the service
 * sends them uncompressed; a compressing proxy in front sends about the gzip figure).
 */
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { fmt } from './support.js';

export interface Loaded {
  url: string;
  kind: 'script' | 'stylesheet';
  raw: number;
  gzip: number;
}

/** Starts collecting the page's scripts and stylesheets; the returned function stops and answers them. */
export function collectAssets(page: Page): () => Promise<Loaded[]> {
  const files: Array<Promise<Loaded>> = [];
  const onResponse = (response: Response) => {
    const kind = response.request().resourceType();
    if (kind !== 'script' && kind !== 'stylesheet') return;
    const file = response.body().then(
      (body): Loaded => ({
        url: new URL(response.url()).pathname,
        kind,
        raw: body.length,
        gzip: gzipSync(body, { level: 6 }).length,
      }),
    );
    file.catch(() => {}); // reported when the files are asked for, not as an unhandled rejection
    files.push(file);
  };
  page.on('response', onResponse);
  return () => {
    page.off('response', onResponse);
    return Promise.all(files);
  };
}

export const kb = (bytes: number): string => `${fmt(bytes / 1024, 1)} KB`;

export function assetBytes(files: Loaded[], key: 'raw' | 'gzip', kind?: Loaded['kind']): number {
  return files.filter((f) => !kind || f.kind === kind).reduce((total, f) => total + f[key], 0);
}

/** `name: JavaScript raw / gzip`, the same of CSS, and the file counts. */
export function assetLines(name: string, files: Loaded[]): Array<[string, string]> {
  return [
    [
      `${name}: files (scripts + stylesheets)`,
      `${files.filter((f) => f.kind === 'script').length} + ${files.filter((f) => f.kind === 'stylesheet').length}`,
    ],
    [
      `${name}: JavaScript raw / gzip`,
      `${kb(assetBytes(files, 'raw', 'script'))} / ${kb(assetBytes(files, 'gzip', 'script'))}`,
    ],
    [
      `${name}: CSS raw / gzip`,
      `${kb(assetBytes(files, 'raw', 'stylesheet'))} / ${kb(assetBytes(files, 'gzip', 'stylesheet'))}`,
    ],
  ];
}

/** Each file by name with its gzip size, for the report's detail line. */
export function assetList(files: Loaded[]): string {
  return files.map((f) => `${f.url.replace('/assets/', '')} ${kb(f.gzip)}`).join(', ');
}
