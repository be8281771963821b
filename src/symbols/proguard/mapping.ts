/**
 * R8/ProGuard `mapping.txt` reader, hand-written: no maintained JavaScript retrace library exists
 * (npm has none; the maintained ones are R8's own retrace in Java and Sentry's `proguard` crate in
 * Rust). Format: R8's "R8, Retrace and map file versioning" document and ProGuard's manual.
 *
 *     # compiler: R8                                          header comments (kept: pg_map_id, pg_map_hash)
 *     # {"id":"com.android.tools.r8.mapping","version":"2.2"}
 *     com.example.Cart -> a.b:                                class: original -> obfuscated
 *     # {"id":"sourceFile","fileName":"Cart.kt"}              class metadata: source file, synthesized
 *         int[] prices -> a                                   field (ignored)
 *         11:15:int total() -> a                              method with its obfuscated line range
 *         2007:2007:int com.example.PriceMath.perUnit(int,int):7:7 -> a   an inlined frame ...
 *         2007:2007:int total():13 -> a                       ... and its caller: one chain, innermost first
 *         # {"id":"com.android.tools.r8.synthesized"}        method metadata: synthesized, outline,
 *                                                             outlineCallsite, rewriteFrame
 *
 * Only what retracing needs is kept: per obfuscated class its original name, source file and its
 * methods' ranges by obfuscated name; fields, return types and parameters are dropped.
 * Hostile input: every line costs time linear in its length (no regular expression over a
 * whole line can backtrack), lines over MAX_MAPPING_LINE are skipped, and the numbers kept are
 * bounded, so a parse takes time and memory proportional to the file.
 */
import { corrupt } from '../errors.js';

/** One frame of an inline chain, as the mapping names it. */
export interface MappedFrame {
  /** Original class (binary name, `$` for nested classes). */
  readonly className: string;
  readonly methodName: string;
  /** Original line, 0 when the mapping has none. */
  readonly line: number;
  readonly sourceFile: string;
}

/** One mapping line of a method: `obfStart:obfEnd:ret [origClass.]name(args)[:origStart[:origEnd]] -> obfName`. */
interface MethodRange {
  /** -1 for a method line without a range (no line information). */
  readonly obfStart: number;
  readonly obfEnd: number;
  /** null when the original class is the class being mapped. */
  readonly origClass: string | null;
  readonly origName: string;
  /** -1 when absent (the obfuscated line is the original line). */
  readonly origStart: number;
  /** -1 when absent (every obfuscated line maps to origStart). */
  readonly origEnd: number;
  synthesized: boolean;
  outline: boolean;
  /** outlineCallsite: outline position -> position in this method. */
  callsite: Map<number, number> | null;
  /** rewriteFrame rules: throws(descriptor) conditions ANDed, frames to drop from the inner end. */
  rewrites: Array<{ throws: string[]; removeInnerFrames: number }> | null;
}

interface ClassEntry {
  readonly original: string;
  sourceFile: string | null;
  synthesized: boolean;
  /** Obfuscated method name -> its lines in file order (consecutive equal ranges form a chain). */
  readonly methods: Map<string, MethodRange[]>;
}

/** A line over this is no mapping line R8 or ProGuard writes worth reading; it is skipped. */
export const MAX_MAPPING_LINE = 64 * 1024;
/** Obfuscated and original line numbers are u16 in class files; R8's catch-all range ends at 65535. */
const MAX_LINE = 1 << 24;
/** Entries of an outlineCallsite positions map kept per method line. */
const MAX_CALLSITE_POSITIONS = 4096;
const SYNTHESIZED_LINE = '# {"id":"com.android.tools.r8.synthesized"}';

export interface MappingHeader {
  /** `# pg_map_id: …`, lowercase. */
  readonly mapId: string | null;
  /** The SHA-256 of `# pg_map_hash: SHA-256 …`, lowercase. */
  readonly mapHash: string | null;
}

