/** One symbolicated frame: what llvm-symbolizer --inlining prints for one level of an inline chain. */
export interface SymbolFrame {
  readonly function: string;
  readonly file: string;
  /** 0 when the line table has no line for the address. */
  readonly line: number;
  /** 0 when unknown. */
  readonly column: number;
}

export interface TableMeta {
  readonly format: 'elf' | 'macho';
  /** Dart-style architecture name (arm64, x64, arm, ia32), or null when the CPU is not one of them. */
  readonly arch: string | null;
  /** GNU build id (ELF) or LC_UUID (Mach-O slice), lowercase hex; null for an ELF without a build-id note. */
  readonly debugId: string | null;
}

/** Inline scopes; `parent[i] < i` for every scope with a parent. */
export interface ScopeColumns {
  readonly name: Uint32Array;
  readonly parent: Int32Array;
  readonly callFile: Uint32Array;
  readonly callLine: Uint32Array;
  readonly callColumn: Uint32Array;
}

/**
 * Address ranges: range i covers [start[i], start[i + 1]); starts strictly
 * increase and the last range is a gap that closes the table. scope is -1 for
 * a gap (no DWARF resolves those addresses).
 */
export interface RangeColumns {
  readonly start: Float64Array;
  readonly scope: Int32Array;
  readonly file: Uint32Array;
  readonly line: Uint32Array;
  readonly column: Uint32Array;
}

/**
 * pc → inline chain, innermost first. Built from DWARF by buildLookupTable or
 * restored by deserializeTable; immutable and safe to share between requests.
 */
export class LookupTable {
  constructor(
    readonly meta: TableMeta,
    /** Where the trace's offsets start: `_kDart*SnapshotInstructions` symbol values (ELF), `__TEXT` vmaddr (Mach-O). */
    readonly anchors: ReadonlyMap<string, number>,
    readonly strings: readonly string[],
    readonly scopes: ScopeColumns,
    readonly ranges: RangeColumns,
  ) {}

  get rangeCount(): number {
    return this.ranges.start.length;
  }

  /** Frames for `pc`, innermost first, or undefined when no DWARF covers it. */
  lookup(pc: number): SymbolFrame[] | undefined {
    const { start, scope, file, line, column } = this.ranges;
    let low = 0;
    let high = start.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (start[mid]! <= pc) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    if (found < 0) return undefined;
    let current = scope[found]!;
    if (current < 0) return undefined;
    const { name, parent, callFile, callLine, callColumn } = this.scopes;
    const frames: SymbolFrame[] = [
      {
        function: this.text(name[current]!),
        file: this.text(file[found]!),
        line: line[found]!,
        column: column[found]!,
      },
    ];
    // parent[i] < i, so this walk ends.
    for (let outer = parent[current]!; outer >= 0; current = outer, outer = parent[current]!) {
      frames.push({
        function: this.text(name[outer]!),
        file: this.text(callFile[current]!),
        line: callLine[current]!,
        column: callColumn[current]!,
      });
    }
    return frames;
  }

  /** Bytes held by the columns and strings (UTF-16 estimate), for cache accounting. */
  get approximateBytes(): number {
    const columns = [...Object.values(this.scopes), ...Object.values(this.ranges)] as ArrayBufferView[];
    const columnBytes = columns.reduce((sum, column) => sum + column.byteLength, 0);
    const stringBytes = this.strings.reduce((sum, text) => sum + 2 * text.length + 16, 0);
    return columnBytes + stringBytes;
  }

  private text(id: number): string {
    return this.strings[id] ?? '';
  }
}
