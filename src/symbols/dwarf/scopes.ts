import { corrupt } from '../errors.js';
import { StringTable } from '../table/strings.js';
import { DW_TAG } from './constants.js';
import { Die, NO_REFERENCE } from './die.js';
import { lineFilePath, type LineTable } from './line-table.js';
import { appendDieRanges } from './ranges.js';
import type { DwarfUnit } from './unit.js';
import type { DwarfUnits } from './units.js';

/**
 * The inline scopes of a program: every DW_TAG_subprogram and
 * DW_TAG_inlined_subroutine that covers code, as parallel columns. A scope's
 * parent is the scope it was inlined into (-1 for a subprogram), and parents
 * always come before their children. callFile/Line/Column give where this
 * scope sits inside its parent, i.e. the location printed for the parent's
 * frame.
 */
export interface Scopes {
  readonly name: number[];
  readonly parent: number[];
  readonly callFile: number[];
  readonly callLine: number[];
  readonly callColumn: number[];
  /** Unit index, which selects the line table for the innermost frame. */
  readonly unit: number[];
}

/** Code ranges of the scopes in DIE order: on overlap the later (deeper) one wins, as in LLVM's address-to-DIE map. */
export interface ScopeRanges {
  readonly low: number[];
  readonly high: number[];
  readonly scope: number[];
}

/** A subroutine DIE on the path from the unit DIE to the current DIE. */
interface OpenSubroutine {
  readonly offset: number;
  readonly inlined: boolean;
  readonly callFile: number;
  readonly callLine: number;
  readonly callColumn: number;
  /** Nearest enclosing subroutine DIE, if any. */
  readonly enclosing: OpenSubroutine | null;
  /** Index in Scopes once some range needed it, else -1. */
  scope: number;
}

/**
 * Name lookups follow DW_AT_abstract_origin / DW_AT_specification like LLVM's
 * DWARFDie::findRecursively; real chains are one or two hops long.
 */
const MAX_NAME_HOPS = 16;

export function collectScopes(
  units: DwarfUnits,
  lineTables: ReadonlyArray<LineTable | null>,
  strings: StringTable,
): { scopes: Scopes; ranges: ScopeRanges } {
  const data = units.data;
  const scopes: Scopes = { name: [], parent: [], callFile: [], callLine: [], callColumn: [], unit: [] };
  const ranges: ScopeRanges = { low: [], high: [], scope: [] };
  const names = new NameResolver(units, strings);
  const die = new Die();
  const dieRanges: number[] = [];
  // Each range costs at least a byte of DIE or range list, unless many DIEs share one list: a corrupt
  // file could multiply a long list by every DIE that names it.
  const maxRanges = data.sections.info.length + data.sections.ranges.length + data.sections.rnglists.length;

  for (const unit of units.list) {
    const lineTable = lineTables[unit.index] ?? null;
    const callFileIds = new Map<number, number>();
    const callFileId = (index: number): number => {
      let id = callFileIds.get(index);
      if (id === undefined) {
        id = lineTable && index >= 0 ? strings.intern(lineFilePath(lineTable, index, unit.compDir)) : StringTable.EMPTY;
        callFileIds.set(index, id);
      }
      return id;
    };
    const materialize = (entry: OpenSubroutine): number => {
      // Create the scopes of the inline chain outermost first, so a parent's index is always smaller.
      const pending: OpenSubroutine[] = [];
      for (let e: OpenSubroutine | null = entry; e && e.scope < 0; e = e.inlined ? e.enclosing : null) pending.push(e);
      for (let i = pending.length - 1; i >= 0; i--) {
        const e = pending[i]!;
        e.scope = scopes.name.length;
        scopes.name.push(names.resolve(e.offset));
        scopes.parent.push(e.inlined ? (e.enclosing?.scope ?? -1) : -1);
        scopes.callFile.push(callFileId(e.callFile));
        scopes.callLine.push(e.callLine >>> 0);
        scopes.callColumn.push(e.callColumn >>> 0);
        scopes.unit.push(unit.index);
      }
      return entry.scope;
    };

    const r = units.walk(unit);
    // One entry per open DIE with children: the nearest subroutine at or above it.
    const open: Array<OpenSubroutine | null> = [];
    while (r.pos < unit.end) {
      if (!die.read(r, unit)) {
        open.pop();
        continue;
      }
      let nearest = open.length > 0 ? open[open.length - 1]! : null;
      if (die.tag === DW_TAG.subprogram || die.tag === DW_TAG.inlined_subroutine) {
        nearest = {
          offset: die.offset,
          inlined: die.tag === DW_TAG.inlined_subroutine,
          callFile: die.callFile,
          callLine: die.callLine,
          callColumn: die.callColumn,
          enclosing: nearest,
          scope: -1,
        };
        dieRanges.length = 0;
        appendDieRanges(data, unit, die, dieRanges);
        if (dieRanges.length > 0) {
          if (ranges.low.length + dieRanges.length / 2 > maxRanges)
            throw corrupt('debug_info: more address ranges than the DWARF can describe');
          const scope = materialize(nearest);
          for (let i = 0; i < dieRanges.length; i += 2) {
            ranges.low.push(dieRanges[i]!);
            ranges.high.push(dieRanges[i + 1]!);
            ranges.scope.push(scope);
          }
        }
      }
      if (die.hasChildren) open.push(nearest);
    }
  }
  return { scopes, ranges };
}

/** DW_AT_name of a DIE or of what it refers to, as a string id (EMPTY when there is none). */
class NameResolver {
  private readonly cache = new Map<number, number>();
  private readonly die = new Die();

  constructor(
    private readonly units: DwarfUnits,
    private readonly strings: StringTable,
  ) {}

  resolve(offset: number): number {
    const cached = this.cache.get(offset);
    if (cached !== undefined) return cached;
    let name = '';
    const pending = [offset];
    const seen = new Set(pending);
    for (let hops = 0; pending.length > 0 && hops < MAX_NAME_HOPS; hops++) {
      const at = pending.pop()!;
      const unit: DwarfUnit | undefined = this.units.dieAt(at, this.die);
      if (!unit) continue;
      if (this.die.nameForm !== 0) {
        name = this.units.data.string(unit, this.die.nameForm, this.die.nameValue) ?? '';
        break;
      }
      // LLVM pushes the origin first and pops the specification first; the same order keeps names identical.
      for (const next of [this.die.abstractOrigin, this.die.specification]) {
        if (next !== NO_REFERENCE && !seen.has(next)) {
          seen.add(next);
          pending.push(next);
        }
      }
    }
    const id = this.strings.intern(name);
    this.cache.set(offset, id);
    return id;
  }
}
