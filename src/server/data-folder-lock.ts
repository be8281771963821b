/**
 * One Sightline process per data folder.
 *
 * Two services on one DATA_DIR would both write PGlite's files (PostgreSQL's own postmaster.pid
 * check does not work inside PGlite), and chDB refuses the second one only after PGlite is open
 * and migrated. So the folder is claimed before any store opens: `sightline.lock` holds the
 * owner's pid and, on Linux, its start time, created exclusively. A lock whose process is gone,
 * or whose pid now belongs to a process started at another time (a container restart reuses
 * small pids), is stale and taken over; a process killed with SIGKILL leaves one behind.
 *
 * Node has no flock(), so two processes starting at the same instant on a folder holding a stale
 * lock can both take it over; chDB's own lock still stops the second of them when it opens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StartError } from './start-error.js';

export const LOCK_FILE = 'sightline.lock';

/** The data folder cannot be used; `exitCode` is what `sightline serve` exits with. */
export class DataFolderError extends StartError {
  override name = 'DataFolderError';
}

/** Another process holds the folder: exit 75 (EX_TEMPFAIL), it works once that one stops. */
export class DataFolderInUseError extends DataFolderError {
  override name = 'DataFolderInUseError';
  constructor(message: string) {
    super(message, 75);
  }
}

/** Not a folder, or not writable: exit 73 (EX_CANTCREAT). */
function unusable(folder: string, error: unknown): DataFolderError {
  const { code, message } = error as NodeJS.ErrnoException;
  const reason =
    code === 'EEXIST' || code === 'ENOTDIR'
      ? 'it is a file, not a folder'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? 'this user may not write there'
        : message;
  return new DataFolderError(`cannot use the data folder ${folder} (DATA_DIR): ${reason}`, 73);
}

export interface DataFolderLock {
  readonly path: string;
  close(): Promise<void>;
}

interface LockOwner {
  pid: number;
  /** Start time of the process in clock ticks since boot (Linux), null elsewhere. */
  startTime: number | null;
}

/** Folders this process holds. */
const held = new Set<string>();

export function lockDataFolder(dataDir: string): DataFolderLock {
  const folder = path.resolve(dataDir);
  const lockPath = path.join(folder, LOCK_FILE);
  if (held.has(folder)) throw new DataFolderInUseError(`the data folder ${folder} is already open in this process`);
  try {
    fs.mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw unusable(folder, error);
  }
  const me: LockOwner = { pid: process.pid, startTime: startTimeOf(process.pid) };
  // Two attempts: the second after removing a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, `${JSON.stringify(me)}\n`, { flag: 'wx', mode: 0o644 });
      held.add(folder);
      let released = false;
      return {
        path: lockPath,
        async close() {
          if (released) return;
          released = true;
          held.delete(folder);
          // Remove only our own lock: never one another process took over.
          if (readOwner(lockPath)?.pid === me.pid) fs.rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unusable(folder, error);
    }
    const owner = readOwner(lockPath);
    if (owner && isRunning(owner)) {
      throw new DataFolderInUseError(
        `the data folder ${folder} is in use by another Sightline process (pid ${owner.pid}): stop it, or set DATA_DIR to another folder`,
      );
    }
    fs.rmSync(lockPath, { force: true });
  }
  throw new DataFolderInUseError(
    `the data folder ${folder} is being claimed by another Sightline process starting now`,
  );
}

/** The lock's owner, or null for a file that is empty or unreadable (a process killed while writing it). */
function readOwner(lockPath: string): LockOwner | null {
  try {
    const owner = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as Partial<LockOwner>;
    return Number.isInteger(owner.pid) ? { pid: owner.pid as number, startTime: owner.startTime ?? null } : null;
  } catch {
    return null;
  }
}

function isRunning(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return false; // ours from an earlier life (pid 1 in a container), since `held` lacks it
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const startTime = startTimeOf(owner.pid);
  return owner.startTime === null || startTime === null || startTime === owner.startTime;
}

/** Field 22 of /proc/<pid>/stat, the process's start time after boot; null where /proc is absent. */
function startTimeOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTime = Number(fields[19]);
    return Number.isFinite(startTime) ? startTime : null;
  } catch {
    return null;
  }
}
