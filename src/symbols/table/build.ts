import { DwarfData } from '../dwarf/data.js';
import { lineFilePath, readLineTable, type LineTable } from '../dwarf/line-table.js';
import { collectScopes, type Scopes } from '../dwarf/scopes.js';
import type { DwarfSections } from '../dwarf/sections.js';
import { DwarfUnits } from '../dwarf/units.js';
import { float64Column, int32Column, uint32Column } from './columns.js';
import { LookupTable, type TableMeta } from './lookup-table.js';
import { paintIntervals, type Segments } from './painter.js';
import { StringTable } from './strings.js';

/**
 * Turns DWARF into a LookupTable with the semantics of llvm-symbolizer
 * --inlining --functions=short: the innermost scope covering pc (subprogram
 * or inlined subroutine) gives the first frame, located by the unit's line
 * table; each enclosing inline level adds a frame located at the call site.
 * Addresses whose chain lacks a function name or file are left out: the
 * fixtures' oracle counts those as unresolved, and so does the spec.
 */
export function tableFromDwarf(
  sections: DwarfSections,
  meta: TableMeta,
  anchors: ReadonlyMap<string, number>,
): LookupTable {
  const data = new DwarfData(sections);
  const units = new DwarfUnits(data);
  const strings = new StringTable();

  const parsedLineTables = new Map<number, LineTable>();
  const lineTables = units.list.map((unit) => {
    if (unit.stmtList === null) return null;
    let table = parsedLineTables.get(unit.stmtList);
    if (!table) {
      table = readLineTable(data, unit, unit.stmtList);
      parsedLineTables.set(unit.stmtList, table);
    }
    return table;
  });

  const { scopes, ranges } = collectScopes(units, lineTables, strings);
  const painted = paintIntervals(ranges.low, ranges.high);
  const resolvable = chainIsResolvable(scopes);
  // Units may share a line program; file paths depend on the unit's comp_dir, so they are interned per unit.
  const sequenceMaps = new Map<LineTable, Segments>();
  const filePathIds = new Map<number, Map<number, number>>();
  const filePathId = (unitIndex: number, table: LineTable, fileIndex: number): number => {
    let ids = filePathIds.get(unitIndex);
    if (!ids) filePathIds.set(unitIndex, (ids = new Map()));
    let id = ids.get(fileIndex);
    if (id === undefined) {
      id = strings.intern(lineFilePath(table, fileIndex, units.list[unitIndex]!.compDir));
      ids.set(fileIndex, id);
    }
    return id;
  };

  const out = new RangeWriter();
  for (let i = 0; i < painted.start.length; i++) {
    const scope = ranges.scope[painted.owner[i]!]!;
    const unitIndex = scopes.unit[scope]!;
    const table = lineTables[unitIndex];
    if (!resolvable[scope] || !table) continue;
    let sequenceMap = sequenceMaps.get(table);
    if (!sequenceMap) sequenceMaps.set(table, (sequenceMap = paintSequences(table)));
    const from = painted.start[i]!;
    const to = painted.end[i]!;
    const { address, file, line, column } = table.rows;
    for (
      let piece = firstEndingAfter(sequenceMap.end, from);
      piece < sequenceMap.start.length && sequenceMap.start[piece]! < to;
      piece++
    ) {
      const sequence = table.sequences[sequenceMap.owner[piece]!]!;
      const pieceEnd = Math.min(to, sequenceMap.end[piece]!);
      let cursor = Math.max(from, sequenceMap.start[piece]!);
      // A row covers [its address, the next row's address); of rows sharing an address the last one wins.
      for (
        let row = lastRowAtOrBefore(table, sequence.firstRow, sequence.endRow, cursor);
        row < sequence.endRow && cursor < pieceEnd;
        row++
      ) {
        const rowEnd = Math.min(pieceEnd, row + 1 < sequence.endRow ? address.at(row + 1) : sequence.high);
        if (cursor >= rowEnd) continue;
        const fileId = filePathId(unitIndex, table, file.at(row));
        if (fileId !== StringTable.EMPTY) out.add(cursor, rowEnd, scope, fileId, line.at(row), column.at(row));
        cursor = rowEnd;
      }
    }
  }
  return compact(out, scopes, strings, meta, anchors);
}

/** A chain resolves only if every frame has a function name and a file (leaf file checked per range). */
function chainIsResolvable(scopes: Scopes): Uint8Array {
  const ok = new Uint8Array(scopes.name.length);
  for (let s = 0; s < ok.length; s++) {
    const parent = scopes.parent[s]!;
    const named = scopes.name[s] !== StringTable.EMPTY;
    ok[s] = named && (parent < 0 || (scopes.callFile[s] !== StringTable.EMPTY && ok[parent] === 1)) ? 1 : 0;
  }
  return ok;
}

