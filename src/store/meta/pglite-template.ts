/**
 * Initialising an empty PGlite data folder: PGlite's initdb, run in a short-lived child process
 * (pglite-initdb.mjs) because it grows WebAssembly memory to about 0.6 GB that a process never
 * gets back, and once per installation rather than once per folder: the build
 * (scripts/build-server.mjs) makes a template folder under dist/, and opening an empty folder
 * copies it (about 40 MB of files, no child, 0.4 GB less at the first start's peak). Without a
 * template for the installed PGlite (a run from the sources before any build) the child
 * initialises the folder itself. A PostgreSQL data folder holds no absolute path, so a copy is
 * as good as its original; the server settings are given at every start anyway.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PGliteOptions } from '@electric-sql/pglite';

/** PGlite's server settings for initdb and for the start that follows it in the child. */
export type InitdbSettings = Pick<PGliteOptions, 'startParams' | 'initDbStartParams'>;

const execFileAsync = promisify(execFile);
const INITDB_SCRIPT = fileURLToPath(new URL('./pglite-initdb.mjs', import.meta.url));

/** Where the build keeps templates: dist/pglite-template, from src/ and dist/ alike. */
export const PGLITE_TEMPLATES = fileURLToPath(new URL('../../../dist/pglite-template/', import.meta.url));

function installedPgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The template folder for the installed PGlite; it exists only once complete. */
export function pgliteTemplateFolder(templates: string = PGLITE_TEMPLATES): string {
  return path.join(templates, `pglite-${installedPgliteVersion()}`);
}

/** Runs PGlite's initdb into `target` (which must not exist) in a child process. */
export async function initdbInChild(target: string, settings: InitdbSettings): Promise<void> {
  try {
    await execFileAsync(process.execPath, [INITDB_SCRIPT, target, JSON.stringify(settings)], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    fs.rmSync(target, { recursive: true, force: true });
    const { stderr, code, signal } = error as { stderr?: string; code?: unknown; signal?: string | null };
    throw new Error(
      stderr?.trim() ||
        (signal
          ? `initdb process killed by ${signal}`
          : `initdb process failed (${String(code ?? (error as Error).message)})`),
    );
  }
}

/**
 * Initialises `target` (which must not exist): a copy of the template when there is one, else
 * initdb in a child. Returns which.
 */
export async function initialiseFromTemplate(
  target: string,
  settings: InitdbSettings,
  templates: string = PGLITE_TEMPLATES,
): Promise<'template' | 'initdb'> {
  const template = pgliteTemplateFolder(templates);
  if (fs.existsSync(template)) {
    fs.cpSync(template, target, { recursive: true });
    return 'template';
  }
  await initdbInChild(target, settings);
  return 'initdb';
}

/**
 * Makes the template for the installed PGlite unless it exists: initdb in a child into a
 * folder of this process, renamed into place when complete, so a build killed mid-way or two
 * builds at once leave no half template. Returns whether one was made.
 */
export async function buildPgliteTemplate(
  settings: InitdbSettings,
  templates: string = PGLITE_TEMPLATES,
): Promise<boolean> {
  const template = pgliteTemplateFolder(templates);
  if (fs.existsSync(template)) return false;
  fs.mkdirSync(templates, { recursive: true });
  // Templates of other PGlite versions (and their unfinished builds) are of no further use.
  for (const name of fs.readdirSync(templates)) {
    if (!name.startsWith(path.basename(template)))
      fs.rmSync(path.join(templates, name), { recursive: true, force: true });
  }
  const building = `${template}.building-${process.pid}`;
  await initdbInChild(building, settings);
  try {
    fs.renameSync(building, template);
  } catch (error) {
    fs.rmSync(building, { recursive: true, force: true });
    if (!fs.existsSync(template)) throw error; // another build made it meanwhile otherwise
  }
  return true;
}
