/**
 * Hostile mapping files: mutated fixture mappings and generated junk must parse (or fail with
 * SymbolFileError), never throw anything else, and stay within time and memory proportional to
 * the input: what is kept (method lines, compact text) never outgrows the file, and retracing
 * with the result never emits more than MAX_RETRACED_FRAMES frame lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SymbolFileError } from '../errors.js';
import { RetraceMapping } from './mapping.js';
import { MAX_RETRACED_FRAMES, retraceJava } from './trace.js';

const RUNS = Number(process.env.SYMBOLS_FUZZ_RUNS ?? 200);
const FIXTURES = path.resolve('test/fixtures/android');
const mappings = ['proguard-mapping.txt', 'r8-mapping.txt'].map((name) =>
  fs.readFileSync(path.join(FIXTURES, name), 'utf8'),
);
const traces = ['checkout', 'wrapped', 'r8-crash', 'r8-npe'].map((name) =>
  fs.readFileSync(path.join(FIXTURES, `traces/${name}.obfuscated.txt`), 'utf8'),
);

function exercise(text: string): void {
  let mapping: RetraceMapping;
  try {
    mapping = RetraceMapping.parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(SymbolFileError);
    return;
  }
  const compact = mapping.toCompactText();
  expect(mapping.methodLines).toBeLessThanOrEqual(text.split('\n').length);
  expect(RetraceMapping.parse(compact).toCompactText()).toBe(compact);
  for (const trace of traces) {
    const out = retraceJava(trace, mapping);
    expect(out.split('\n').filter((line) => line.includes('at ')).length).toBeLessThanOrEqual(
      MAX_RETRACED_FRAMES + trace.split('\n').length,
    );
  }
}

const token = fc.constantFrom(
  ' -> ',
  ':',
  '(',
  ')',
  '\n',
  '    ',
  '#',
  ' {"id":"com.android.tools.r8.outlineCallsite","positions":{"1":2}}',
  '0:65535:',
  '1:1:',
  'a',
  'a.a',
  '999999999',
  '$',
  "'",
  '{',
  '}',
);

describe('mapping reader on hostile input', () => {
  it('survives mutated fixture mappings', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...mappings),
        fc.array(fc.tuple(fc.nat(), fc.nat(40), fc.string({ maxLength: 40 })), { maxLength: 8 }),
        (base, edits) => {
          let text = base;
          for (const [at, cut, insert] of edits) {
            const position = at % (text.length + 1);
            text = text.slice(0, position) + insert + text.slice(position + cut);
          }
          exercise(text);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('survives generated junk made of mapping tokens', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 400 }), (tokens) => exercise(tokens.join(''))),
      { numRuns: RUNS },
    );
  });

  it('reads huge lines, deep inline chains and many alternatives in bounded output', () => {
    // One inline chain 50,000 frames deep (callers name one line each), then 50,000 alternatives.
    const chain = [
      '    1:1:void c.m():1:1 -> a',
      ...Array.from({ length: 50_000 }, (_, i) => `    1:1:void c${i}.m():${i} -> a`),
      ...Array.from({ length: 50_000 }, (_, i) => `    2:2:void d${i}.m():${i}:${i} -> a`),
    ].join('\n');
    const text = `x.Y -> a.a:\n${chain}\n${'z'.repeat(200_000)} -> b:\n    ${'1'.repeat(100_000)}:2:void m() -> a\n`;
    const mapping = RetraceMapping.parse(text);
    expect(mapping.methodLines).toBe(100_001);
    const deep = retraceJava('java.lang.Error\n\tat a.a.a(SourceFile:1)\n\tat a.a.a(SourceFile:1)\n', mapping);
    // The cap stops the first chain; the second frame is past it and stays as received.
    expect(deep.split('\n').filter((line) => line.includes('at c')).length).toBe(MAX_RETRACED_FRAMES);
    expect(deep.endsWith('\tat a.a.a(SourceFile:1)\n')).toBe(true);
    const wide = retraceJava('java.lang.Error\n\tat a.a.a(SourceFile:2)\n', mapping);
    expect(wide.split('\n').filter((line) => line.includes('<OR> at d')).length).toBe(7);
  });
});
