/**
 * The dependency rule of src/ (docs/ARCHITECTURE.md, "Layers"): a module imports its own layer or
 * a lower one, never a higher one or a peer; the pure layers (core/, symbols/) import no framework,
 * engine or I/O module; and no module under src/ reaches outside src/ (test helpers live in
 * test/support/). Every import of every file under src/ is checked, unit tests included, with no
 * allowlist: a violation is fixed by moving code or types down, and a new top-level folder or file
 * of src/ must be given a layer here first.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

/**
 * Bottom-up. A layer may import layers of a lower rank; layers of one rank are peers and import
 * neither each other. `paths` are relative to src/: a folder ends with '/'.
 */
const LAYERS = [
  { name: 'core', rank: 0, paths: ['core/'], about: 'pure domain: records, rules, formats' },
  { name: 'symbols', rank: 1, paths: ['symbols/'], about: 'pure symbol-file parsing and symbolication' },
  { name: 'config', rank: 1, paths: ['config.ts', 'config.test.ts'], about: 'the only reader of process.env' },
  {
    name: 'store',
    rank: 2,
    paths: ['store/'],
    about: 'engines, migrations, queries, repositories, the group-commit writer',
  },
  {
    name: 'http',
    rank: 3,
    paths: ['http/'],
    about: 'HTTP toolkit: errors, error handler, bearer, body readers, limits, admission gate',
  },
  {
    name: 'application',
    rank: 4,
    paths: ['application/'],
    about: 'Services, use cases, jobs, ingest machinery; no routes',
  },
  { name: 'ingest', rank: 5, paths: ['ingest/'], about: 'the ingest surface (routes)' },
  { name: 'api', rank: 5, paths: ['api/'], about: 'the application surface (routes)' },
  { name: 'server', rank: 6, paths: ['server/'], about: 'assembly: composition root, listeners, serve' },
  {
    name: 'demo',
    rank: 6,
    paths: ['demo/'],
    about: 'sightline demo: the demo data generator, a client of a running service over HTTP',
  },
  { name: 'main', rank: 7, paths: ['main.ts'], about: 'the command line entry' },
] as const;

type Layer = (typeof LAYERS)[number];

/** Packages the pure layers may import: hashing and schema checks, nothing with I/O or a framework. */
const PURE_PACKAGES = new Set(['node:crypto', 'zod']);
/** Besides those, symbols/ computes with path strings and decodes source maps (pure libraries, no I/O). */
const SYMBOLS_PACKAGES = new Set([...PURE_PACKAGES, 'node:path', '@jridgewell/trace-mapping']);
/** Packages a unit test (`*.test.ts`) may import besides those of its layer. */
/** A unit test may also read its fixture files, wherever its code sits. */
const TEST_PACKAGES = new Set(['vitest', 'fast-check', 'node:fs', 'node:path', 'node:url']);
/** Web framework packages: never below the HTTP toolkit. */
const FRAMEWORK = /^(fastify|@fastify\/)/;
const BUILTINS = new Set(builtinModules);

function layerOf(file: string): Layer | null {
  const path = relative(SRC, file).split(sep).join('/');
  return LAYERS.find((layer) => layer.paths.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p))) ?? null;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** The package an import names (`node:` added to builtins), or null for a relative import. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return null;
  if (specifier.startsWith('node:')) return specifier;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTINS.has(name) ? `node:${name}` : name;
}

/** The rule's violations among the imports of `source`, read as the file `file` (an absolute path under src/). */
function violationsIn(file: string, source: string): string[] {
  const from = layerOf(file);
  const where = relative(ROOT, file).split(sep).join('/');
  if (from === null)
    return [`${where}: not in any layer (give its folder a layer in test/architecture/layers.test.ts)`];
  const isTest = /\.test\.ts$/.test(file);
  const found: string[] = [];
  for (const { fileName: specifier } of ts.preProcessFile(source, true, true).importedFiles) {
    const problem = (why: string) => found.push(`${where} imports '${specifier}': ${why}`);
    const pkg = packageOf(specifier);
    if (pkg !== null) {
      if (isTest && TEST_PACKAGES.has(pkg)) continue;
      if (from.rank === 0 || from.name === 'symbols') {
        const allowed = from.name === 'symbols' ? SYMBOLS_PACKAGES : PURE_PACKAGES;
        if (!allowed.has(pkg)) problem(`${from.name}/ is pure: it may import only ${[...allowed].join(', ')}`);
      } else if (FRAMEWORK.test(pkg) && from.rank < LAYERS.find((l) => l.name === 'http')!.rank) {
        problem(`${from.name} is below the HTTP toolkit and imports no web framework`);
      }
      continue;
    }
    // Imports name the emitted '.js' of a '.ts' module (NodeNext).
    const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
    if (!target.startsWith(SRC + sep)) {
      // A unit test may use the shared helpers of test/support/; production code reaches nothing outside src/.
      if (isTest && target.startsWith(join(ROOT, 'test', 'support') + sep)) continue;
      problem('outside src/ (test helpers belong in test/support/)');
      continue;
    }
    const to = layerOf(target);
    if (to === null) problem('into no layer');
    else if (to.name !== from.name && to.rank >= from.rank) {
      problem(
        to.rank === from.rank
          ? `${from.name} and ${to.name} are peers`
          : `${from.name} (rank ${from.rank}) may not import the higher layer ${to.name} (rank ${to.rank})`,
      );
    }
  }
  return found;
}

describe('the dependency rule of src/', () => {
  const files = sourceFiles(SRC);

  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(200);
    for (const layer of LAYERS)
      expect(
        files.some((file) => layerOf(file) === layer),
        `no file in layer ${layer.name}`,
      ).toBe(true);
  });

  it('has every import point down (or within its layer), and keeps core/ and symbols/ free of frameworks', () => {
    expect(files.flatMap((file) => violationsIn(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('reports an upward import, a peer import, a framework in core/ and a reach outside src/ (the check itself, on made-up files)', () => {
    const check = (file: string, source: string) => violationsIn(join(SRC, file), source);
    expect(check('store/meta/x.ts', "import type { X } from '../../application/project-cache.js';")).toEqual([
      "src/store/meta/x.ts imports '../../application/project-cache.js': store (rank 2) may not import the higher layer application (rank 4)",
    ]);
    expect(check('api/x.ts', "import { quota } from '../ingest/quota.js';")).toEqual([
      "src/api/x.ts imports '../ingest/quota.js': api and ingest are peers",
    ]);
    expect(
      check('core/x.ts', "import type { FastifyInstance } from 'fastify';\nimport { z } from 'zod';"),
    ).toHaveLength(1);
    expect(check('store/x.ts', "import type { FastifyInstance } from 'fastify';")).toHaveLength(1);
    expect(check('symbols/x.ts', "import { fixture } from '../../test/support/symbols/fixtures.js';")).toHaveLength(1);
    expect(
      check(
        'symbols/x.test.ts',
        "import { fixture } from '../../test/support/symbols/fixtures.js';\nimport { it } from 'vitest';",
      ),
    ).toEqual([]);
    expect(check('nowhere/x.ts', '')).toHaveLength(1);
    expect(
      check(
        'api/x.ts',
        "import { f } from '../store/meta/types.js';\nimport { g } from '../core/ids.js';\nimport type { S } from '../application/services.js';",
      ),
    ).toEqual([]);
  });
});
