/**
 * Micro-benchmark of the JavaScript source-map core (src/symbols/sourcemap): the upload check
 * (JSON parse and shape, no decode), the lookup-table build (decode by @jridgewell/trace-mapping)
 * with its heap and the bytes the cache counts it for, and per-frame and per-trace lookup warm.
 * Not part of `npm test`.
 *
 *   node --import tsx bench/sourcemaps.ts [more .map files...]
 *
 * Inputs: the committed fixture map (tiny), and a bundle esbuild minifies in memory from a
 * generated program of 4,000 modules (about a 2 MB bundle, a large single-page app), plus any map
 * named on the command line.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import * as esbuild from 'esbuild';
import { inspectSourceMap, SourceMapTable, symbolicateJs } from '../src/symbols/index.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const FRAMES_PER_TRACE = 16;
const LOOKUPS = 200_000;

async function generatedBundle(modules: number): Promise<{ js: string; map: string }> {
  const files = new Map<string, string>();
  const imports: string[] = [];
  for (let i = 0; i < modules; i++) {
    files.set(
      `m${i}.ts`,
      `export function compute${i}(items: number[], factor: number): number {\n  let total = 0;\n  for (const item of items) {\n    if (item < 0) throw new Error('negative item in module ${i}');\n    total += item * factor + ${i};\n  }\n  return Math.round(total / (items.length || 1));\n}\n`,
    );
    imports.push(`import { compute${i} } from './m${i}';`);
  }
  files.set(
    'main.ts',
    `${imports.join('\n')}\nexport const all = [${Array.from({ length: modules }, (_, i) => `compute${i}`).join(', ')}];\n`,
  );
  const result = await esbuild.build({
    entryPoints: ['main.ts'],
    bundle: true,
    minify: true,
    sourcemap: 'external',
    sourcesContent: true,
    format: 'iife',
    globalName: 'App',
    write: false,
    outdir: 'out',
    plugins: [
      {
        name: 'memory',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => ({
            path: args.path.replace(/^\.\//, '').replace(/(\.ts)?$/, '.ts'),
            namespace: 'memory',
          }));
          build.onLoad({ filter: /.*/, namespace: 'memory' }, (args) => ({
            contents: files.get(args.path)!,
            loader: 'ts',
          }));
        },
      },
    ],
  });
  const js = result.outputFiles.find((file) => file.path.endsWith('.js'))!.text;
  const map = result.outputFiles.find((file) => file.path.endsWith('.map'))!.text;
  return { js, map };
}

function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = process.hrtime.bigint();
  const value = fn();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

function measure(name: string, mapText: string, generatedLineLengths: number[]): void {
  const inspect = timed(() => inspectSourceMap(mapText));
  gc();
  const before = process.memoryUsage().heapUsed;
  const build = timed(() => new SourceMapTable(mapText));
  gc();
  const heap = process.memoryUsage().heapUsed - before;
  const table = build.value;
  // Positions spread over the generated code, as the frames of many traces would be.
  const positions = Array.from({ length: 4096 }, (_, i) => {
    const line = 1 + (i % generatedLineLengths.length);
    return { line, column: 1 + ((i * 7919) % Math.max(1, generatedLineLengths[line - 1]!)) };
  });
  let hits = 0;
  const lookups = timed(() => {
    for (let i = 0; i < LOOKUPS; i++) {
      const p = positions[i % positions.length]!;
      if (table.lookup(p.line, p.column)) hits++;
    }
  });
  const trace = [
    'Error: boom',
    ...positions
      .slice(0, FRAMES_PER_TRACE)
      .map((p, i) => `    at f${i} (https://example.com/assets/app.js:${p.line}:${p.column})`),
  ].join('\n');
  const traces = timed(() => {
    for (let i = 0; i < 2000; i++) symbolicateJs(trace, () => table);
  });
  console.log(
    [
      `${name}: map ${(mapText.length / 1024 / 1024).toFixed(2)} MB, ${inspect.value.segments} segments`,
      `  upload check (parse + shape, no decode) ${inspect.ms.toFixed(1)} ms`,
      `  table build ${build.ms.toFixed(1)} ms, heap +${(heap / 1024 / 1024).toFixed(1)} MB, counted by the cache as ${(table.bytes / 1024 / 1024).toFixed(1)} MB`,
      `  lookup warm ${((lookups.ms * 1000) / LOOKUPS).toFixed(2)} µs a frame (${hits}/${LOOKUPS} mapped)`,
      `  ${FRAMES_PER_TRACE}-frame trace rewritten warm ${((traces.ms * 1000) / 2000).toFixed(1)} µs (context of every frame included)`,
    ].join('\n'),
  );
}

const manifest = JSON.parse(readFileSync('test/fixtures/sourcemaps/manifest.json', 'utf8')) as {
  releases: Array<{ js: string; map: string }>;
};
const fixture = manifest.releases[0]!;
const lineLengths = (js: string) => js.split('\n').map((line) => line.length);
measure(
  'fixture (esbuild, 3 modules)',
  readFileSync(`test/fixtures/sourcemaps/${fixture.map}`, 'utf8'),
  lineLengths(readFileSync(`test/fixtures/sourcemaps/${fixture.js}`, 'utf8')),
);
const large = await generatedBundle(4000);
console.log(`generated bundle: ${(large.js.length / 1024 / 1024).toFixed(2)} MB of minified JavaScript`);
measure('generated (esbuild, 4000 modules)', large.map, lineLengths(large.js));
for (const file of process.argv.slice(2)) measure(basename(file), readFileSync(file, 'utf8'), [200_000]);