/**
 * Which sequence answers for each address. Sequences rarely overlap; when they
 * do, LLVM answers from the one with the smallest end address, so those are
 * painted last.
 */
function paintSequences(table: LineTable): Segments {
  const order = table.sequences.map((_, i) => i).sort((a, b) => table.sequences[b]!.high - table.sequences[a]!.high);
  const painted = paintIntervals(
    order.map((i) => table.sequences[i]!.low),
    order.map((i) => table.sequences[i]!.high),
  );
  return { ...painted, owner: painted.owner.map((i) => order[i]!) };
}

/** LLVM's findRowInSeq: upper_bound over the rows after the first, minus one. */
function lastRowAtOrBefore(table: LineTable, firstRow: number, endRow: number, pc: number): number {
  const address = table.rows.address;
  let low = firstRow + 1;
  let high = endRow;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (address.at(mid) <= pc) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}

function firstEndingAfter(ends: readonly number[], pc: number): number {
  let low = 0;
  let high = ends.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ends[mid]! <= pc) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Collects resolved ranges in address order, merging neighbours with equal answers and marking gaps. */
class RangeWriter {
  readonly start = float64Column();
  readonly scope = int32Column();
  readonly file = uint32Column();
  readonly line = uint32Column();
  readonly column = uint32Column();
  private end = Number.NEGATIVE_INFINITY;

  add(start: number, end: number, scope: number, file: number, line: number, column: number): void {
    const last = this.start.length - 1;
    const same =
      last >= 0 &&
      this.scope.at(last) === scope &&
      this.file.at(last) === file &&
      this.line.at(last) === line &&
      this.column.at(last) === column;
    if (start === this.end && same) {
      this.end = end;
      return;
    }
    if (last >= 0 && start > this.end) this.push(this.end, -1, 0, 0, 0);
    this.push(start, scope, file, line, column);
    this.end = end;
  }

  /** Closes the table with the gap after the last range. */
  finish(): void {
    if (this.start.length > 0) this.push(this.end, -1, 0, 0, 0);
  }

  private push(start: number, scope: number, file: number, line: number, column: number): void {
    this.start.push(start);
    this.scope.push(scope);
    this.file.push(file);
    this.line.push(line);
    this.column.push(column);
  }
}

/** Keeps only the scopes and strings that resolved ranges reach, renumbered in their original order. */
function compact(
  out: RangeWriter,
  scopes: Scopes,
  strings: StringTable,
  meta: TableMeta,
  anchors: ReadonlyMap<string, number>,
): LookupTable {
  out.finish();
  const UNUSED = -1;
  const rangeScopes = out.scope.toArray();
  const scopeIndex = new Int32Array(scopes.name.length).fill(UNUSED);
  for (const scope of rangeScopes) {
    for (let s = scope; s >= 0 && scopeIndex[s] === UNUSED; s = scopes.parent[s]!) scopeIndex[s] = 0;
  }
  let kept = 0;
  for (let s = 0; s < scopeIndex.length; s++) if (scopeIndex[s] !== UNUSED) scopeIndex[s] = kept++;

  const keptStrings = new StringTable();
  const keepString = (id: number): number => keptStrings.intern(strings.get(id));
  const name = new Uint32Array(kept);
  const parent = new Int32Array(kept);
  const callFile = new Uint32Array(kept);
  const callLine = new Uint32Array(kept);
  const callColumn = new Uint32Array(kept);
  for (let s = 0; s < scopeIndex.length; s++) {
    const index = scopeIndex[s]!;
    if (index === UNUSED) continue;
    const oldParent = scopes.parent[s]!;
    name[index] = keepString(scopes.name[s]!);
    parent[index] = oldParent < 0 ? -1 : scopeIndex[oldParent]!;
    callFile[index] = keepString(scopes.callFile[s]!);
    callLine[index] = scopes.callLine[s]!;
    callColumn[index] = scopes.callColumn[s]!;
  }
  const file = out.file.toArray();
  for (let i = 0; i < file.length; i++) file[i] = keepString(file[i]!);
  for (let i = 0; i < rangeScopes.length; i++) if (rangeScopes[i]! >= 0) rangeScopes[i] = scopeIndex[rangeScopes[i]!]!;
  const ranges = {
    start: out.start.toArray(),
    scope: rangeScopes,
    file,
    line: out.line.toArray(),
    column: out.column.toArray(),
  };
  return new LookupTable(
    meta,
    anchors,
    keptStrings.toArray(),
    { name, parent, callFile, callLine, callColumn },
    ranges,
  );
}
