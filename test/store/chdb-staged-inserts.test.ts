/**
 * chDB's staged inserts (src/store/telemetry/staged-inserts.ts): a write is answered once its
 * rows are in a file under the data folder; many writes go into the table in one insert; a read
 * sees every write answered before it; a process killed with rows still staged loses none of
 * them, and the next start inserts them once and leaves no file behind.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'chdb';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChdbOptions, openChdb, STAGED_FOLDER } from '../../src/store/telemetry/chdb.js';
import type { TelemetryEngine } from '../../src/store/telemetry/engine.js';
import { migrateTelemetry } from '../../src/store/telemetry/migrate.js';
import { ENDPOINT_ROWS, encodeRows, rowsOf } from '../../src/store/telemetry/rows.js';
import { GroupCommitWriter } from '../../src/store/telemetry/writer.js';
import { endpoints } from '../support/endpoint-records.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/chdb-staged-child.ts');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A migrated chDB store in a new folder. */
async function migratedStore(prefix: string, options: Omit<ChdbOptions, 'path'>) {
  const dataDir = tempDir(prefix);
  const engine = await openChdb({ path: dataDir, ...options });
  await migrateTelemetry(engine);
  return { dataDir, engine };
}

/** Hands `count` endpoint rows named `name` to the engine: answered once staged. */
function writeEndpoints(engine: TelemetryEngine, count: number, name: string): Promise<void> {
  return engine.insertRows(ENDPOINT_ROWS, encodeRows(ENDPOINT_ROWS, endpoints(count, name)));
}

/** Every file under a data folder's staging folder, as `<batch>/<file>`, sorted. */
function stagedFiles(dataDir: string): string[] {
  const folder = path.join(dataDir, STAGED_FOLDER);
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() - started > timeoutMs) throw new Error('waited in vain');
  }
}

/** A statement on a connection of its own, around the engine (and so around its staging). */
function raw(dataDir: string, sql: string): string {
  const session = new Session(dataDir);
  try {
    return session.query(sql, 'TSV').toString().trim();
  } finally {
    session.close();
  }
}

function rawCount(dataDir: string, sql: string): number {
  return Number(raw(dataDir, sql));
}

