/**
 * chDB inserts stage their RowBinary rows in a file of the memory-backed insert folder
 * (TELEMETRY_INSERT_DIR). The file lives only between its write and the end of its insert, and
 * a process killed in between loses nothing it acknowledged and leaves nothing after the next
 * start.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { GroupCommitWriter } from '../../src/store/telemetry/writer.js';
import { openChdb } from '../../src/store/telemetry/chdb.js';
import { migrateTelemetry } from '../../src/store/telemetry/migrate.js';
import { ENDPOINT_ROWS, rowsOf } from '../../src/store/telemetry/rows.js';
import { endpoints } from '../support/endpoint-records.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/chdb-insert-child.ts');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Every file under the insert folder (its per-store subfolders included). */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe('chDB insert files', () => {
  it('are removed once a SIGKILLed insert is followed by a restart, and acknowledged rows are all there', async () => {
    const dataDir = tempDir('sightline-crash-data-');
    const insertDir = tempDir('sightline-crash-inserts-');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, insertDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_, signal) => resolve(signal)));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Once the first batch is acknowledged, kill the child as soon as the next batch's file appears.
    let seen: string[] = [];
    while (seen.length === 0) {
      if (output.includes('stored'))
        throw new Error('the insert landed before its file was seen; make the batch larger');
      if (child.exitCode !== null) throw new Error(`the child exited early: ${output}`);
      if (output.includes('acked')) seen = filesUnder(insertDir);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(output).toBe('acked\n');
    expect(filesUnder(insertDir)).toEqual(seen);

    const engine = await openChdb({ path: dataDir, database: 'crash', insertDir });
    try {
      expect(filesUnder(insertDir)).toEqual([]);
      const [acked] = await engine.query<{ n: number }>("SELECT count() AS n FROM endpoints WHERE name = 'GET /acked'");
      expect(acked?.n).toBe(1_000);
    } finally {
      await engine.close();
    }
  }, 300_000);

  it('live only while their insert runs, in the configured folder', async () => {
    const dataDir = tempDir('sightline-inserts-data-');
    const insertDir = tempDir('sightline-inserts-');
    const engine = await openChdb({ path: dataDir, database: 'files', insertDir });
    try {
      await migrateTelemetry(engine);
      const seen = new Set<string>();
      const watcher = setInterval(
        () =>
          filesUnder(insertDir).forEach((name) => {
            seen.add(name);
          }),
        1,
      );
      const writer = new GroupCommitWriter(engine, { maxRows: 20_000, flushMs: 1 });
      await Promise.all(
        Array.from({ length: 4 }, () => writer.write([rowsOf(ENDPOINT_ROWS, endpoints(5_000, 'GET /files'))])),
      );
      await writer.close();
      clearInterval(watcher);
      expect([...seen].some((name) => /^endpoints-\d+-\d+\.rowbinary$/.test(name))).toBe(true);
      expect(filesUnder(insertDir)).toEqual([]);
      const [stored] = await engine.query<{ n: number }>(
        "SELECT count() AS n FROM endpoints WHERE name = 'GET /files'",
      );
      expect(stored?.n).toBe(20_000);
    } finally {
      await engine.close();
    }
    expect(fs.readdirSync(insertDir)).toEqual([]);
  }, 300_000);
});
