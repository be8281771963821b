/**
 * Micro-benchmark of Android retrace (src/symbols/proguard): mapping build (parse) time per MB,
 * the compact artifact's size and parse time, the heap a parsed mapping holds per byte of its
 * compact text (the cache's MAPPING_MEMORY_FACTOR), and retrace latency per frame. Not part of
 * `npm test`.
 *
 *   node --import tsx bench/retrace.ts [a real mapping.txt]
 *
 * Input: a synthetic R8-style mapping (20,000 classes, 12 methods each, every third method with
 * a two-deep inline chain, fields), about the size of a large app's mapping, or a file named.
 */
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { RetraceMapping, retraceJava } from '../src/symbols/index.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function synthetic(classes: number, methods: number): string {
  const out = ['# compiler: R8', '# {"id":"com.android.tools.r8.mapping","version":"2.2"}', `# pg_map_id: 1234567`];
  for (let c = 0; c < classes; c++) {
    out.push(
      `com.example.app.feature${c % 97}.Class${c} -> a${c.toString(36)}.b:`,
      `# {"id":"sourceFile","fileName":"Class${c}.kt"}`,
    );
    for (let f = 0; f < 4; f++) out.push(`    java.lang.String field${f} -> ${String.fromCharCode(97 + f)}`);
    for (let m = 0; m < methods; m++) {
      const start = m * 10 + 1;
      if (m % 3 === 0) {
        out.push(
          `    ${start}:${start + 4}:java.lang.String com.example.app.util.Strings.helper${m}(java.lang.String,int):${20 + m}:${24 + m} -> m${m}`,
        );
        out.push(`    ${start}:${start + 4}:void method${m}(android.os.Bundle,java.util.List):${100 + m} -> m${m}`);
      } else {
        out.push(
          `    ${start}:${start + 9}:void method${m}(android.os.Bundle,java.util.List):${100 + m * 10}:${109 + m * 10} -> m${m}`,
        );
      }
    }
  }
  return `${out.join('\n')}\n`;
}

const text = process.argv[2] ? readFileSync(process.argv[2], 'utf8') : synthetic(20_000, 12);
const mb = Buffer.byteLength(text) / 1e6;

const time = <T>(fn: () => T): [T, number] => {
  const start = process.hrtime.bigint();
  const value = fn();
  return [value, Number(process.hrtime.bigint() - start) / 1e6];
};

const [mapping, parseMs] = time(() => RetraceMapping.parse(text));
const [compact, compactMs] = time(() => mapping.toCompactText());
gc();
const before = process.memoryUsage().heapUsed;
const [reread, rereadMs] = time(() => RetraceMapping.parse(compact));
gc();
const heldBytes = process.memoryUsage().heapUsed - before;

const frames = Array.from(
  { length: 16 },
  (_, i) => `\tat a${((i * 977) % 20_000).toString(36)}.b.m${i % 12}(r8-map-id-1234567:${(i % 12) * 10 + 3})`,
);
const trace = `java.lang.IllegalStateException: boom\n${frames.join('\n')}\n`;
const rounds = 2000;
const [out, retraceMs] = time(() => {
  let last = '';
  for (let i = 0; i < rounds; i++) last = retraceJava(trace, reread);
  return last;
});
if (out === trace) throw new Error('nothing retraced');

console.log(`mapping: ${mb.toFixed(1)} MB, ${mapping.methodLines} method lines`);
console.log(`build (parse): ${parseMs.toFixed(0)} ms (${(mb / (parseMs / 1000)).toFixed(0)} MB/s)`);
console.log(
  `compact artifact: ${(Buffer.byteLength(compact) / 1e6).toFixed(1)} MB, written in ${compactMs.toFixed(0)} ms, read back in ${rereadMs.toFixed(0)} ms`,
);
console.log(
  `heap held by the parsed mapping: ${(heldBytes / 1e6).toFixed(1)} MB = ${(heldBytes / Buffer.byteLength(compact)).toFixed(2)} x the compact text`,
);
console.log(
  `retrace: ${((retraceMs * 1000) / (rounds * frames.length)).toFixed(2)} µs per frame (16-frame trace, warm)`,
);
