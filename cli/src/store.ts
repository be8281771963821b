/**
 * Profiles and their credentials in one file of the user's config folder: folder 0700, file 0600,
 * written atomically (temp file + rename) so a crash never leaves half a file, and changed under
 * a lock file so two CLI processes never both spend the same refresh token (the service revokes
 * the whole login when a rotated refresh token is presented again).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { CliError, EXIT } from './errors.js';

const deviceCredentials = z.object({
  kind: z.literal('device'),
  accessToken: z.string(),
  refreshToken: z.string(),
  /** ISO time on this machine's clock, from the token answer's expires_in. */
  accessTokenExpiresAt: z.string(),
});
const tokenCredentials = z.object({ kind: z.literal('token'), token: z.string() });

const profileSchema = z.object({
  url: z.string(),
  credentials: z.discriminatedUnion('kind', [deviceCredentials, tokenCredentials]).optional(),
  projectId: z.string().optional(),
  projectName: z.string().optional(),
});

const storeSchema = z.object({
  currentProfile: z.string(),
  profiles: z.record(z.string(), profileSchema),
});

export type DeviceCredentials = z.infer<typeof deviceCredentials>;
export type Credentials = NonNullable<z.infer<typeof profileSchema>['credentials']>;
export type Profile = z.infer<typeof profileSchema>;
export type Store = z.infer<typeof storeSchema>;

export const DEFAULT_PROFILE = 'default';
const FILE_NAME = 'credentials.json';

/** SIGHTLINE_CONFIG_DIR, else the platform's per-user config folder. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SIGHTLINE_CONFIG_DIR) return path.resolve(env.SIGHTLINE_CONFIG_DIR);
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'sightline');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'sightline');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'sightline');
}

export const credentialsPath = (): string => path.join(configDir(), FILE_NAME);

export function readStore(): Store {
  let text: string;
  try {
    text = fs.readFileSync(credentialsPath(), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { currentProfile: DEFAULT_PROFILE, profiles: {} };
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined; // not JSON at all: refused below like JSON of the wrong shape
  }
  const parsed = storeSchema.safeParse(json);
  if (!parsed.success) {
    throw new CliError(
      `${credentialsPath()} is not a credentials file of this CLI`,
      EXIT.usage,
      'remove it and run `sightline-cli login` again',
    );
  }
  return parsed.data;
}

export function writeStore(store: Store): void {
  const dir = ensureConfigDir();
  const target = path.join(dir, FILE_NAME);
  const temporary = path.join(dir, `.${FILE_NAME}.${process.pid}.tmp`);
  const fd = fs.openSync(temporary, 'w', 0o600);
  try {
    fs.writeFileSync(fd, `${JSON.stringify(store, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, target);
}

function ensureConfigDir(): string {
  const dir = configDir();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Also for a folder that existed (SIGHTLINE_CONFIG_DIR): it holds secrets.
  if (process.platform !== 'win32') fs.chmodSync(dir, 0o700);
  return dir;
}

/** Reads, changes and writes the store under the lock; `change` sees the latest file. */
export async function updateStore<T>(change: (store: Store) => T | Promise<T>): Promise<T> {
  return withLock(async () => {
    const store = readStore();
    const result = await change(store);
    writeStore(store);
    return result;
  });
}

const LOCK_WAIT_MS = 30_000;
/** A holder that has not finished within this long has crashed mid-refresh (a refresh is one request). */
const LOCK_STALE_MS = 60_000;

export async function withLock<T>(work: () => Promise<T>): Promise<T> {
  const lockPath = path.join(ensureConfigDir(), `${FILE_NAME}.lock`);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (lockIsStale(lockPath)) {
        fs.rmSync(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new CliError(
          'another sightline-cli process holds the credentials lock',
          EXIT.apiError,
          `if none is running, remove ${lockPath}`,
        );
      }
      await sleep(25);
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lockPath, { force: true });
  }
}

function lockIsStale(lockPath: string): boolean {
  try {
    const holder = Number(fs.readFileSync(lockPath, 'utf8'));
    if (Number.isInteger(holder) && holder > 0 && !processIsAlive(holder)) return true;
    return Date.now() - fs.statSync(lockPath).mtimeMs > LOCK_STALE_MS;
  } catch {
    // Released between our attempt and this look: not stale, just try again.
    return false;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
