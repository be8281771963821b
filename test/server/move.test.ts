/**
 * `sightline move`, run as an operator runs it: an embedded installation (PGlite, chDB, files),
 * filled through the real routes, is copied onto PostgreSQL, a ClickHouse server (the HTTP shim,
 * in its own process) and S3 (s3rver); a service started on those servers then answers as the
 * embedded one did, to the same session token, and a device login's refresh token rotates on.
 * Also: a second move into the filled servers, a move while the folder is in use and one with
 * no server named are refused with their exit codes, and change nothing. A move killed mid-way
 * leaves its mark on every target: the service refuses to start on them, and the next move
 * empties Sightline's tables, removes the objects the folder deleted since, and copies again, to
 * the same rows and objects as a whole move.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataFolder } from '../../src/server/data-folder-lock.js';
import { openMetaDb } from '../../src/store/meta/index.js';
import { createObjectStore } from '../../src/store/objects/index.js';
import { openTelemetryEngine } from '../../src/store/telemetry/index.js';
import { bearer, call } from '../support/access.js';
import {
  POSTGRES_ADDRESS,
  markMigratedByNewerBuild,
  postgresQuery,
  postgresUnavailable,
  postgresUrl,
} from '../support/postgres.js';
import { startS3rverProcess, startShimProcess, type ChildServer } from '../support/child-servers.js';
import { fillProject, objectsOf, uploadDartSymbols, uploadTokenOf } from '../support/project-data.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../bin/sightline.mjs');
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const BUCKET = 'sightline-move';
/** A recording the cut-short move copies and the data folder then loses. */
const GONE_SINCE = (projectId: string) => `recordings/${projectId}/gone-since/noexception/0.json.gz`;

const postgresDown = await postgresUnavailable();
if (postgresDown) console.warn(`sightline move suite SKIPPED — no PostgreSQL at ${POSTGRES_ADDRESS}: ${postgresDown}`);

interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** `sightline <command>`; killed with SIGKILL as soon as its stderr matches `killWhen`. */
function runSightline(command: string, env: Record<string, string>, killWhen?: RegExp): Promise<Exited> {
  const child = spawn(process.execPath, [BIN, command], {
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (killWhen?.test(stderr)) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
}

const runMove = (env: Record<string, string>) => runSightline('move', env);

/**
 * What a set of targets holds: each metadata table's row count and a hash of its rows, each
 * telemetry table's count and hash, every object with its size. Bookkeeping of the migrations
 * is left out (it records when they ran); a move's mark is not.
 */
async function targetContent(env: Record<string, string>) {
  const meta = await openMetaDb({ kind: 'postgres', url: env.DATABASE_URL!, migrate: false });
  const telemetry = await openTelemetryEngine({
    kind: 'clickhouse-http',
    url: env.CLICKHOUSE_URL!,
    database: env.CLICKHOUSE_DATABASE!,
  });
  const objects = await createObjectStore({
    engine: 's3',
    bucket: env.S3_BUCKET!,
    endpoint: env.S3_ENDPOINT!,
    region: env.S3_REGION!,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: true,
  });
  try {
    const metadata: Record<string, unknown> = {};
    const metaTables = await meta.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname != 'schema_migrations' ORDER BY 1`,
    );
    for (const { name } of metaTables)
      metadata[name] = (
        await meta.query(
          `SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS hash FROM "${name}" t`,
        )
      )[0];
    const rows: Record<string, unknown> = {};
    const telemetryTables = await telemetry.query<{ name: string }>(
      "SELECT name FROM system.tables WHERE database = currentDatabase() AND name != 'schema_migrations' ORDER BY name",
    );
    for (const { name } of telemetryTables)
      rows[name] = (
        await telemetry.query(`SELECT count() AS rows, toString(sum(cityHash64(*))) AS hash FROM ${name}`)
      )[0];
    const sizes: Record<string, number | undefined> = {};
    let after: string | undefined;
    do {
      const page = await objects.list('', after === undefined ? {} : { after });
      for (const key of page.keys) sizes[key] = (await objects.head(key))?.size;
      after = page.next;
    } while (after !== undefined);
    return { metadata, telemetry: rows, objects: sizes };
  } finally {
    await meta.close();
    await telemetry.close();
    await objects.close();
  }
}

describe.skipIf(postgresDown !== null)('sightline move: an embedded installation onto the servers', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-move-'));
  const database = `sightline_move_${randomBytes(6).toString('hex')}`;
  let shim: ChildServer;
  let s3: ChildServer;
  let servers: Record<string, string>;
  /** Other targets on the same servers, for the move cut short. */
  let cutS3: ChildServer;
  let cutServers: Record<string, string>;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let refreshToken: string;
  /** What the embedded service answered, by request. */
  const answered: Record<string, unknown> = {};
  let objectKeys: string[] = [];

  // One range for both services' answers: a series is bucketed from it.
  const range = {
    fromDate: new Date(Date.now() - 3600_000).toISOString(),
    toDate: new Date(Date.now() + 3600_000).toISOString(),
  };
  const reads = (projectId: string) => {
    return {
      me: { method: 'GET' as const, url: '/api/me' },
      projects: { method: 'GET' as const, url: '/api/projects' },
      issues: {
        method: 'POST' as const,
        url: `/api/exception-stack-traces?projectId=${projectId}`,
        payload: { ...range, pagination: { page: 1, pageSize: 50 } },
      },
      logs: {
        method: 'POST' as const,
        url: `/api/logs?projectId=${projectId}`,
        payload: { ...range, pagination: { page: 1, pageSize: 50 } },
      },
      endpoints: {
        method: 'POST' as const,
        url: `/api/endpoints?projectId=${projectId}`,
        payload: { ...range, pagination: { page: 1, pageSize: 50 } },
      },
      usage: { method: 'GET' as const, url: `/api/billing/usage?projectId=${projectId}` },
    };
  };

  beforeAll(async () => {
    const embedded: TestService = await startTestService({ DATA_DIR: dataDir });
    try {
      owner = await registerUser(embedded.app);
      await embedded.services.meta.query("UPDATE projects SET framework = 'flutter'");
      const project = {
        id: owner.project.id,
        token: owner.project.token,
        uploadToken: await uploadTokenOf(embedded, owner.project.id),
      };
      await uploadDartSymbols(embedded, project);
      await fillProject(embedded, project);
      // A device login, refreshed once: its first refresh token now names its successor.
      const started = (await call(embedded.app, { method: 'POST', url: '/api/auth/device/authorize', payload: {} }))
        .body!;
      await call(embedded.app, {
        method: 'POST',
        url: '/api/device/approve',
        headers: bearer(owner.token),
        payload: { user_code: started.user_code },
      });
      const granted = await call(embedded.app, {
        method: 'POST',
        url: '/api/auth/device/token',
        payload: { grant_type: DEVICE_GRANT, device_code: started.device_code },
      });
      const refreshed = await call(embedded.app, {
        method: 'POST',
        url: '/api/auth/device/token',
        payload: { grant_type: 'refresh_token', refresh_token: granted.body!.refresh_token },
      });
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      refreshToken = refreshed.body!.refresh_token;
      for (const [name, request] of Object.entries(reads(project.id))) {
        const response = await call(embedded.app, { ...request, headers: bearer(owner.token) });
        expect(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(200);
        answered[name] = response.body;
      }
      objectKeys = await objectsOf(embedded, project.id);
    } finally {
      await embedded.close();
    }
    await postgresQuery(`CREATE DATABASE ${database}`);
    await postgresQuery(`CREATE DATABASE ${database}_cut`);
    shim = await startShimProcess();
    s3 = await startS3rverProcess(BUCKET);
    cutS3 = await startS3rverProcess(`${BUCKET}-cut`);
    servers = {
      DATABASE_URL: postgresUrl(database),
      CLICKHOUSE_URL: shim.url,
      CLICKHOUSE_DATABASE: 'sightline_moved',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3.url,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    };
    cutServers = {
      ...servers,
      DATABASE_URL: postgresUrl(`${database}_cut`),
      CLICKHOUSE_DATABASE: 'sightline_cut',
      S3_BUCKET: `${BUCKET}-cut`,
      S3_ENDPOINT: cutS3.url,
    };
  }, 180_000);
  afterAll(async () => {
    await shim?.close();
    await s3?.close();
    await cutS3?.close();
    await postgresQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await postgresQuery(`DROP DATABASE IF EXISTS ${database}_cut WITH (FORCE)`).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses with no server named (64), from a folder that is no data folder (66) and while the data folder is in use (75)', async () => {
    const nothing = await runMove({ DATA_DIR: dataDir });
    expect(nothing.code).toBe(64);
    expect(nothing.stderr).toContain('nothing to move onto: set DATABASE_URL, CLICKHOUSE_URL and/or S3_BUCKET');
    // Objects only, from a DATA_DIR that is no data folder: refused, and the folder not created.
    const wrong = path.join(dataDir, 'not-here');
    const nowhere = await runMove({ ...servers, DATABASE_URL: '', CLICKHOUSE_URL: '', DATA_DIR: wrong });
    expect(nowhere.code).toBe(66);
    expect(nowhere.stderr).toContain(
      `sightline: ${wrong} is no Sightline data folder (no objects, pglite, chdb nor session-secret in it): is DATA_DIR right?\n`,
    );
    expect(fs.existsSync(wrong)).toBe(false);
    const lock = lockDataFolder(dataDir);
    try {
      const busy = await runMove({ DATA_DIR: dataDir, ...servers });
      expect(busy.code).toBe(75);
      expect(busy.stderr).toContain('is in use by another Sightline process');
    } finally {
      await lock.close();
    }
  });

  it('a server that cannot be reached or used: one line naming its variable, credentials hidden, exit 69, nothing copied', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const cases: { env: Record<string, string>; line: string }[] = [
      {
        env: { DATABASE_URL: `postgres://postgres:hunter2@127.0.0.1:1/${database}` },
        line: `sightline: cannot use the PostgreSQL database (DATABASE_URL="postgres://***@127.0.0.1:1/${database}"): cannot connect to PostgreSQL: connect ECONNREFUSED 127.0.0.1:1; nothing was copied\n`,
      },
      {
        env: { DATABASE_URL: `postgres://postgres@${POSTGRES_ADDRESS}/${database}_missing` },
        line: `sightline: cannot use the PostgreSQL database (DATABASE_URL="postgres://***@${POSTGRES_ADDRESS}/${database}_missing"): cannot connect to PostgreSQL: database "${database}_missing" does not exist; nothing was copied\n`,
      },
      {
        env: { CLICKHOUSE_URL: 'http://default:hunter2@127.0.0.1:1' },
        line: 'sightline: cannot use the ClickHouse database sightline (CLICKHOUSE_URL="http://***@127.0.0.1:1"): connect ECONNREFUSED 127.0.0.1:1; nothing was copied\n',
      },
      {
        env: { ...servers, DATABASE_URL: '', CLICKHOUSE_URL: '', S3_BUCKET: 'no-such-bucket' },
        line: `sightline: cannot use the S3 bucket no-such-bucket (S3_ENDPOINT="${s3.url}"): no such bucket (create it first); nothing was copied\n`,
      },
    ];
    for (const { env, line } of cases) {
      const failed = await runMove({ DATA_DIR: dataDir, ...env });
      expect(failed.code, failed.stderr).toBe(69);
      const own = failed.stderr.split('\n').filter((l) => l.startsWith('sightline'));
      expect(own).toEqual([line.trimEnd()]);
    }
  }, 60_000);

  it('a target database a newer Sightline migrated: the refusal alone, exit 1 (as serve), nothing copied', async () => {
    const newer = `${database}_newer`;
    await postgresQuery(`CREATE DATABASE ${newer}`);
    try {
      await markMigratedByNewerBuild(newer);
      const refused = await runMove({ DATA_DIR: dataDir, DATABASE_URL: postgresUrl(newer) });
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr.split('\n').filter((line) => line.startsWith('sightline'))).toEqual([
        expect.stringMatching(
          /^sightline: the metadata database has migration 9999_future, which this build does not know: /,
        ),
      ]);
    } finally {
      await postgresQuery(`DROP DATABASE IF EXISTS ${newer} WITH (FORCE)`);
    }
  }, 60_000);

  it('copies metadata, objects and telemetry, verified, and says how to go on', async () => {
    const moved = await runMove({ DATA_DIR: dataDir, ...servers });
    expect(moved.code, moved.stderr).toBe(0);
    // The AWS SDK's warning about Node 20 (its releases after January 2027) is not shown.
    expect(moved.stderr).not.toContain('NodeVersionSupportWarning');
    const lines = moved.stderr
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('sightline move: '));
    expect(moved.stderr).toMatch(/metadata: [\d,]+ rows in \d+ tables copied/);
    expect(moved.stderr).toContain(`objects: ${objectKeys.length} copied`);
    // One page of objects: its figures once, in the closing line (before: twice).
    expect(lines.filter((line) => line.startsWith('sightline move: objects: ') && line.includes(' copied'))).toEqual([
      expect.stringMatching(/^sightline move: objects: \d+ copied \([\d.]+ MB\), 0 already there$/),
    ]);
    const telemetry = /telemetry: ([\d,]+) rows in 13 tables copied and verified/.exec(moved.stderr);
    expect(Number(telemetry?.[1]?.replaceAll(',', ''))).toBeGreaterThan(10);
    expect(lines.at(-1)).toContain(`SESSION_SECRET set to the content of ${path.join(dataDir, 'session-secret')}`);
  }, 120_000);

  it('a second move finds the servers filled and changes nothing (65)', async () => {
    const again = await runMove({ DATA_DIR: dataDir, ...servers });
    expect(again.code).toBe(65);
    expect(again.stderr).toContain('is not empty (rows in ');
  }, 60_000);

  it('a move killed mid-way leaves its mark on every target, and the service refuses to start on each', async () => {
    // An object the folder holds during this move only (the redo below finds it deleted).
    const folderObjects = await createObjectStore({ engine: 'fs', root: path.join(dataDir, 'objects') });
    await folderObjects.put(GONE_SINCE(owner.project.id), Buffer.from('deleted before the redo'));
    await folderObjects.close();
    // Killed at its first telemetry table: metadata and objects are copied, telemetry only begun.
    const killed = await runSightline('move', { DATA_DIR: dataDir, ...cutServers }, /telemetry: \w+ [\d,]+ of /);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(killed.stderr).toMatch(/metadata: [\d,]+ rows in \d+ tables copied/);
    expect(killed.stderr).not.toContain('copied and verified');
    const held = await targetContent(cutServers);
    const mark = { rows: 1, hash: expect.any(String) };
    expect(held.metadata.sightline_move_in_progress).toEqual(mark);
    expect(held.telemetry.sightline_move_in_progress).toEqual(mark);
    expect(held.objects['sightline-move-in-progress']).toBeGreaterThan(0);
    expect(held.objects[GONE_SINCE(owner.project.id)]).toBeGreaterThan(0);

    // Started elsewhere (another DATA_DIR): the line names the folder the move came from.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-move-start-'));
    const start = { DATA_DIR: elsewhere, PORT: '0', HOST: '127.0.0.1' };
    const redo = `run the move again with this start's server variables (DATA_DIR=${dataDir} npx sightline move), then start (docs/OPERATIONS.md §7)`;
    try {
      for (const [env, target] of [
        [cutServers, 'the PostgreSQL database of DATABASE_URL'],
        [{ ...cutServers, DATABASE_URL: '' }, 'the ClickHouse database sightline_cut'],
        [{ ...cutServers, DATABASE_URL: '', CLICKHOUSE_URL: '' }, `the S3 bucket ${BUCKET}-cut`],
      ] as const) {
        const refused = await runSightline('serve', { ...start, ...env });
        expect(refused.code, refused.stderr).toBe(65);
        expect(refused.stderr.split('\n').filter((line) => line.startsWith('sightline'))).toEqual([
          `sightline: a sightline move into ${target} did not finish, so it holds only part of the data: ${redo}`,
        ]);
      }
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 180_000);

  it('the next move empties what the cut-short one wrote and copies again: the same rows and objects as a whole move, no mark left', async () => {
    // A table that is not Sightline's, with a row: refused as ever, the mark kept.
    await postgresQuery('CREATE TABLE operator_notes (note text)', `${database}_cut`);
    await postgresQuery("INSERT INTO operator_notes VALUES ('keep me')", `${database}_cut`);
    const foreign = await runMove({ DATA_DIR: dataDir, ...cutServers });
    expect(foreign.code, foreign.stderr).toBe(65);
    expect(foreign.stderr).toContain('is not empty (rows in operator_notes): move into an empty database');
    await postgresQuery('DELETE FROM operator_notes', `${database}_cut`);
    // Deleted from the folder since the cut-short run copied it; beside it in the bucket, a key
    // that is not Sightline's, which no move touches.
    const folderObjects = await createObjectStore({ engine: 'fs', root: path.join(dataDir, 'objects') });
    await folderObjects.delete(GONE_SINCE(owner.project.id));
    await folderObjects.close();
    const cutBucket = await createObjectStore({
      engine: 's3',
      bucket: cutServers.S3_BUCKET!,
      endpoint: cutServers.S3_ENDPOINT!,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    await cutBucket.put('operator/notes.txt', Buffer.from('keep me'));
    await cutBucket.close();

    const redone = await runMove({ DATA_DIR: dataDir, ...cutServers });
    expect(redone.code, redone.stderr).toBe(0);
    const lines = redone.stderr.split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^sightline move: metadata: the PostgreSQL database of DATABASE_URL holds a move that did not finish \\(from ${dataDir}\\): emptying its \\d+ Sightline tables and copying again$`,
        ),
      ),
    );
    expect(lines).toContain(
      `sightline move: telemetry: the ClickHouse database sightline_cut holds a move that did not finish (from ${dataDir}): emptying its 13 Sightline tables and copying again`,
    );
    expect(lines).toContain(
      `sightline move: objects: the S3 bucket ${BUCKET}-cut holds a move that did not finish (from ${dataDir}): copying again (objects already there whole are kept, those the data folder no longer has are removed)`,
    );
    expect(lines).toContain('sightline move: objects: 1 removed from the bucket that the data folder no longer has');
    expect(redone.stderr).toContain(`objects: 0 copied (0.0 MB), ${objectKeys.length} already there`);
    expect(redone.stderr).toContain('13 tables copied and verified');

    // Row for row and object for object what the whole move wrote; the table not Sightline's kept.
    const { metadata, ...rest } = await targetContent(cutServers);
    const whole = await targetContent(servers);
    expect(metadata.operator_notes).toEqual({ rows: 0, hash: expect.any(String) });
    delete metadata.operator_notes;
    expect(rest.objects['operator/notes.txt']).toBe('keep me'.length);
    delete rest.objects['operator/notes.txt'];
    expect({ metadata, ...rest }).toEqual(whole);

    // No mark left: a move into the filled targets is refused as into any filled database.
    const again = await runMove({ DATA_DIR: dataDir, ...cutServers });
    expect(again.code).toBe(65);
    expect(again.stderr).toContain('is not empty (rows in ');
  }, 180_000);

  it('a copy that fails after the marks: one line saying the targets keep the mark and to run the move again, exit 1, no stack trace', async () => {
    // A logs table that is not what the migrations make (created before them, so they keep it):
    // the real engine refuses the copy's insert into it.
    const broken = { CLICKHOUSE_URL: shim.url, CLICKHOUSE_DATABASE: 'sightline_broken' };
    const telemetry = await openTelemetryEngine({
      kind: 'clickhouse-http',
      url: shim.url,
      database: 'sightline_broken',
    });
    try {
      await telemetry.command('CREATE TABLE logs (note String) ENGINE = MergeTree ORDER BY tuple()');
    } finally {
      await telemetry.close();
    }
    const failed = await runMove({ DATA_DIR: dataDir, ...broken });
    expect(failed.code, failed.stderr).toBe(1);
    const own = failed.stderr.split('\n').filter((line) => line.startsWith('sightline: '));
    expect(own).toEqual([
      expect.stringMatching(
        /^sightline: the move stopped before it finished \(.+\): the targets keep its mark, so the service will not start on them; fix the cause and run the same move again, which empties what this one wrote and copies again \(docs\/OPERATIONS\.md §7\)$/,
      ),
    ]);
    expect(failed.stderr).not.toMatch(/^\s+at /m);
    const refused = await runSightline('serve', { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...broken });
    expect(refused.code, refused.stderr).toBe(65);
    expect(refused.stderr).toContain('a sightline move into the ClickHouse database sightline_broken did not finish');
  }, 120_000);

  it('the service on the servers answers as the embedded one did, to the same session; the refresh token rotates on', async () => {
    const moved = await startTestService({
      ...servers,
      SESSION_SECRET: fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim(),
    });
    try {
      expect(moved.services.meta.engine).toBe('postgres');
      expect(moved.services.telemetry.engine).toBe('clickhouse-http');
      expect(moved.services.objects.engine).toBe('s3');
      for (const [name, request] of Object.entries(reads(owner.project.id))) {
        const response = await call(moved.app, { ...request, headers: bearer(owner.token) });
        expect({ name, status: response.status, body: response.body }).toEqual({
          name,
          status: 200,
          body: answered[name],
        });
      }
      expect(await objectsOf(moved, owner.project.id)).toEqual(objectKeys);
      const rotated = await call(moved.app, {
        method: 'POST',
        url: '/api/auth/device/token',
        payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
      });
      expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
      // New rows get ids past the copied ones (the sequences were moved on).
      const signedIn = await call(moved.app, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: owner.user.email, password: 'correct horse battery' },
      });
      expect(signedIn.status).toBe(200);
    } finally {
      await moved.close();
    }
  }, 120_000);
});
