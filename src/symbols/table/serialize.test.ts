import { describe, expect, it } from 'vitest';
import { SymbolFileError } from '../errors.js';
import { fixtureTables, manifest } from '../../../test/support/symbols/fixtures.js';
import type { LookupTable } from './lookup-table.js';
import { deserializeTable, serializeTable, TABLE_FORMAT_VERSION } from './serialize.js';

/** Each range start, the address before it and one inside it: every distinct answer the table can give. */
function probeAddresses(table: LookupTable): number[] {
  const starts = [...table.ranges.start];
  return starts.flatMap((start, i) => [start - 1, start, Math.floor((start + (starts[i + 1] ?? start + 2)) / 2)]);
}

const tables = manifest.fixtures.flatMap((fixture) =>
  [...fixtureTables(fixture)].map(([key, table]) => ({ key: `${fixture.id} ${key}`, table })),
);

describe('serializeTable / deserializeTable', () => {
  for (const { key, table } of tables) {
    it(`${key}: round trip gives identical answers`, () => {
      const bytes = serializeTable(table);
      const restored = deserializeTable(bytes);
      expect(restored.meta).toEqual(table.meta);
      expect(restored.anchors).toEqual(table.anchors);
      for (const pc of probeAddresses(table)) expect(restored.lookup(pc)).toEqual(table.lookup(pc));
      expect(serializeTable(restored)).toEqual(bytes);
    });
  }

  it('stores the format version in byte 4 and refuses other versions', () => {
    const bytes = serializeTable(tables[0]!.table);
    expect(bytes[4]).toBe(TABLE_FORMAT_VERSION);
    bytes[4] = TABLE_FORMAT_VERSION + 1;
    expect(() => deserializeTable(bytes)).toThrow(
      expect.objectContaining({ name: 'SymbolFileError', code: 'unsupported' }),
    );
  });

  it('rejects truncated or padded bytes', () => {
    const bytes = serializeTable(tables[0]!.table);
    expect(() => deserializeTable(bytes.subarray(0, bytes.length - 1))).toThrow(SymbolFileError);
    expect(() => deserializeTable(new Uint8Array([...bytes, 0]))).toThrow(SymbolFileError);
    expect(() => deserializeTable(new Uint8Array(3))).toThrow(SymbolFileError);
  });

  it('reads tables at any byte offset of a larger buffer', () => {
    const bytes = serializeTable(tables[0]!.table);
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const restored = deserializeTable(shifted.subarray(3));
    for (const pc of probeAddresses(tables[0]!.table)) expect(restored.lookup(pc)).toEqual(tables[0]!.table.lookup(pc));
  });

  it('is compact: a few dozen bytes per range', () => {
    for (const { table } of tables) expect(serializeTable(table).length).toBeLessThan(2048 + 64 * table.rangeCount);
  });
});
