/**
 * Hostile source maps and traces: whatever an uploader sends, reading a map either yields a table
 * or throws SourceMapError (never another exception, never a hang), lookups on any table answer a
 * position or null, and the segment bound refuses a map before it is decoded (so a small upload
 * cannot make a huge table). A hang shows as this file timing out.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectSourceMap, SOURCE_MAP_LIMITS, SourceMapError, SourceMapTable, symbolicateJs } from './index.js';

const RUNS = Number(process.env.SYMBOLS_FUZZ_RUNS ?? 300);
const manifest = JSON.parse(fs.readFileSync('test/fixtures/sourcemaps/manifest.json', 'utf8')) as {
  releases: Array<{ map: string }>;
};
const FIXTURE = fs.readFileSync(path.join('test/fixtures/sourcemaps', manifest.releases[0]!.map), 'utf8');
const fixtureMap = JSON.parse(FIXTURE) as Record<string, unknown>;

/** Reads a map as the ingest does; answers the table or the SourceMapError, rethrowing anything else. */
function read(text: string): SourceMapTable | SourceMapError {
  try {
    inspectSourceMap(text);
    return new SourceMapTable(text);
  } catch (error) {
    if (error instanceof SourceMapError) return error;
    throw error;
  }
}

function probe(table: SourceMapTable): void {
  for (const [line, column] of [
    [1, 1],
    [1, 565],
    [0, 0],
    [-1, 5],
    [2 ** 31, 2 ** 31],
    [1, Number.MAX_SAFE_INTEGER],
    [Number.NaN, 1],
  ] as const) {
    const position = table.lookup(line, column);
    if (position) {
      expect(position.line).toBeGreaterThanOrEqual(1);
      table.context(position.source, position.line);
    }
  }
}

const VLQ = fc.stringMatching(/^[A-Za-z0-9+/,;]{0,400}$/);
const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.constant(null), fc.integer())),
  fc.object(),
);

describe('hostile source maps', () => {
  it('random mappings, sources, names and contents: a table or SourceMapError', () => {
    fc.assert(
      fc.property(
        VLQ,
        fc.array(fc.oneof(fc.string(), fc.constant(null)), { maxLength: 4 }),
        fc.array(fc.string(), { maxLength: 4 }),
        anyValue,
        (mappings, sources, names, content) => {
          const result = read(JSON.stringify({ version: 3, mappings, sources, names, sourcesContent: content }));
          if (result instanceof SourceMapTable) probe(result);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('the fixture map with fields replaced by anything: a table or SourceMapError', () => {
    const fields = ['version', 'mappings', 'sources', 'names', 'sourcesContent', 'sections', 'sourceRoot', 'debugId'];
    fc.assert(
      fc.property(fc.constantFrom(...fields), anyValue, (field, value) => {
        const result = read(JSON.stringify({ ...fixtureMap, [field]: value }));
        if (result instanceof SourceMapTable) probe(result);
      }),
      { numRuns: RUNS },
    );
  });

  it('truncated and byte-flipped map text: a table or SourceMapError', () => {
    fc.assert(
      fc.property(fc.nat(FIXTURE.length), fc.nat(FIXTURE.length), fc.integer({ min: 0, max: 127 }), (cut, at, code) => {
        const text = `${FIXTURE.slice(0, at)}${String.fromCharCode(code)}${FIXTURE.slice(at + 1)}`.slice(
          0,
          Math.max(cut, 1),
        );
        const result = read(text);
        if (result instanceof SourceMapTable) probe(result);
      }),
      { numRuns: RUNS },
    );
  });

  it('indexed maps: nested sections, missing offsets and url sections are refused; good sections map', () => {
    const section = { offset: { line: 0, column: 0 }, map: fixtureMap };
    expect(read(JSON.stringify({ version: 3, sections: [section] }))).toBeInstanceOf(SourceMapTable);
    for (const bad of [
      { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: { version: 3, sections: [] } }] },
      { version: 3, sections: [{ map: fixtureMap }] },
      { version: 3, sections: [{ offset: { line: -1, column: 0 }, map: fixtureMap }] },
      { version: 3, sections: [{ offset: { line: 0, column: 0 }, url: 'https://example.com/a.map' }] },
      { version: 3, sections: Array.from({ length: SOURCE_MAP_LIMITS.sections + 1 }, () => section) },
    ]) {
      expect(read(JSON.stringify(bad))).toBeInstanceOf(SourceMapError);
    }
  });

  it('refuses a map over the segment bound before decoding it (a 4 MB upload cannot build a table of millions of segments)', () => {
    const mappings = ','.repeat(SOURCE_MAP_LIMITS.segments);
    const error = read(JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings }));
    expect(error).toBeInstanceOf(SourceMapError);
    expect((error as SourceMapError).message).toMatch(/mapping segments, over the limit/);
  });

  it('huge VLQ values, negative deltas and out-of-range indexes never escape as other errors', () => {
    for (const mappings of [
      'gggggggggggggggggggggggg',
      '/////////////////////////A',
      'AAAA,DDDD;;;;;;;;;;;;;;;;;;;;;;;;;;;;;DDDD',
      'A',
      'AAgBC',
      'AAAAAAAAAAAA',
      'AZZZZ',
      'AAAA;;;;AAAAA',
    ]) {
      const result = read(
        JSON.stringify({ version: 3, sources: ['a.js'], names: ['n'], sourcesContent: ['x'], mappings }),
      );
      if (result instanceof SourceMapTable) probe(result);
    }
  });

  it('random trace text through the symbolicator with the fixture table: never throws, keeps the line count', () => {
    const table = new SourceMapTable(FIXTURE);
    const line = fc.oneof(
      fc.string(),
      fc
        .tuple(fc.string(), fc.nat(), fc.nat())
        .map(([name, l, c]) => `    at ${name} (https://x/${name}.js:${l}:${c})`),
      fc.tuple(fc.string(), fc.nat(), fc.nat()).map(([name, l, c]) => `${name}@https://x/a.js:${l}:${c}`),
      fc.constant(`${' '.repeat(5000)}at a (b:1:1)`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const text = lines.join('\n');
        const result = symbolicateJs(text, () => table);
        expect(result.text.split('\n')).toHaveLength(text.split('\n').length);
      }),
      { numRuns: RUNS },
    );
  });
});
