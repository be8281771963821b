/**
 * Test support only (imported by *.test.ts, never by the core): reads the
 * debug-symbol fixtures under test/fixtures/symbols and their manifest.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bytesSource, type ByteSource } from '../../../src/symbols/bytes/source.js';
import { buildLookupTable } from '../../../src/symbols/build.js';
import type { LookupTable } from '../../../src/symbols/table/lookup-table.js';

export const FIXTURE_ROOT = fileURLToPath(new URL('../../fixtures/symbols/', import.meta.url));

export interface ManifestSlice {
  readonly arch: string;
  readonly uuid: string;
  readonly text_vmaddr: string;
  readonly text_section: readonly [string, string];
}

export interface ManifestFixture {
  readonly id: string;
  readonly kind: 'dart_symbols' | 'ios_dsym';
  readonly path: string;
  readonly file_name?: string;
  readonly arch?: string;
  readonly build_id?: string | null;
  readonly debug_id?: string;
  readonly symbols?: Readonly<Record<string, string>>;
  readonly macho_companion?: { readonly path: string; readonly uuid: string };
  readonly binary?: string;
  readonly fat?: boolean;
  readonly slices?: readonly ManifestSlice[];
}

export interface ManifestTrace {
  readonly name: string;
  readonly trace: string;
  readonly expected: string;
  readonly expected_json: string;
  readonly fixture: string;
  readonly slice?: string;
  readonly truncated_to_cap: boolean;
}

export interface ExpectedFrame {
  readonly raw: string;
  readonly pc?: string;
  readonly uuid?: string;
  readonly resolved: boolean;
  readonly frames: ReadonlyArray<{ function: string; file: string; line: number; column: number }>;
}

export interface Manifest {
  readonly fixtures: readonly ManifestFixture[];
  readonly traces: readonly ManifestTrace[];
}

export const manifest: Manifest = JSON.parse(readFileSync(`${FIXTURE_ROOT}manifest.json`, 'utf8'));

/** A plain Uint8Array (not a Buffer, whose slice() would alias the bytes a test means to copy). */
export function fixtureBytes(relativePath: string): Uint8Array {
  return new Uint8Array(readFileSync(FIXTURE_ROOT + relativePath));
}

export function fixtureSource(relativePath: string): ByteSource {
  return bytesSource(fixtureBytes(relativePath));
}

export function fixtureText(relativePath: string): string {
  return readFileSync(FIXTURE_ROOT + relativePath, 'utf8');
}

export function fixtureById(id: string): ManifestFixture {
  const fixture = manifest.fixtures.find((f) => f.id === id);
  if (!fixture) throw new Error(`no fixture ${id}`);
  return fixture;
}

/** Client arch names: the iOS client prints x64 for an x86_64 slice. */
export function clientArch(manifestArch: string): string {
  return manifestArch === 'x86_64' ? 'x64' : manifestArch;
}

/** Every lookup table a fixture provides, keyed as the resolver will be asked: `${debugId}/${arch}`. */
export function fixtureTables(fixture: ManifestFixture): Map<string, LookupTable> {
  const src = fixtureSource(fixture.path);
  if (fixture.kind === 'dart_symbols') {
    return new Map([[`${fixture.debug_id}/${fixture.arch}`, buildLookupTable(src, { fileName: fixture.path })]]);
  }
  return new Map(
    (fixture.slices ?? []).map((slice) => [
      `${slice.uuid}/${clientArch(slice.arch)}`,
      buildLookupTable(src, { fileName: fixture.path, uuid: slice.uuid }),
    ]),
  );
}
