/**
 * Truncated and corrupted ELF, Mach-O and DWARF bytes must either parse or
 * fail with SymbolFileError: never another exception, never a hang, never
 * output out of proportion to the input. (A hang would show as this file
 * timing out; every loop in the readers is bounded by the bytes it consumes
 * or an explicit cap.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLookupTable } from './build.js';
import { bytesSource } from './bytes/source.js';
import { readElf } from './elf/reader.js';
import { SymbolFileError } from './errors.js';
import { identifySymbolFile } from './identify.js';
import { readMacho } from './macho/reader.js';
import { deserializeTable, serializeTable } from './table/serialize.js';
import { fixtureBytes, manifest } from '../../test/support/symbols/fixtures.js';
import { armDartSymbols, crossUnitElf } from '../../test/support/symbols/synthetic-files.js';

// SYMBOLS_FUZZ_RUNS=5000 digs deeper by hand; the default keeps the suite quick.
const RUNS = Number(process.env.SYMBOLS_FUZZ_RUNS ?? 200);

interface Target {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly macho: boolean;
  /** [start, end) of the DWARF sections and of the container headers in the file. */
  readonly dwarf: ReadonlyArray<readonly [number, number]>;
  readonly headers: ReadonlyArray<readonly [number, number]>;
}

function target(path: string, bytes = fixtureBytes(path)): Target {
  const src = bytesSource(bytes);
  if (bytes[0] === 0x7f) {
    const elf = readElf(src, path);
    const dwarf = elf.sections
      .filter((s) => s.name.startsWith('.debug_'))
      .map((s) => [s.offset, s.offset + s.size] as const);
    const tableStart = new DataView(bytes.buffer, bytes.byteOffset).getUint32(40, true);
    return {
      path,
      bytes,
      macho: false,
      dwarf,
      headers: [
        [0, 64],
        [tableStart, bytes.length],
      ],
    };
  }
  const macho = readMacho(src, path);
  const dwarf = macho.slices.flatMap((slice) =>
    slice.sections
      .filter((s) => s.segmentName === '__DWARF')
      .map((s) => [slice.offset + s.offset, slice.offset + s.offset + s.size] as const),
  );
  const headers = [[0, 64] as const, ...macho.slices.map((slice) => [slice.offset, slice.offset + 4096] as const)];
  return { path, bytes, macho: true, dwarf: dwarf.length > 0 ? dwarf : headers, headers };
}

const targets = [
  ...manifest.fixtures.map((f) => f.path),
  ...manifest.fixtures.flatMap((f) => (f.binary ? [f.binary] : f.macho_companion ? [f.macho_companion.path] : [])),
]
  .map((path) => target(path))
  .concat(target('synthetic ELF32 ARM', armDartSymbols()), target('synthetic DWARF64 + DWARF 2', crossUnitElf()));

/** Runs the readers the way the service does; only SymbolFileError may escape. */
function exercise(bytes: Uint8Array, macho: boolean): void {
  const src = bytesSource(bytes);
  allowSymbolFileError(() => identifySymbolFile(src, 'fuzzed'));
  for (const options of macho ? [{ arch: 'arm64' }, { arch: 'x64' }] : [{}]) {
    allowSymbolFileError(() => {
      const table = buildLookupTable(src, options);
      // Output stays proportional to the input, and the table keeps the invariants the reader checks.
      expect(table.rangeCount).toBeLessThanOrEqual(4 * bytes.length + 2);
      const restored = deserializeTable(serializeTable(table));
      for (const pc of [...table.ranges.start].slice(0, 64)) expect(restored.lookup(pc)).toEqual(table.lookup(pc));
    });
  }
}

function allowSymbolFileError(run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof SymbolFileError)) throw error;
  }
}

/** Random byte writes at positions drawn from `regions`. */
function corruption(regions: ReadonlyArray<readonly [number, number]>) {
  const interesting = fc.constantFrom(0x00, 0xff, 0x7f, 0x80, 0x01, 0x10);
  const write = fc.record({
    region: fc.nat(regions.length - 1),
    at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    value: fc.oneof(fc.integer({ min: 0, max: 255 }), interesting),
    width: fc.constantFrom(1, 1, 1, 4),
  });
  return fc.array(write, { minLength: 1, maxLength: 12 });
}

function corrupt(
  bytes: Uint8Array,
  regions: ReadonlyArray<readonly [number, number]>,
  writes: ReadonlyArray<{ region: number; at: number; value: number; width: number }>,
): Uint8Array {
  const copy = bytes.slice();
  for (const { region, at, value, width } of writes) {
    const [start, end] = regions[region]!;
    const position = start + Math.floor(at * (end - start));
    for (let i = 0; i < width && position + i < copy.length; i++) copy[position + i] = value;
  }
  return copy;
}

describe('fuzzed symbol files', () => {
  for (const t of targets) {
    describe(t.path, () => {
      it('truncated at any length: returns or throws SymbolFileError', () => {
        fc.assert(
          fc.property(fc.integer({ min: 0, max: t.bytes.length }), (length) =>
            exercise(t.bytes.subarray(0, length), t.macho),
          ),
          { numRuns: RUNS },
        );
      });

      it('with corrupted DWARF sections: returns or throws SymbolFileError', () => {
        fc.assert(
          fc.property(corruption(t.dwarf), (writes) => exercise(corrupt(t.bytes, t.dwarf, writes), t.macho)),
          { numRuns: RUNS },
        );
      });

      it('with corrupted headers: returns or throws SymbolFileError', () => {
        fc.assert(
          fc.property(corruption(t.headers), (writes) => exercise(corrupt(t.bytes, t.headers, writes), t.macho)),
          { numRuns: RUNS },
        );
      });
    });
  }

  it('random bytes behind real magic numbers: returns or throws SymbolFileError', () => {
    const magics = [
      [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1],
      [0x7f, 0x45, 0x4c, 0x46, 1, 1, 1],
      [0xcf, 0xfa, 0xed, 0xfe],
      [0xce, 0xfa, 0xed, 0xfe],
      [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...magics), fc.uint8Array({ maxLength: 4096 }), (magic, rest) => {
        exercise(new Uint8Array([...magic, ...rest]), magic[0] !== 0x7f);
      }),
      { numRuns: 300 },
    );
  });

  it('corrupted serialized tables: deserialize returns a usable table or throws SymbolFileError', () => {
    const bytes = serializeTable(buildLookupTable(bytesSource(targets[0]!.bytes)));
    const whole: ReadonlyArray<readonly [number, number]> = [[0, bytes.length]];
    fc.assert(
      fc.property(corruption(whole), fc.double({ min: 0, max: 4e6, noNaN: true }), (writes, pc) => {
        allowSymbolFileError(() => deserializeTable(corrupt(bytes, whole, writes)).lookup(pc));
      }),
      { numRuns: 300 },
    );
  });
});
