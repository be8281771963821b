/**
 * Micro-benchmark of the debug-symbol core (src/symbols): lookup-table build
 * time and memory per MB of DWARF, symbolication latency per frame cold
 * (table build included) and warm, and the same frames through llvm-symbolizer
 * when it is on PATH. Not part of `npm test`.
 *
 *   node --import tsx bench/symbols.ts [more .symbols / dSYM DWARF files...]
 *
 * Inputs: a fixture (tiny DWARF, dominated by fixed costs), a synthetic
 * Dart-like ELF with ~5 MB of DWARF written in memory, and any files named on
 * the command line (e.g. a real app's split-debug-info output).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  buildLookupTable,
  bytesSource,
  deserializeTable,
  identifySymbolFile,
  serializeTable,
  symbolicateDart,
  symbolicateIos,
  type LookupTable,
} from '../src/symbols/index.js';
import { DW_AT, DW_FORM, DW_TAG } from '../src/symbols/dwarf/constants.js';
import { readElf } from '../src/symbols/elf/reader.js';
import { readMacho } from '../src/symbols/macho/reader.js';
import {
  writeDebugInfo,
  writeElf,
  writeLineProgram,
  type DieSpec,
  type LineRow,
} from '../test/support/symbols/dwarf-writer.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const DW_AT_inline = 0x20;
const FRAMES_PER_TRACE = 16;
const TRACES = 32;
const WARM_ROUNDS = 200;
const COLD_ROUNDS = 5;

interface Input {
  readonly name: string;
  readonly path: string;
  readonly bytes: Uint8Array;
}

interface Workload {
  readonly table: LookupTable;
  /** pcs (absolute, as llvm-symbolizer wants them) and the traces that carry them. */
  readonly pcs: number[];
  readonly traces: string[];
  readonly symbolicate: (text: string, table: LookupTable) => string;
  readonly buildOptions: { arch?: string };
}