export class RetraceMapping {
  /** Obfuscated class name -> entry. */
  private readonly classes = new Map<string, ClassEntry>();
  /** Original class name -> source file from its metadata. */
  private readonly sourceFiles = new Map<string, string>();
  header: MappingHeader = { mapId: null, mapHash: null };
  /** Method lines kept (a size measure for the cache bound and the benchmark). */
  methodLines = 0;

  static parse(text: string): RetraceMapping {
    const mapping = new RetraceMapping();
    mapping.read(text);
    return mapping;
  }

  /** The original name of an obfuscated class, or undefined when the mapping does not name it. */
  originalClass(obfuscated: string): string | undefined {
    return this.classes.get(obfuscated)?.original;
  }

  /**
   * The inline chains (innermost frame first) an obfuscated frame may stand for: one when the
   * mapping is unambiguous, several when it is not (an overloaded name without a line), none
   * when the class or method is not in the mapping. `line` is null when the frame has none.
   */
  lookup(obfClass: string, obfMethod: string, line: number | null): RangeChain[] {
    const entry = this.classes.get(obfClass);
    if (!entry) return [];
    const ranges = entry.methods.get(obfMethod);
    if (!ranges) return [];
    const chains = groupChains(ranges);
    let picked: MethodRange[][];
    if (line !== null) {
      picked = chains.filter(
        (chain) => chain[0]!.obfStart >= 0 && chain[0]!.obfStart <= line && line <= chain[0]!.obfEnd,
      );
      // A method line without a range keeps the frame's line (ProGuard writes these for methods without line numbers).
      if (picked.length === 0) picked = chains.filter((chain) => chain[0]!.obfStart < 0);
      // R8 writes `0:65535` catch-all ranges; a line outside every range of a method with one range is still that method.
      if (picked.length === 0) picked = distinctOuter(chains).length === 1 ? [chains[0]!] : [];
    } else {
      picked = distinctOuter(chains).map((outer) => chains.find((chain) => outerKey(chain) === outer)!);
    }
    return picked.map((chain) => ({ entry, ranges: chain, line }));
  }

  /** The frames of a chain, innermost first, with original lines and source files. */
  frames(chain: RangeChain, line = chain.line): MappedFrame[] {
    return chain.ranges.map((range) => {
      const className = range.origClass ?? chain.entry.original;
      return {
        className,
        methodName: range.origName,
        line: originalLine(range, line),
        sourceFile: this.sourceFileOf(className),
      };
    });
  }

  /**
   * The mapping as a mapping file of what retracing uses (no fields, return types or parameters):
   * the cached artifact, read back with `parse`. Lines of a name stay in file order, so inline
   * chains survive.
   */
  toCompactText(): string {
    const out: string[] = [];
    if (this.header.mapId) out.push(`# pg_map_id: ${this.header.mapId}`);
    if (this.header.mapHash) out.push(`# pg_map_hash: SHA-256 ${this.header.mapHash}`);
    for (const [obfuscated, entry] of this.classes) {
      out.push(`${entry.original} -> ${obfuscated}:`);
      if (entry.sourceFile !== null) out.push(`# ${JSON.stringify({ id: 'sourceFile', fileName: entry.sourceFile })}`);
      if (entry.synthesized) out.push(SYNTHESIZED_LINE);
      for (const [obfName, ranges] of entry.methods) {
        for (const range of ranges) {
          const lines = range.obfStart >= 0 ? `${range.obfStart}:${range.obfEnd}:` : '';
          const original = `${range.origStart >= 0 ? `:${range.origStart}` : ''}${range.origEnd >= 0 ? `:${range.origEnd}` : ''}`;
          out.push(
            `    ${lines}${range.origClass !== null ? `${range.origClass}.` : ''}${range.origName}()${original} -> ${obfName}`,
          );
          if (range.synthesized) out.push(SYNTHESIZED_LINE);
          if (range.outline) out.push('# {"id":"com.android.tools.r8.outline"}');
          if (range.callsite)
            out.push(
              `# ${JSON.stringify({ id: 'com.android.tools.r8.outlineCallsite', positions: Object.fromEntries(range.callsite) })}`,
            );
          for (const rule of range.rewrites ?? []) {
            const meta = {
              id: 'com.android.tools.r8.rewriteFrame',
              conditions: rule.throws.map((d) => `throws(${d})`),
              actions: [`removeInnerFrames(${rule.removeInnerFrames})`],
            };
            out.push(`# ${JSON.stringify(meta)}`);
          }
        }
      }
    }
    return `${out.join('\n')}\n`;
  }

