/**
 * Retrace against the fixtures of test/fixtures/android: the ProGuard-built app's obfuscated
 * traces must come back exactly as the unobfuscated program printed them, and the hand-made R8
 * mapping's traces exactly as R8's documented rules give them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RetraceMapping } from './mapping.js';
import { javaFrame, parseJavaTrace, retraceJava } from './trace.js';

const FIXTURES = path.resolve('test/fixtures/android');
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

describe('retrace of the fixture traces', () => {
  const proguard = RetraceMapping.parse(read('proguard-mapping.txt'));
  const r8 = RetraceMapping.parse(read('r8-mapping.txt'));

  it.each(['checkout', 'wrapped'])('ProGuard %s trace maps to the original program trace', (scenario) => {
    const obfuscated = read(`traces/${scenario}.obfuscated.txt`);
    expect(obfuscated).not.toBe(read(`traces/${scenario}.original.txt`));
    expect(retraceJava(obfuscated, proguard)).toBe(read(`traces/${scenario}.original.txt`));
  });

  it.each(['r8-crash', 'r8-npe'])('R8 %s trace maps to its expected trace', (name) => {
    expect(retraceJava(read(`traces/${name}.obfuscated.txt`), r8)).toBe(read(`traces/${name}.expected.txt`));
  });

  it('reads the R8 header and the map id R8 writes into source files', () => {
    expect(r8.header).toEqual({
      mapId: '4f1c2e9',
      mapHash: '4f1c2e9a8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e',
    });
    expect(proguard.header).toEqual({ mapId: null, mapHash: null });
    expect(parseJavaTrace(read('traces/r8-crash.obfuscated.txt'))).toEqual({ mapIds: ['4f1c2e9'], frameCount: 8 });
  });

  it('leaves a trace the mapping does not name as it is, and frames it does not name as received', () => {
    const unrelated =
      'java.lang.Error: x\n\tat android.os.Looper.loop(Looper.java:288)\n\tat java.base/java.lang.Thread.run(Thread.java:833)\n';
    expect(retraceJava(unrelated, proguard)).toBe(unrelated);
    const mixed = `java.lang.Error: x\n\tat android.os.Looper.loop(Looper.java:288)\n\tat com.example.shop.a.a(SourceFile:11)\n`;
    expect(retraceJava(mixed, proguard)).toBe(
      'java.lang.Error: x\n\tat android.os.Looper.loop(Looper.java:288)\n\tat com.example.shop.Cart.total(Cart.java:11)\n',
    );
    expect(retraceJava('not a trace at all', proguard)).toBe('not a trace at all');
  });

  it('reads JVM and Android frame shapes', () => {
    expect(javaFrame('\tat java.base/java.lang.Integer.parseInt(Integer.java:652)')).toMatchObject({
      className: 'java.lang.Integer',
      methodName: 'parseInt',
      line: 652,
    });
    expect(javaFrame('    at a.b.c(Unknown Source:12)')).toMatchObject({
      className: 'a.b',
      methodName: 'c',
      file: 'Unknown Source',
      line: 12,
    });
    expect(javaFrame('\tat a.b.c(Native Method)')).toMatchObject({ file: 'Native Method', line: null });
    expect(javaFrame('\t... 3 more')).toBeNull();
    expect(javaFrame('at nodots(File.java:1)')).toBeNull();
  });
});