function main(): void {
  const scratch = mkdtempSync(join(tmpdir(), 'sightline-symbols-bench-'));
  try {
    const inputs: Input[] = [
      fileInput(
        'fixture dart arm64 DWARF 4',
        'test/fixtures/symbols/dart/android-arm64-dwarf4/app.android-arm64.symbols',
      ),
      syntheticInput(scratch, 40_000),
      ...process.argv.slice(2).map((path) => fileInput(basename(path), path)),
    ];
    const llvm = findLlvmSymbolizer();
    console.log(
      llvm
        ? `llvm-symbolizer: ${llvm}`
        : 'llvm-symbolizer not found (Debian: apt-get install llvm-14); skipping the comparison',
    );
    for (const input of inputs) benchInput(input, llvm);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function fileInput(name: string, path: string): Input {
  return { name, path, bytes: new Uint8Array(readFileSync(path)) };
}

function benchInput(input: Input, llvm: string | null): void {
  const identity = identifySymbolFile(bytesSource(input.bytes), input.name);
  const buildOptions =
    identity.kind === 'macho'
      ? { arch: identity.slices.some((s) => s.arch === 'arm64') ? 'arm64' : identity.slices[0]!.arch }
      : {};
  const dwarfBytes = dwarfSectionBytes(input.bytes, buildOptions.arch);
  const mb = dwarfBytes / 1e6;

  const buildTimes: number[] = [];
  for (let i = 0; i < COLD_ROUNDS; i++) {
    const started = performance.now();
    buildLookupTable(bytesSource(input.bytes), buildOptions);
    buildTimes.push(performance.now() - started);
  }
  // Heap and array-buffer growth across one build: garbage still included (an upper bound on the transient use, unless a
  // collection ran meanwhile), then what the table keeps.
  const memory = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  gc();
  const memoryBefore = memory();
  const table = buildLookupTable(bytesSource(input.bytes), buildOptions);
  const transient = memory() - memoryBefore;
  gc();
  const retained = memory() - memoryBefore;
  const serialized = serializeTable(table);
  const workload = makeWorkload(table, identity.kind === 'macho', buildOptions);
  const frames = workload.pcs.length;

  const warm = timePerFrame(WARM_ROUNDS, frames, () => {
    for (const trace of workload.traces) workload.symbolicate(trace, workload.table);
  });
  const coldBuild = timePerFrame(COLD_ROUNDS, FRAMES_PER_TRACE, () => {
    workload.symbolicate(workload.traces[0]!, buildLookupTable(bytesSource(input.bytes), workload.buildOptions));
  });
  const coldCache = timePerFrame(COLD_ROUNDS * 20, FRAMES_PER_TRACE, () => {
    workload.symbolicate(workload.traces[0]!, deserializeTable(serialized));
  });

  const buildMs = median(buildTimes);
  console.log(
    `\n== ${input.name}: ${(input.bytes.length / 1e6).toFixed(2)} MB file, ${mb.toFixed(3)} MB DWARF, ${table.rangeCount} ranges`,
  );
  console.log(`table build            ${fmt(buildMs)} ms  (${fmt(buildMs / mb)} ms per MB of DWARF)`);
  console.log(
    `table memory           ${kb(table.approximateBytes)} (${kb(table.approximateBytes / mb)} per MB of DWARF; measured on the heap: ${retained > 0 ? kb(retained) : 'below noise'})`,
  );
  console.log(`heap growth in build   ${kb(transient)} (${kb(transient / mb)} per MB of DWARF, garbage included)`);
  console.log(
    `serialized table       ${kb(serialized.length)} (${fmt(serialized.length / dwarfBytes)} bytes per DWARF byte)`,
  );
  console.log(`per frame, warm        ${fmt(warm)} µs`);
  console.log(`per frame, cold build  ${fmt(coldBuild)} µs  (build + one ${FRAMES_PER_TRACE}-frame trace)`);
  console.log(`per frame, cold cache  ${fmt(coldCache)} µs  (deserialize + one ${FRAMES_PER_TRACE}-frame trace)`);
  if (!llvm) return;

  const file = input.path;
  const archArgs = buildOptions.arch
    ? [`--default-arch=${buildOptions.arch === 'x64' ? 'x86_64' : buildOptions.arch}`]
    : [];
  const oneTrace = workload.pcs.slice(0, FRAMES_PER_TRACE);
  const llvmCold =
    median(Array.from({ length: COLD_ROUNDS }, () => runLlvm(llvm, file, archArgs, oneTrace))) / FRAMES_PER_TRACE;
  const many = Array.from({ length: 20 }, () => workload.pcs).flat();
  const llvmWarm =
    (median(Array.from({ length: 3 }, () => runLlvm(llvm, file, archArgs, many))) - llvmCold * FRAMES_PER_TRACE) /
    many.length;
  console.log(`llvm-symbolizer cold   ${fmt(llvmCold)} µs per frame (one process, ${FRAMES_PER_TRACE} frames)`);
  console.log(
    `llvm-symbolizer warm   ${fmt(llvmWarm)} µs per frame (${many.length} frames in one process, start-up subtracted)`,
  );
  console.log(
    `ratio ours/llvm        cold build ${fmt(coldBuild / llvmCold)}×, cold cache ${fmt(coldCache / llvmCold)}×, warm ${fmt(warm / llvmWarm)}×`,
  );
}

/** Bytes of DWARF in the file (ELF) or in the slice the benchmark uses (Mach-O). */
function dwarfSectionBytes(bytes: Uint8Array, arch: string | undefined): number {
  const src = bytesSource(bytes);
  if (bytes[0] === 0x7f) {
    return readElf(src, 'bench')
      .sections.filter((s) => s.name.startsWith('.debug_'))
      .reduce((sum, s) => sum + s.size, 0);
  }
  const slices = readMacho(src, 'bench').slices;
  const slice = slices.find((s) => s.arch === arch) ?? slices[0]!;
  return slice.sections.filter((s) => s.segmentName === '__DWARF').reduce((sum, s) => sum + s.size, 0);
}

/** Deterministic pcs spread over the resolvable ranges, and traces in the client's format that carry them. */
function makeWorkload(table: LookupTable, macho: boolean, buildOptions: { arch?: string }): Workload {
  const resolvable: number[] = [];
  for (let i = 0; i + 1 < table.ranges.start.length; i++) if (table.ranges.scope[i]! >= 0) resolvable.push(i);
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pcs = Array.from({ length: FRAMES_PER_TRACE * TRACES }, () => {
    const range = resolvable[Math.floor(random() * resolvable.length)]!;
    const start = table.ranges.start[range]!;
    return start + Math.floor(random() * (table.ranges.start[range + 1]! - start));
  });
  const chunks = Array.from({ length: TRACES }, (_, i) => pcs.slice(i * FRAMES_PER_TRACE, (i + 1) * FRAMES_PER_TRACE));
  if (macho) {
    const base = table.anchors.get('__TEXT')!;
    const header = `Fatal Signal SIGSEGV (11)\n*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***\nos: ios arch: ${table.meta.arch}\n`;
    const traces = chunks.map(
      (chunk) =>
        header +
        chunk
          .map((pc, n) => `#${String(n).padStart(2, '0')} ${table.meta.debugId} 0x${(pc - base).toString(16)} App\n`)
          .join(''),
    );
    const symbolicate = (text: string, t: LookupTable): string => symbolicateIos(text, () => t);
    return { table, pcs, traces, symbolicate, buildOptions };
  }
  const base = table.anchors.get('_kDartIsolateSnapshotInstructions')!;
  const header = `Bad state\n*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***\nos: android arch: ${table.meta.arch} comp: yes sim: no\nbuild_id: '${table.meta.debugId}'\n`;
  const traces = chunks.map(
    (chunk) =>
      header +
      chunk
        .map(
          (pc, n) =>
            `    #${String(n).padStart(2, '0')} abs ${pc.toString(16).padStart(16, '0')} _kDartIsolateSnapshotInstructions+0x${(pc - base).toString(16)}\n`,
        )
        .join(''),
  );
  const symbolicate = (text: string, t: LookupTable): string => symbolicateDart(text, () => t);
  return { table, pcs, traces, symbolicate, buildOptions };
}

/** Median microseconds per frame of `run`, which handles `framesPerRun` frames. */
function timePerFrame(rounds: number, framesPerRun: number, run: () => void): number {
  run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    run();
    samples.push(((performance.now() - started) * 1000) / framesPerRun);
  }
  return median(samples);
}

/** Microseconds for one llvm-symbolizer process answering `pcs`. */
function runLlvm(binary: string, file: string, extraArgs: string[], pcs: number[]): number {
  const input = `${pcs.map((pc) => `0x${pc.toString(16)}`).join('\n')}\n`;
  const started = performance.now();
  const result = spawnSync(binary, [`--obj=${file}`, '--inlining', '--functions=short', ...extraArgs], {
    input,
    maxBuffer: 1 << 28,
  });
  const elapsed = (performance.now() - started) * 1000;
  if (result.status !== 0) throw new Error(`${binary} failed: ${result.stderr.toString()}`);
  return elapsed;
}

function findLlvmSymbolizer(): string | null {
  for (const candidate of ['llvm-symbolizer', 'llvm-symbolizer-14']) {
    if (spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  return null;
}

/**
 * A Dart-like ELF64 (x64) with `functions` concrete subprograms, each with a
 * two-level inline chain and sixteen line rows, named through abstract
 * origins like the Dart VM's DWARF. Written to disk for llvm-symbolizer.
 */
function syntheticInput(dir: string, functions: number): Input {
  const base = 0x200000;
  const size = 64;
  const abstract: DieSpec[] = [];
  const concrete: DieSpec[] = [];
  const rows: LineRow[] = [];
  for (let i = 0; i < functions; i++) {
    abstract.push({
      id: `f${i}`,
      tag: DW_TAG.subprogram,
      attrs: [
        [DW_AT.name, DW_FORM.strp, `Class${i % 997}.method${i}`],
        [DW_AT_inline, DW_FORM.data1, 1],
      ],
    });
    const low = base + i * size;
    const inlined = (origin: number, from: number, to: number, line: number, children?: DieSpec[]): DieSpec => ({
      tag: DW_TAG.inlined_subroutine,
      attrs: [
        [DW_AT.abstract_origin, DW_FORM.ref4, { ref: `f${origin % functions}` }],
        [DW_AT.low_pc, DW_FORM.addr, low + from],
        [DW_AT.high_pc, DW_FORM.data4, to - from],
        [DW_AT.call_file, DW_FORM.data1, 1 + (i % 3)],
        [DW_AT.call_line, DW_FORM.data2, line],
        [DW_AT.call_column, DW_FORM.data1, 1 + (i % 40)],
      ],
      ...(children ? { children } : {}),
    });
    concrete.push({
      tag: DW_TAG.subprogram,
      attrs: [
        [DW_AT.abstract_origin, DW_FORM.ref4, { ref: `f${i}` }],
        [DW_AT.low_pc, DW_FORM.addr, low],
        [DW_AT.high_pc, DW_FORM.data4, size],
      ],
      children: [inlined(i + 1, 16, 48, 10 + (i % 50), [inlined(i + 2, 24, 40, 20 + (i % 30))])],
    });
    for (let r = 0; r < 16; r++)
      rows.push({ address: low + 4 * r, file: 1 + ((i + (r >> 3)) % 3), line: 1 + ((i * 7 + r) % 400), column: r % 9 });
  }
  const end = base + functions * size;
  const { info, abbrev, str } = writeDebugInfo([
    {
      version: 4,
      addressSize: 8,
      root: {
        tag: DW_TAG.compile_unit,
        attrs: [
          [DW_AT.name, DW_FORM.strp, 'package:bench/main.dart'],
          [DW_AT.stmt_list, DW_FORM.sec_offset, 0],
          [DW_AT.low_pc, DW_FORM.addr, base],
          [DW_AT.high_pc, DW_FORM.data4, end - base],
        ],
        children: [...abstract, ...concrete],
      },
    },
  ]);
  const line = writeLineProgram({
    version: 4,
    addressSize: 8,
    directories: [],
    files: [
      ['package:bench/main.dart', 0],
      ['package:bench/src/cart.dart', 0],
      ['dart:core/list.dart', 0],
    ],
    sequences: [{ rows, end }],
  });
  const bytes = writeElf({
    is64: true,
    machine: 62,
    buildId: Uint8Array.from({ length: 16 }, (_, i) => i * 17),
    symbols: [
      { name: '_kDartVmSnapshotInstructions', value: base - 0x1000 },
      { name: '_kDartIsolateSnapshotInstructions', value: base },
    ],
    sections: [
      { name: '.debug_abbrev', bytes: abbrev },
      { name: '.debug_info', bytes: info },
      { name: '.debug_str', bytes: str },
      { name: '.debug_line', bytes: line },
    ],
  });
  const path = join(dir, 'synthetic.android-x64.symbols');
  writeFileSync(path, bytes);
  return { name: `synthetic Dart-like x64, ${functions} functions`, path, bytes };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function fmt(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toPrecision(3);
}

function kb(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} KB`;
}

main();
