/**
 * Vitest global setup: one temporary folder for the whole run, removed when it ends, for files
 * that tests hand to the service by path (plan catalogues). Workers inherit its path through
 * SIGHTLINE_TEST_RUN_DIR; a test file's own afterAll cannot remove what a module-level constant
 * made, and a worker's 'exit' handler does not run when vitest ends it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function setup(): () => void {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-test-run-'));
  process.env.SIGHTLINE_TEST_RUN_DIR = folder;
  return () => fs.rmSync(folder, { recursive: true, force: true });
}

/** A new folder inside the run's folder (the OS temp folder when run outside vitest's setup). */
export function runFolder(prefix: string): string {
  return fs.mkdtempSync(path.join(process.env.SIGHTLINE_TEST_RUN_DIR ?? os.tmpdir(), prefix));
}
