/**
 * The service runs from dist/ (bin/sightline.mjs). Worker threads start from a `.mjs` entry that
 * must find the compiled module beside it there; tests of src/ run it through tsx and would not
 * notice a dist/ entry pointing at TypeScript that is not there (it did, and symbol tables could
 * not be built by `npm start`). So these run the compiled modules, built by the global setup.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (module: string) => path.join(root, 'dist', module);

describe('worker threads of the compiled service', () => {
  it('builds a symbol table from a Flutter debug file in the dist/ build worker', async () => {
    const { TableBuilder } = (await import(
      dist('application/symbolication/table-builder.js')
    )) as typeof import('../../src/application/symbolication/table-builder.js');
    const { deserializeTable } = (await import(
      dist('symbols/index.js')
    )) as typeof import('../../src/symbols/index.js');
    const bytes = readFileSync(
      path.join(root, 'test/fixtures/symbols/dart/android-arm64-dwarf4/app.android-arm64.symbols'),
    );
    const table = await new TableBuilder().build({
      bytes: new Uint8Array(bytes),
      fileName: 'app.android-arm64.symbols',
    });
    expect(table.byteLength).toBeGreaterThan(0);
    const lookup = deserializeTable(table);
    expect(lookup.meta).toMatchObject({ format: 'elf', arch: 'arm64' });
    expect(lookup.strings.length).toBeGreaterThan(10);
  });

  it('answers a file that is no debug file with its reason, from the dist/ build worker', async () => {
    const { TableBuilder, SymbolTableBuildError } = (await import(
      dist('application/symbolication/table-builder.js')
    )) as typeof import('../../src/application/symbolication/table-builder.js');
    const failure = new TableBuilder().build({
      bytes: new TextEncoder().encode('not an ELF file'),
      fileName: 'x.symbols',
    });
    await expect(failure).rejects.toBeInstanceOf(SymbolTableBuildError);
    await expect(failure).rejects.not.toThrow(/exited with code|Cannot find module/);
  });
});