  private sourceFileOf(className: string): string {
    const outer = className.split('$')[0]!;
    const known = this.sourceFiles.get(className) ?? this.sourceFiles.get(outer);
    if (known) return known;
    const simple = outer.slice(outer.lastIndexOf('.') + 1);
    return `${simple}.java`;
  }

  private read(text: string): void {
    let klass: ClassEntry | null = null;
    let method: MethodRange | null = null;
    let sawClass = false;
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const raw = text.slice(start, end - start > MAX_MAPPING_LINE ? start : end);
      start = end + 1;
      const line = raw.trim();
      if (line === '') continue;
      if (line.startsWith('#')) {
        const meta = metadataOf(line);
        if (!sawClass) this.readHeader(line);
        if (!meta) continue;
        if (method) applyMethodMeta(method, meta);
        else if (klass) this.applyClassMeta(klass, meta);
        continue;
      }
      const indented = raw.startsWith(' ') || raw.startsWith('\t');
      if (!indented) {
        klass = this.readClass(line);
        method = null;
        sawClass ||= klass !== null;
        continue;
      }
      method = klass ? this.readMember(klass, line) : null;
    }
    if (!sawClass && this.header.mapId === null) throw corrupt('not a mapping file: no class line');
  }

  private readHeader(line: string): void {
    const body = line.slice(1).trim();
    if (body.startsWith('pg_map_id:')) {
      const id = body.slice('pg_map_id:'.length).trim().toLowerCase();
      if (/^[0-9a-f]{1,128}$/.test(id)) this.header = { ...this.header, mapId: id };
    } else if (body.startsWith('pg_map_hash:')) {
      const hash = body.slice('pg_map_hash:'.length).trim().split(/\s+/).pop()?.toLowerCase() ?? '';
      if (/^[0-9a-f]{64}$/.test(hash)) this.header = { ...this.header, mapHash: hash };
    }
  }

  /** `original -> obfuscated:` */
  private readClass(line: string): ClassEntry | null {
    if (!line.endsWith(':')) return null;
    const arrow = line.indexOf(' -> ');
    if (arrow <= 0) return null;
    const original = line.slice(0, arrow).trim();
    const obfuscated = line.slice(arrow + 4, -1).trim();
    if (!isName(original) || !isName(obfuscated)) return null;
    const entry: ClassEntry = { original, sourceFile: null, synthesized: false, methods: new Map() };
    this.classes.set(obfuscated, entry);
    return entry;
  }

  private applyClassMeta(klass: ClassEntry, meta: Meta): void {
    if (meta.id === 'sourceFile' && typeof meta.fileName === 'string' && meta.fileName.length <= 1024) {
      klass.sourceFile = meta.fileName;
      this.sourceFiles.set(klass.original, meta.fileName);
    } else if (meta.id === 'com.android.tools.r8.synthesized') {
      klass.synthesized = true;
    }
  }

  /** A method line; fields (no parenthesis) and anything unreadable are skipped. */
  private readMember(klass: ClassEntry, line: string): MethodRange | null {
    const arrow = line.lastIndexOf(' -> ');
    if (arrow < 0) return null;
    const obfName = line.slice(arrow + 4).trim();
    let left = line.slice(0, arrow);
    const open = left.indexOf('(');
    const close = left.lastIndexOf(')');
    if (open < 0 || close < open || !isName(obfName)) return null;

    let obfStart = -1;
    let obfEnd = -1;
    const firstColon = left.indexOf(':');
    if (firstColon >= 0 && firstColon < open) {
      const secondColon = left.indexOf(':', firstColon + 1);
      if (secondColon < 0 || secondColon > open) return null;
      obfStart = lineNumber(left.slice(0, firstColon));
      obfEnd = lineNumber(left.slice(firstColon + 1, secondColon));
      if (obfStart < 0 || obfEnd < obfStart) return null;
      left = left.slice(secondColon + 1);
    }
    const openAt = left.indexOf('(');
    const closeAt = left.lastIndexOf(')');
    const space = left.lastIndexOf(' ', openAt);
    const qualified = left.slice(space + 1, openAt);
    if (!isName(qualified)) return null;
    const dot = qualified.lastIndexOf('.');
    const origClass = dot > 0 ? qualified.slice(0, dot) : null;
    const origName = dot > 0 ? qualified.slice(dot + 1) : qualified;

    let origStart = -1;
    let origEnd = -1;
    const tail = left.slice(closeAt + 1);
    if (tail !== '') {
      const parts = tail.split(':');
      if (parts[0] !== '' || parts.length > 3) return null;
      origStart = lineNumber(parts[1] ?? '');
      if (origStart < 0) return null;
      if (parts.length === 3) {
        origEnd = lineNumber(parts[2]!);
        if (origEnd < 0) return null;
      }
    }
    const range: MethodRange = {
      obfStart,
      obfEnd,
      origClass: origClass === klass.original ? null : origClass,
      origName,
      origStart,
      origEnd,
      synthesized: false,
      outline: false,
      callsite: null,
      rewrites: null,
    };
    let list = klass.methods.get(obfName);
    if (!list) klass.methods.set(obfName, (list = []));
    list.push(range);
    this.methodLines++;
    return range;
  }
}

