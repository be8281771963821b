/**
 * `sightline restore <archive.tar.gz>`: rebuilds a data folder from an archive of `sightline
 * backup`, into an EMPTY data folder only (nothing is merged or overwritten) with no service on
 * it. PGlite's dump is loaded by PGlite, chDB's backup comes back through RESTORE DATABASE, the
 * objects and the session secret are put in place with their modification times; both stores are
 * then migrated as a start would (an archive of an older version), and every telemetry table's
 * rows are counted against the manifest. A restore that fails leaves the folder empty again.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { extract } from 'tar';
import type { Config } from '../config.js';
import { openMetaDb } from '../store/meta/index.js';
import { loadPgliteDump } from '../store/meta/pglite.js';
import { openTelemetryEngine, type TelemetryEngine } from '../store/telemetry/index.js';
import { checkIdentifier } from '../store/telemetry/chdb.js';
import { quoteString } from '../store/telemetry/literals.js';
import { migrateTelemetry } from '../store/telemetry/migrate.js';
import {
  allEmbedded,
  ARCHIVE,
  contentsOf,
  SERVER_ENGINES_REFUSAL,
  stagingRoot,
  type BackupManifest,
  type CommandOutput,
} from './backup.js';
import { LOCK_FILE, lockDataFolder } from './data-folder-lock.js';
import { StartError } from './start-error.js';

export async function runRestore(config: Config, archiveArgument: string, out: CommandOutput): Promise<void> {
  if (
    config.meta.kind !== 'pglite' ||
    config.telemetry.kind !== 'chdb' ||
    config.objects.kind !== 'fs' ||
    !allEmbedded(config)
  )
    throw new StartError(SERVER_ENGINES_REFUSAL, 64);
  const archive = path.resolve(archiveArgument);
  if (!fs.existsSync(archive) || !fs.statSync(archive).isFile()) throw new StartError(`no archive at ${archive}`, 66); // EX_NOINPUT
  const dataDir = path.resolve(config.dataDir);
  const present = fs.existsSync(dataDir) && fs.statSync(dataDir).isDirectory() ? fs.readdirSync(dataDir) : [];
  if (present.length > 0)
    throw new StartError(
      `the data folder ${dataDir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): restore into an empty folder (stop the service and move this one aside, or set DATA_DIR)`,
      65, // EX_DATAERR, as move's refusal of a filled target
    );
  const lock = lockDataFolder(dataDir);
  const staging = path.join(stagingRoot(dataDir), `restore-${randomBytes(4).toString('hex')}`);
  let telemetry: TelemetryEngine | null = null;
  let restored = false;
  try {
    out.write(`archive: unpacking ${archive}`);
    fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
    await extract({ file: archive, cwd: staging, strict: true }).catch((error: unknown) => {
      throw new StartError(`${archive} is not a readable tar.gz: ${(error as Error).message}`, 65);
    });
    const manifest = readManifest(staging, archive);
    out.write(`archive: taken ${manifest.createdAt} by Sightline ${manifest.version}`);

    out.write('metadata: loading the PGlite dump');
    await loadPgliteDump(
      config.meta.path,
      fs.readFileSync(path.join(staging, ARCHIVE.metadata)),
      config.meta.sharedBuffersMb,
    );
    const meta = await openMetaDb(config.meta); // applies this version's newer migrations
    await meta.close();

    const objects = path.join(staging, ARCHIVE.objects);
    if (fs.existsSync(objects)) fs.renameSync(objects, config.objects.root);
    out.write(
      `objects: ${manifest.objects.files.toLocaleString('en-US')} (${(manifest.objects.bytes / 1048576).toFixed(1)} MB)`,
    );
    if (manifest.sessionSecret)
      fs.copyFileSync(path.join(staging, ARCHIVE.sessionSecret), path.join(dataDir, 'session-secret'));
    if (fs.existsSync(path.join(dataDir, 'session-secret'))) fs.chmodSync(path.join(dataDir, 'session-secret'), 0o600);

    out.write('telemetry: RESTORE DATABASE');
    telemetry = await openTelemetryEngine(config.telemetry);
    await telemetry.command(
      `RESTORE DATABASE ${checkIdentifier(manifest.telemetry.database)} AS ${checkIdentifier(config.telemetry.database)} FROM File(${quoteString(`${path.join(staging, ARCHIVE.telemetry)}/`)})`,
    );
    const { rows } = await contentsOf(telemetry, config.telemetry.database);
    const differing = Object.entries(manifest.telemetry.rows).filter(([table, count]) => rows[table] !== count);
    if (differing.length > 0)
      throw new StartError(
        `the restored telemetry does not match the archive's manifest (${differing
          .map(([table, count]) => `${table}: ${rows[table] ?? 'missing'} rows, manifest ${count}`)
          .join('; ')}): the archive is damaged`,
        65,
      );
    out.write(
      `telemetry: every table's rows match the manifest: ${Object.entries(manifest.telemetry.rows)
        .map(([table, count]) => `${table} ${count.toLocaleString('en-US')}`)
        .join(', ')}`,
    );
    await migrateTelemetry(telemetry);
    restored = true;
    out.write(
      `done. Start Sightline with DATA_DIR=${dataDir} and the PUBLIC_URL it had` +
        (manifest.sessionSecret ? '' : ' and its SESSION_SECRET (the archive holds no session-secret)') +
        ', or sessions end and alert channels must be set up again.',
    );
  } finally {
    await telemetry?.close().catch(() => undefined);
    fs.rmSync(stagingRoot(dataDir), { recursive: true, force: true });
    // The folder was empty: a restore that did not finish leaves it so, ready for another try.
    if (!restored)
      for (const entry of fs.readdirSync(dataDir))
        if (entry !== LOCK_FILE) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    await lock.close();
  }
}

function readManifest(staging: string, archive: string): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(staging, ARCHIVE.manifest), 'utf8')) as Partial<BackupManifest>;
  } catch {
    throw new StartError(`${archive} is no Sightline backup (no readable ${ARCHIVE.manifest} in it)`, 65);
  }
  if (manifest.sightline !== 'backup' || typeof manifest.telemetry?.database !== 'string')
    throw new StartError(`${archive} is no Sightline backup (its ${ARCHIVE.manifest} is not a backup's)`, 65);
  if (manifest.format !== 1)
    throw new StartError(
      `${archive} is in backup format ${String(manifest.format)}, which this version (format 1) cannot read: restore with the version that wrote it (${String(manifest.version)}) or newer`,
      65,
    );
  return manifest as BackupManifest;
}
