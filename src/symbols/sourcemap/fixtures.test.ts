/**
 * The committed fixtures of test/fixtures/sourcemaps (esbuild bundles of a small TypeScript app in
 * two releases, traces captured in Chromium and written in the Firefox and Safari layouts from the
 * same positions): every frame of every trace maps to the original position the manifest names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectSourceMap, parseJsTrace, SourceMapTable, symbolicateJs } from './index.js';

const DIR = path.resolve('test/fixtures/sourcemaps');
interface ManifestFrame {
  function: string;
  url: string;
  line: number;
  column: number;
  expected: { source: string; line: number; column: number; function: string } | null;
}
const manifest = JSON.parse(fs.readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as {
  releases: Array<{ version: string; debugId: string | null; js: string; map: string; frames: ManifestFrame[] }>;
};

describe.each(manifest.releases)('release $version', (release) => {
  const table = new SourceMapTable(fs.readFileSync(path.join(DIR, release.map), 'utf8'));
  const bundleUrl = release.frames[0]!.url;

  it.each(['chromium', 'firefox', 'safari'])('maps every frame of the %s trace to its original position', (browser) => {
    const text = fs.readFileSync(path.join(DIR, 'traces', `${release.version}.${browser}.txt`), 'utf8');
    const result = symbolicateJs(text, (frame) => (frame.url === bundleUrl ? table : undefined));
    const expected = release.frames.filter((frame) => frame.expected !== null).map((frame) => ({ ...frame.expected! }));
    // The outermost bundle frame's caller is the page script, which has no map: its name comes from
    // V8's `[as runCheckout]` alias; Firefox and Safari print only the minified name, which stays.
    if (browser !== 'chromium') expected[2]!.function = release.frames[2]!.function.replace(/^Object\.(\w+) .*$/, '$1');
    expect(
      result.frames.map(({ source, lineNumber, column, function: fn }) => ({
        source,
        line: lineNumber,
        column,
        function: fn,
      })),
    ).toEqual(
      expected.map((e) => ({
        source: e.source.replace(/^(\.\.\/)+/, ''),
        line: e.line,
        column: e.column,
        function: e.function,
      })),
    );
    const lines = result.text.split('\n');
    const received = text.split('\n');
    // The page's own frames have no map and stay as received; the header too.
    for (const frame of parseJsTrace(text)!.frames.filter((f) => f.url !== bundleUrl))
      expect(lines[frame.lineIndex]).toBe(received[frame.lineIndex]);
    if (browser === 'chromium') {
      expect(lines[0]).toBe('Error: unknown currency JPY');
      expect(lines[1]).toBe(`    at formatPrice (src/format.ts:${expected[0]!.line}:${expected[0]!.column})`);
    } else {
      expect(result.text).toContain(`checkout@src/cart.ts:${expected[1]!.line}:${expected[1]!.column}`);
    }
    // Source context from sourcesContent, the mapped line inside it.
    const top = result.frames[0]!;
    expect(top.context!.lines[top.lineNumber - top.context!.start]).toContain('throw new Error(`unknown currency');
  });

  it('reads the debug id and the generated file from the map without decoding it', () => {
    const info = inspectSourceMap(fs.readFileSync(path.join(DIR, release.map), 'utf8'));
    expect(info.debugId).toBe(release.debugId === null ? null : release.debugId.replace(/-/g, ''));
    expect(info.file).toBeNull(); // esbuild writes no `file`: the upload pairs the map by its name or the .js comment
    if (release.debugId)
      expect(fs.readFileSync(path.join(DIR, release.js), 'utf8')).toContain(`//# debugId=${release.debugId}`);
  });

  it('leaves a trace untouched when no map resolves', () => {
    const text = fs.readFileSync(path.join(DIR, 'traces', `${release.version}.chromium.txt`), 'utf8');
    expect(symbolicateJs(text, () => undefined)).toEqual({ text, frames: [] });
  });
});

describe('another release', () => {
  it("maps a trace with the other release's map to other lines (releases are not interchangeable)", () => {
    const [first, second] = manifest.releases;
    const table = new SourceMapTable(fs.readFileSync(path.join(DIR, second!.map), 'utf8'));
    const text = fs.readFileSync(path.join(DIR, 'traces', `${first!.version}.chromium.txt`), 'utf8');
    const mapped = symbolicateJs(text, (frame) => (frame.url === first!.frames[0]!.url ? table : undefined));
    expect(mapped.frames[0]?.lineNumber).not.toBe(first!.frames[0]!.expected!.line);
  });
});
