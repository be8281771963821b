import { describe, expect, it } from 'vitest';
import { DART_FRAME_CAP, symbolicateDart } from './dart/trace.js';
import { symbolicateIos } from './ios/trace.js';
import { detectTraceFlavor } from './trace/flavor.js';
import {
  fixtureById,
  fixtureTables,
  fixtureText,
  manifest,
  type ExpectedFrame,
  type ManifestFixture,
} from '../../test/support/symbols/fixtures.js';
import type { LookupTable } from './table/lookup-table.js';

const tablesByFixture = new Map<string, Map<string, LookupTable>>();
function tablesOf(fixture: ManifestFixture): Map<string, LookupTable> {
  let tables = tablesByFixture.get(fixture.id);
  if (!tables) {
    tables = fixtureTables(fixture);
    tablesByFixture.set(fixture.id, tables);
  }
  return tables;
}

describe('fixture traces symbolicate exactly as llvm-symbolizer does', () => {
  it('covers all 20 traces of the manifest', () => {
    expect(manifest.traces).toHaveLength(20);
  });

  for (const trace of manifest.traces) {
    const fixture = fixtureById(trace.fixture);
    const isDart = fixture.kind === 'dart_symbols';

    it(`${trace.trace} → expected text`, () => {
      const tables = tablesOf(fixture);
      const text = fixtureText(trace.trace);
      const resolve = (debugId: string, arch: string): LookupTable | undefined => tables.get(`${debugId}/${arch}`);
      expect(detectTraceFlavor(text)).toBe(isDart ? 'dart' : 'ios');
      const output = isDart ? symbolicateDart(text, resolve) : symbolicateIos(text, resolve);
      expect(output).toBe(fixtureText(trace.expected));
      if (trace.truncated_to_cap)
        expect(output.split('\n').filter((l) => l.includes('#'))).toHaveLength(DART_FRAME_CAP);
    });

    it(`${trace.trace} → every input frame's pc resolves to the expected chain`, () => {
      const expected: { frames: ExpectedFrame[]; matches_fixture: boolean } = JSON.parse(
        fixtureText(trace.expected_json),
      );
      const tables = [...tablesOf(fixture).values()];
      const table = isDart
        ? tables[0]!
        : tables.find((t) => t.meta.arch === (trace.slice === 'x86_64' ? 'x64' : trace.slice));
      for (const frame of expected.frames) {
        if (frame.pc === undefined || !expected.matches_fixture) continue;
        const chain = table!.lookup(Number.parseInt(frame.pc, 16));
        if (frame.resolved) {
          expect(chain, frame.raw).toEqual(
            frame.frames.map(({ function: fn, file, line, column }) => ({ function: fn, file, line, column })),
          );
        } else {
          expect(chain, frame.raw).toBeUndefined();
        }
      }
    });
  }
});