describe('chDB staged inserts', () => {
  it('answer a write once its rows are on disk; a read right after sees them, all in one insert', async () => {
    const { dataDir, engine } = await migratedStore('sightline-staged-', { database: 'staged', stagedFlushMs: 60_000 });
    try {
      const writer = new GroupCommitWriter(engine, { maxRows: 20_000, flushMs: 1 });
      for (let i = 0; i < 20; i++) await writer.write([rowsOf(ENDPOINT_ROWS, endpoints(500, 'GET /staged'))]);

      // Answered, and on disk, but not yet in the table.
      const files = stagedFiles(dataDir);
      expect(files.filter((file) => file.endsWith('.rowbinary'))).toHaveLength(20);
      expect(files.every((file) => file.startsWith('endpoints-'))).toBe(true);
      expect(rawCount(dataDir, 'SELECT count() FROM staged.endpoints')).toBe(0);

      const [stored] = await engine.query<{ n: number }>(
        "SELECT count() AS n FROM endpoints WHERE name = 'GET /staged'",
      );
      expect(stored?.n).toBe(10_000);
      expect(stagedFiles(dataDir)).toEqual([]);
      // Twenty writes, one part: the insert took the whole batch.
      expect(
        rawCount(
          dataDir,
          "SELECT count() FROM system.parts WHERE database = 'staged' AND table = 'endpoints' AND active",
        ),
      ).toBe(1);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('go in by themselves once the batch is flushMs old, and at close', async () => {
    const { dataDir, engine } = await migratedStore('sightline-staged-timer-', {
      database: 'staged',
      stagedFlushMs: 50,
    });
    await writeEndpoints(engine, 100, 'GET /timer');
    // In the table, and its files gone (removed just after the insert).
    await until(() => stagedFiles(dataDir).length === 0);
    expect(rawCount(dataDir, 'SELECT count() FROM staged.endpoints')).toBe(100);
    await engine.close();

    const closing = await openChdb({ path: dataDir, database: 'staged', stagedFlushMs: 60_000 });
    await writeEndpoints(closing, 50, 'GET /timer');
    await closing.close();
    expect(stagedFiles(dataDir)).toEqual([]);
    expect(rawCount(dataDir, 'SELECT count() FROM staged.endpoints')).toBe(150);
    await expect(writeEndpoints(closing, 1, 'GET /late')).rejects.toThrow(/closed/);
  }, 120_000);

  it('survive a SIGKILL: the next start inserts the acknowledged rows once and leaves no file behind', async () => {
    const dataDir = tempDir('sightline-staged-crash-');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, '2000'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_, signal) => resolve(signal)));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    while (!output.includes('acked')) {
      if (child.exitCode !== null) throw new Error(`the child exited early: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const staged = stagedFiles(dataDir);
    expect(staged.filter((file) => file.endsWith('.rowbinary')).length).toBeGreaterThan(0);
    const [batch] = staged[0]!.split(path.sep);
    // What a write cut short by the kill would have left: never answered, so never inserted.
    fs.writeFileSync(path.join(dataDir, STAGED_FOLDER, batch!, '00000099.rowbinary.partial'), 'torn');
    // A copy of the batch, as if the next start were itself killed between its insert and the removal.
    const copy = path.join(tempDir('sightline-staged-copy-'), batch!);
    fs.cpSync(path.join(dataDir, STAGED_FOLDER, batch!), copy, { recursive: true });

    /** A start on the folder: it inserts what is staged, leaves no file, and holds every acknowledged row once. */
    const restart = async () => {
      const engine = await openChdb({ path: dataDir, database: 'crash' });
      try {
        expect(stagedFiles(dataDir)).toEqual([]);
        const rows = await engine.query<{ n: number }>("SELECT count() AS n FROM endpoints WHERE name = 'GET /acked'");
        expect(rows[0]?.n).toBe(2_000);
      } finally {
        await engine.close();
      }
    };
    await restart();
    // The same batch again: its deduplication token makes the insert add nothing (count without FINAL).
    fs.cpSync(copy, path.join(dataDir, STAGED_FOLDER, batch!), { recursive: true });
    await restart();
  }, 300_000);

  it('set a file the engine refuses aside in failed/ and insert the rest of its batch', async () => {
    const { dataDir, engine: first } = await migratedStore('sightline-staged-refused-', {
      database: 'refused',
      stagedFlushMs: 60_000,
    });
    await writeEndpoints(first, 300, 'GET /good');
    await writeEndpoints(first, 200, 'GET /good');
    // Keep the batch from its insert at close: take it away and put it back once closed.
    const [batch] = stagedFiles(dataDir)[0]!.split(path.sep);
    const held = path.join(tempDir('sightline-staged-held-'), batch!);
    fs.cpSync(path.join(dataDir, STAGED_FOLDER, batch!), held, { recursive: true });
    await first.close();
    expect(rawCount(dataDir, 'SELECT count() FROM refused.endpoints')).toBe(500);
    // The rows are in; make the held batch a different one: the good file of 300 rows under a new
    // name (a new token), and a file whose bytes are no endpoint rows.
    const renamed = batch!.replace(/-(\d+)$/, (_, n: string) => `-${Number(n) + 1000}`);
    const folder = path.join(dataDir, STAGED_FOLDER, renamed);
    fs.cpSync(held, folder, { recursive: true });
    fs.writeFileSync(path.join(folder, '00000002.rowbinary'), Buffer.from([1, 2, 3]));

    const errors: Array<{ table: string; setAside?: string }> = [];
    const engine = await openChdb({
      path: dataDir,
      database: 'refused',
      onStagedError: (_, what) => errors.push(what),
    });
    try {
      // Tried whole three times (0.1 s and 0.4 s apart), then file by file.
      await until(() => stagedFiles(dataDir).every((file) => file.startsWith('failed')));
      expect((await engine.query<{ n: number }>('SELECT count() AS n FROM endpoints'))[0]?.n).toBe(800);
      expect(stagedFiles(dataDir)).toEqual([`failed${path.sep}${renamed}-00000002.rowbinary`]);
      expect(errors.at(-1)).toEqual({
        table: 'endpoints',
        batch: renamed,
        setAside: expect.stringContaining('failed'),
      });
      expect(errors.filter((error) => error.setAside === undefined)).toHaveLength(3);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('refuse writes while a table takes no insert, keep what they answered, and take writes again once it does', async () => {
    const errors: unknown[] = [];
    const { dataDir, engine } = await migratedStore('sightline-staged-failing-', {
      database: 'failing',
      stagedFlushMs: 60_000,
      onStagedError: (error) => errors.push(error),
    });
    try {
      await writeEndpoints(engine, 10, 'GET /before');
      await engine.query('SELECT 1');
      // Around the engine, so its layout check still holds: the failure shows only at the insert.
      raw(dataDir, 'RENAME TABLE failing.endpoints TO failing.endpoints_parked');
      await writeEndpoints(engine, 20, 'GET /answered');
      // A read starts the insert; it fails, and the read does not wait for the retries.
      await engine.query('SELECT 1');
      expect(errors.length).toBeGreaterThanOrEqual(1);
      await expect(writeEndpoints(engine, 5, 'GET /refused')).rejects.toThrow(/inserts into endpoints are failing/);
      expect(stagedFiles(dataDir).filter((file) => file.endsWith('.rowbinary'))).toHaveLength(1);

      raw(dataDir, 'RENAME TABLE failing.endpoints_parked TO failing.endpoints');
      // The next retry (at most 5 s later) takes the batch; then writes are answered again.
      await until(() => stagedFiles(dataDir).length === 0);
      await writeEndpoints(engine, 5, 'GET /after');
      const rows = await engine.query<{ name: string; n: number }>(
        'SELECT name, count() AS n FROM endpoints GROUP BY name ORDER BY name',
      );
      expect(rows).toEqual([
        { name: 'GET /after', n: 5 },
        { name: 'GET /answered', n: 20 },
        { name: 'GET /before', n: 10 },
      ]);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
