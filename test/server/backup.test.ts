/**
 * `sightline backup` and `sightline restore`, run as an operator runs them, against real
 * services (bin/sightline.mjs serve) on their own data folders: a backup taken over the control
 * socket while ingest keeps going holds every trace acknowledged before it began, the session
 * recording (an object) and the session secret; restored into an empty folder, a service started
 * on it answers the same reads to the same session token. A backup whose client or service is
 * killed mid-way leaves no archive, a stopped folder is backed up directly, a restore into a
 * folder that is not empty is refused, and one whose rows do not match the manifest is undone.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { runSightline, startChildService, type ChildService } from '../support/child-service.js';

const MS = 1_000_000;
const folders: string[] = [];
const running: ChildService[] = [];

function tempFolder(name: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `sightline-backup-${name}-`));
  folders.push(folder);
  return folder;
}

async function startService(dataDir: string): Promise<ChildService> {
  const service = await startChildService({ DATA_DIR: dataDir });
  running.push(service);
  return service;
}

async function stop(service: ChildService, signal: NodeJS.Signals = 'SIGTERM') {
  service.child.kill(signal);
  await service.exited;
}

afterAll(async () => {
  for (const service of running)
    if (service.child.exitCode === null && service.child.signalCode === null) await stop(service);
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

async function post(url: string, token: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: zlib.gzipSync(JSON.stringify(body)),
  });
}

/** One endpoint trace with this id in a native report; true when the service acknowledged it. */
async function reportTrace(url: string, projectToken: string, id: string): Promise<boolean> {
  const response = await post(`${url}/api/report`, projectToken, {
    appVersion: '1.0.0',
    serverName: 'web-1',
    collectionFrames: [
      {
        traces: [
          {
            id,
            endpoint: 'GET /backup',
            duration: 5 * MS,
            recordedAt: new Date().toISOString(),
            statusCode: 200,
            bodySize: 1,
            clientIP: '',
            spans: [{ id: randomUUID(), name: 'db', startTime: new Date().toISOString(), duration: MS }],
          },
        ],
        stackTraces: [],
        metrics: [],
      },
    ],
  });
  await response.arrayBuffer();
  return response.status === 200;
}

