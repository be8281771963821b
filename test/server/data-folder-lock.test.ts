import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, LOCK_FILE, lockDataFolder } from '../../src/server/data-folder-lock.js';
import { startChildService, type ChildService } from '../support/child-service.js';

const BIN = fileURLToPath(new URL('../../bin/sightline.mjs', import.meta.url));

/** `sightline serve` on a data folder, expected to stop at once: its exit status and output. */
const serveOn = (dataDir: string) =>
  spawnSync(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('one process per data folder', () => {
  let dir: string;
  let holder: ChildService | null = null;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-lock-'));
  });
  afterEach(async () => {
    if (holder && holder.child.exitCode === null && holder.child.signalCode === null) {
      holder.child.kill('SIGKILL');
      await holder.exited;
    }
    holder = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('claims the folder, refuses a second claim in the same process, and frees it on close', async () => {
    const lock = lockDataFolder(dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    expect(() => lockDataFolder(dir)).toThrow(/already open in this process/);
    await lock.close();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    const again = lockDataFolder(dir);
    await again.close();
  });

  it('takes over a lock left by a process that is gone, by a reused pid, or half written', async () => {
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(exited.stdout);
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      const leftovers = [
        JSON.stringify({ pid: deadPid, startTime: null }),
        // A live process, but not the one that wrote the lock: it started at another time.
        ...(process.platform === 'linux' ? [JSON.stringify({ pid: sleeper.pid, startTime: 1 })] : []),
        '',
        '{"pid":',
      ];
      for (const leftover of leftovers) {
        fs.writeFileSync(path.join(dir, LOCK_FILE), leftover);
        const lock = lockDataFolder(dir);
        expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
        await lock.close();
      }
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a DATA_DIR that is a file stops `sightline serve` with exit 73 and one line saying so', () => {
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, '');
    expect(() => lockDataFolder(file)).toThrow(expect.objectContaining({ exitCode: 73 }));
    const run = serveOn(file);
    expect(run.status).toBe(73);
    expect(run.stderr.trim()).toBe(
      `sightline: cannot use the data folder ${file} (DATA_DIR): it is a file, not a folder`,
    );
  });

  it("a second `sightline serve` on a folder in use exits 75 with one line naming the owner, not the engines' error", async () => {
    holder = await startChildService({ DATA_DIR: dir });
    // The ready line names the folder, so a DATA_DIR mistyped or left relative is seen at once.
    expect(holder.output()).toMatch(
      new RegExp(
        `^Sightline is running at http://localhost:\\d+ — ready in \\d+ ms, data in ${path.resolve(dir)}$`,
        'm',
      ),
    );
    expect(() => lockDataFolder(dir)).toThrow(DataFolderInUseError);
    expect(() => lockDataFolder(dir)).toThrow(`in use by another Sightline process (pid ${holder!.child.pid})`);

    const second = serveOn(dir);
    expect(second.status).toBe(75);
    expect(second.stderr.trim()).toBe(
      `sightline: the data folder ${path.resolve(dir)} is in use by another Sightline process (pid ${holder.child.pid}): stop it, or set DATA_DIR to another folder`,
    );
    expect(second.stdout).not.toContain('running at');

    // A process killed with SIGKILL leaves its lock behind; the next start takes it over.
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(true);
    holder = await startChildService({ DATA_DIR: dir });
    expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(holder.child.pid);
    holder.child.kill('SIGTERM');
    expect(await holder.exited).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });
});