/** Candidates of one frame: the chain's ranges and the mapping's class entry. */
export interface RangeChain {
  readonly entry: ClassEntry;
  readonly ranges: readonly MethodRange[];
  readonly line: number | null;
}

/** The outline mapping of a chain's innermost frame (the line to carry to the next frame), if any. */
export function isOutline(chain: RangeChain): boolean {
  return chain.ranges[0]!.outline;
}

/** The position an outline's line stands for in the calling frame, or undefined. */
export function outlineCallsitePosition(chain: RangeChain, outlinePosition: number): number | undefined {
  return chain.ranges.find((range) => range.callsite)?.callsite?.get(outlinePosition);
}

/** Whether every frame of the chain is synthesized (R8 strips those from retraced traces). */
export function isSynthesized(chain: RangeChain): boolean {
  return chain.entry.synthesized || chain.ranges[chain.ranges.length - 1]!.synthesized;
}

/** Frames to drop from the inner end when the exception thrown is `exceptionClass` (rewriteFrame). */
export function innerFramesToRemove(chain: RangeChain, exceptionClass: string | null): number {
  if (exceptionClass === null) return 0;
  const descriptor = `L${exceptionClass.replaceAll('.', '/')};`;
  let remove = 0;
  for (const range of chain.ranges) {
    for (const rule of range.rewrites ?? []) {
      if (rule.throws.every((thrown) => thrown === descriptor)) remove += rule.removeInnerFrames;
    }
  }
  return Math.min(remove, chain.ranges.length);
}

function originalLine(range: MethodRange, line: number | null): number {
  // Without a line only R8's catch-all range (a method with one position) names one.
  if (line === null) return range.obfStart === 0 && range.obfEnd === 65535 ? Math.max(range.origStart, 0) : 0;
  if (range.origStart < 0)
    return range.obfStart < 0
      ? (line ?? 0)
      : line !== null && line >= range.obfStart && line <= range.obfEnd
        ? line
        : 0;
  if (range.origEnd < 0 || line === null || range.obfStart < 0) return range.origStart;
  // A range mapped onto a range of the same size maps line by line; any other shape maps to its start.
  const span = range.obfEnd - range.obfStart;
  if (range.origEnd - range.origStart !== span || line < range.obfStart || line > range.obfEnd) return range.origStart;
  return range.origStart + (line - range.obfStart);
}

