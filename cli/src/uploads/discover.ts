/**
 * Finds debug-symbol files under the paths given: Dart `.symbols` files, the DWARF binaries inside
 * iOS `.dSYM` bundles, and Android (R8/ProGuard) mapping files. A file named explicitly is
 * uploaded whatever it is: the service decides, and answers which files it skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../errors.js';

export type SymbolKind = 'dart' | 'ios' | 'android' | 'other';

export interface SymbolFile {
  path: string;
  kind: SymbolKind;
  size: number;
}

const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.dart_tool', 'Pods']);

export function findSymbolFiles(paths: string[]): SymbolFile[] {
  const found = new Map<string, SymbolFile>();
  const add = (file: string, kind: SymbolKind) =>
    found.set(path.resolve(file), { path: file, kind, size: fs.statSync(file).size });
  for (const given of paths) {
    const stat = statOrNull(given);
    if (!stat) throw usageError(`no such file or folder: ${given}`);
    if (stat.isFile()) add(given, kindOfFile(given) ?? 'other');
    else if (isDsym(given)) for (const file of dsymBinaries(given)) add(file, 'ios');
    else walk(given, add);
  }
  return [...found.values()];
}

function walk(folder: string, add: (file: string, kind: SymbolKind) => void): void {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (isDsym(full)) for (const file of dsymBinaries(full)) add(file, 'ios');
      else if (!SKIPPED_FOLDERS.has(entry.name)) walk(full, add);
    } else if (entry.isFile()) {
      const kind = kindOfFile(full);
      if (kind) add(full, kind);
    }
  }
}

const isDsym = (folder: string): boolean => /\.dsym$/i.test(path.basename(folder));

/** The Mach-O files of a bundle: `<name>.dSYM/Contents/Resources/DWARF/*`. */
function dsymBinaries(bundle: string): string[] {
  const dwarf = path.join(bundle, 'Contents', 'Resources', 'DWARF');
  if (!statOrNull(dwarf)?.isDirectory()) return [];
  return fs
    .readdirSync(dwarf, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(dwarf, entry.name));
}

function kindOfFile(file: string): SymbolKind | null {
  const name = path.basename(file);
  if (name.endsWith('.symbols')) return 'dart';
  if (name.endsWith('.txt') && looksLikeMapping(file)) return 'android';
  return null;
}

/** An R8/ProGuard mapping: `#` header lines, then class lines such as `com.shop.Cart -> a.a:`. */
function looksLikeMapping(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(8192);
    const length = fs.readSync(fd, head, 0, head.length, 0);
    const lines = head.subarray(0, length).toString('latin1').split('\n');
    for (const line of lines.map((text) => text.trim())) {
      if (line === '') continue;
      if (line.startsWith('#')) {
        if (/"com\.android\.tools\.r8\.mapping"|pg_map_id/.test(line)) return true;
        continue;
      }
      return /^[^\s#]\S* -> \S+:$/.test(line);
    }
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}