/** Sends traces one after another until stopped; `acked` lists each acknowledged one with when its answer came. */
function keepIngesting(url: string, projectToken: string) {
  const acked: Array<{ id: string; at: number }> = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const id = randomUUID();
      if (await reportTrace(url, projectToken, id)) acked.push({ id, at: performance.now() });
    }
  })();
  return {
    acked,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/** Every file below `folder`, as paths relative to it. */
function filesUnder(folder: string): string[] {
  return (fs.readdirSync(folder, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}

function get(url: string, token: string) {
  return fetch(url, { headers: { authorization: `Bearer ${token}` } });
}

function manifestOf(archive: string): { telemetry: { rows: Record<string, number> }; objects: { files: number } } {
  const entries = zlib.gunzipSync(fs.readFileSync(archive));
  // The manifest is the archive's first entry: a 512-byte tar header, then its text.
  const size = Number.parseInt(entries.subarray(124, 136).toString('latin1').trim(), 8);
  expect(entries.subarray(0, 100).toString('latin1').replace(/\0.*$/s, '')).toBe('manifest.json');
  return JSON.parse(entries.subarray(512, 512 + size).toString('utf8'));
}

describe('sightline backup and restore', () => {
  it('backs up a running service while ingest goes on, and restores it into an empty folder', async () => {
    const source = tempFolder('source');
    const archives = tempFolder('archives');
    const service = await startService(source);

    const registered = await fetch(`${service.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'backup@example.com', password: 'correct horse battery', name: 'Backup' }),
    });
    expect(registered.status).toBe(201);
    const { token: sessionToken, project } = (await registered.json()) as {
      token: string;
      project: { id: string; token: string };
    };
    // A browser session with a recording: its events are an object in the data folder.
    const sessionId = randomUUID();
    const at = new Date().toISOString();
    const report = await post(`${service.url}/api/report`, project.token, {
      appVersion: '1.0.0',
      serverName: 'web-1',
      collectionFrames: [
        {
          traces: [],
          metrics: [],
          stackTraces: [
            { stackTrace: 'Error: boom\n    at a (a.js:1:1)', recordedAt: at, isMessage: false, sessionId },
          ],
          sessions: [{ id: sessionId, startedAt: at, attributes: { url: 'https://shop.example/' } }],
          sessionRecordings: [{ sessionId, segmentIndex: 0, events: [{ type: 2 }], startedAt: at, endedAt: at }],
        },
      ],
    });
    expect(report.status).toBe(200);
    const recordingOf = async (url: string) => {
      const response = await get(`${url}/api/sessions/${sessionId}/recording?projectId=${project.id}`, sessionToken);
      return response.status === 200 ? ((await response.json()) as { segments: Array<{ events: unknown[] }> }) : null;
    };
    await expect.poll(() => recordingOf(service.url)).toMatchObject({ segments: [{ events: [{ type: 2 }] }] });

    const ingest = keepIngesting(service.url, project.token);
    await expect.poll(() => ingest.acked.length).toBeGreaterThan(5);
    const archive = path.join(archives, 'online.tar.gz');
    const backupStarted = performance.now();
    const backup = await runSightline(['backup', archive], { DATA_DIR: source });
    const backupEnded = performance.now();
    await ingest.stop();
    expect(backup.stderr).toContain('asking the running service');
    expect(backup.stderr).toMatch(/done: [\d.]+ MB written to .*online\.tar\.gz\n$/);
    expect(backup.code, backup.stderr).toBe(0);
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    const before = ingest.acked.filter((trace) => trace.at < backupStarted);
    // Ingest went on while the backup ran: the backup did not stop the service's writes.
    expect(ingest.acked.some((trace) => trace.at > backupStarted && trace.at < backupEnded)).toBe(true);
    expect(manifestOf(archive).telemetry.rows.endpoints).toBeGreaterThanOrEqual(before.length);
    expect(manifestOf(archive).objects.files).toBeGreaterThan(0);

    // The backup client killed mid-way: no archive; the service runs on.
    const cut = path.join(archives, 'client-killed.tar.gz');
    const killedClient = await runSightline(['backup', cut], { DATA_DIR: source }, { killWhen: /metadata: dumping/ });
    expect(killedClient.signal).toBe('SIGKILL');
    expect(fs.existsSync(cut)).toBe(false);
    expect((await fetch(`${service.url}/ready`)).status).toBe(200);
    expect(await reportTrace(service.url, project.token, randomUUID())).toBe(true);

    // The service killed mid-way: the client says so, and neither the archive nor its .partial is left.
    const orphan = path.join(archives, 'service-killed.tar.gz');
    let serviceKilled = false;
    const killedService = await runSightline(
      ['backup', orphan],
      { DATA_DIR: source },
      {
        onStderr: (stderr) => {
          if (!serviceKilled && /telemetry: BACKUP/.test(stderr)) {
            serviceKilled = true;
            service.child.kill('SIGKILL');
          }
        },
      },
    );
    expect(serviceKilled).toBe(true);
    expect(killedService.code, killedService.stderr).toBe(1);
    expect(killedService.stderr).toContain('the service stopped before the backup was complete');
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(`${orphan}.partial`)).toBe(false);
    await service.exited;

    // The folder no service runs on any more (its socket and lock left behind) is backed up directly.
    const offline = path.join(archives, 'stopped.tar.gz');
    const stoppedBackup = await runSightline(['backup', offline], { DATA_DIR: source });
    expect(stoppedBackup.code, stoppedBackup.stderr).toBe(0);
    expect(stoppedBackup.stderr).toContain('no service runs on');
    expect(manifestOf(offline).telemetry.rows.endpoints).toBeGreaterThanOrEqual(ingest.acked.length);
    expect(fs.existsSync(path.join(source, 'backup-staging'))).toBe(false);
    // No database that read a backup's counts is left in chDB's catalogue.
    expect(
      fs.readdirSync(path.join(source, 'chdb/metadata')).filter((name) => name.startsWith('sightline_backup_')),
    ).toEqual([]);

    // Restore the online backup into an empty folder, and start a service on it.
    const target = tempFolder('target');
    const restore = await runSightline(['restore', archive], { DATA_DIR: target });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stderr).toMatch(/telemetry: every table's rows match the manifest: .*endpoints \d+/);
    const restored = await startService(target);
    for (const trace of before) {
      const response = await get(`${restored.url}/api/traces/${trace.id}?projectId=${project.id}`, sessionToken);
      expect(response.status, `trace ${trace.id} acknowledged before the backup`).toBe(200);
    }
    expect(await recordingOf(restored.url)).toMatchObject({ segments: [{ events: [{ type: 2 }] }] });
    // Objects keep their modification times (expiry counts from them), to the second a tar header holds.
    const restoredObjects = filesUnder(path.join(target, 'objects'));
    expect(restoredObjects.length).toBeGreaterThan(0);
    for (const file of restoredObjects)
      expect(Math.floor(fs.statSync(path.join(target, 'objects', file)).mtimeMs / 1000), file).toBe(
        Math.floor(fs.statSync(path.join(source, 'objects', file)).mtimeMs / 1000),
      );

    // A folder that is not empty is refused, in one line, and left as it was.
    const refused = await runSightline(['restore', archive], { DATA_DIR: target });
    expect(refused.code).toBe(65);
    expect(refused.stderr).toMatch(/^sightline: the data folder .* is not empty \(.*\): restore into an empty folder/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect((await fetch(`${restored.url}/ready`)).status).toBe(200);

    // An archive whose telemetry does not hold the manifest's rows is refused after the restore, and the folder emptied.
    const unpacked = tempFolder('tampered');
    await tar.extract({ file: archive, cwd: unpacked });
    const manifestFile = path.join(unpacked, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as {
      telemetry: { rows: Record<string, number> };
    };
    manifest.telemetry.rows.endpoints! += 1;
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    const tampered = path.join(archives, 'tampered.tar.gz');
    await tar.create({ file: tampered, gzip: true, cwd: unpacked }, fs.readdirSync(unpacked));
    const elsewhere = tempFolder('elsewhere');
    const mismatch = await runSightline(['restore', tampered], { DATA_DIR: elsewhere });
    expect(mismatch.code).toBe(65);
    expect(mismatch.stderr).toMatch(
      /\nsightline: the restored telemetry does not match the archive's manifest \(endpoints: \d+ rows, manifest \d+\): the archive is damaged\n$/,
    );
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    // Four service starts and five commands: about 40 s on a quiet machine, far more on a loaded one.
  }, 300_000);
});