/** Consecutive lines with the same obfuscated range are one inline chain (the first is innermost). */
function groupChains(ranges: readonly MethodRange[]): MethodRange[][] {
  const chains: MethodRange[][] = [];
  let current: MethodRange[] = [];
  for (const range of ranges) {
    const head = current[0];
    // Callers of an inlined frame repeat its range and name one original line (`:8`); a line with
    // an original range, or none, starts the next chain.
    const continues =
      head !== undefined &&
      range.obfStart >= 0 &&
      head.obfStart === range.obfStart &&
      head.obfEnd === range.obfEnd &&
      range.origStart >= 0 &&
      range.origEnd < 0;
    if (continues) current.push(range);
    else {
      if (current.length > 0) chains.push(current);
      current = [range];
    }
  }
  if (current.length > 0) chains.push(current);
  return chains;
}

function outerKey(chain: readonly MethodRange[]): string {
  const outer = chain[chain.length - 1]!;
  return `${outer.origClass ?? ''}#${outer.origName}`;
}

function distinctOuter(chains: readonly MethodRange[][]): string[] {
  return [...new Set(chains.map(outerKey))];
}

interface Meta {
  id?: unknown;
  fileName?: unknown;
  positions?: unknown;
  conditions?: unknown;
  actions?: unknown;
}

/** `# {json}` with an id, or null. R8 writes JSON; the document's examples use single quotes, accepted too. */
function metadataOf(line: string): Meta | null {
  const body = line.slice(1).trim();
  if (!body.startsWith('{') || !body.endsWith('}')) return null;
  for (const candidate of [body, body.replaceAll("'", '"')]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        typeof (value as Meta).id === 'string'
      )
        return value as Meta;
    } catch {
      // not JSON: an ordinary comment
    }
  }
  return null;
}

function applyMethodMeta(method: MethodRange, meta: Meta): void {
  switch (meta.id) {
    case 'com.android.tools.r8.synthesized':
      method.synthesized = true;
      return;
    case 'com.android.tools.r8.outline':
      method.outline = true;
      return;
    case 'com.android.tools.r8.outlineCallsite': {
      if (meta.positions === null || typeof meta.positions !== 'object') return;
      const positions = new Map<number, number>();
      for (const [from, to] of Object.entries(meta.positions as Record<string, unknown>)) {
        const key = lineNumber(from);
        if (key >= 0 && typeof to === 'number' && Number.isInteger(to) && to >= 0 && to <= MAX_LINE)
          positions.set(key, to);
        if (positions.size >= MAX_CALLSITE_POSITIONS) break;
      }
      method.callsite = positions;
      return;
    }
    case 'com.android.tools.r8.rewriteFrame': {
      if (!Array.isArray(meta.conditions) || !Array.isArray(meta.actions)) return;
      const throws: string[] = [];
      for (const condition of meta.conditions.slice(0, 16)) {
        const match = typeof condition === 'string' ? /^throws\((L[^()]{1,1024};)\)$/.exec(condition) : null;
        if (!match) return; // an unknown condition: the rule cannot be judged, so it never applies
        throws.push(match[1]!);
      }
      let removeInnerFrames = 0;
      for (const action of meta.actions.slice(0, 16)) {
        const match = typeof action === 'string' ? /^removeInnerFrames\((\d{1,4})\)$/.exec(action) : null;
        if (!match) return;
        removeInnerFrames += Number(match[1]);
      }
      if (throws.length > 0) (method.rewrites ??= []).push({ throws, removeInnerFrames });
      return;
    }
    default:
  }
}

/** A non-negative decimal up to MAX_LINE, or -1. */
function lineNumber(text: string): number {
  const trimmed = text.trim();
  if (!/^\d{1,8}$/.test(trimmed)) return -1;
  const value = Number(trimmed);
  return value <= MAX_LINE ? value : -1;
}

/** A Java binary name as mapping files print them (no blanks, no parentheses, no arrow). */
function isName(text: string): boolean {
  return text.length > 0 && text.length <= 4096 && !/[\s()]/.test(text);
}
