/**
 * The metadata store contract: the same cases on every engine (PGlite and PostgreSQL).
 * `open` must return a new, empty, unmigrated database on each call; the caller's harness
 * removes what it created after the run. Databases opened here are closed here.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  META_MIGRATIONS_DIR,
  MetaDbError,
  MigrationError,
  SqlState,
  UniqueViolationError,
  isCheckViolation,
  isForeignKeyViolation,
  isUniqueViolation,
  migrateMeta,
  readMetaMigrations,
  type MetaDb,
  type MetaTx,
} from '../../src/store/meta/index.js';

import { finishPurge, pendingPurges, recordPurgeFailure } from '../../src/store/meta/repositories/project-purges.js';
import { MAX_DASHBOARDS_PER_PROJECT, insertDashboard } from '../../src/store/meta/repositories/dashboards.js';
import { deleteProject } from '../../src/store/meta/repositories/projects.js';
import {
  deleteUserSession,
  deleteUserSessionsExcept,
  deleteUserSessionsExpiredBefore,
  findUserOfSession,
  insertUserSession,
  listUserSessions,
  recordUserSessionUse,
  type UserSessionKind,
} from '../../src/store/meta/repositories/user-sessions.js';
import { projectRetentionDays } from '../../src/store/meta/repositories/billing.js';
import {
  claimQuotaWarnings,
  markQuotaWarningsSent,
  releaseQuotaWarning,
} from '../../src/store/meta/repositories/quota-warnings.js';
import {
  addIngestUsage,
  organizationIngestBytes,
  projectIngestUsage,
} from '../../src/store/meta/repositories/ingest-usage.js';

export type OpenFreshMetaDb = () => Promise<MetaDb>;

const EXPECTED_TABLES = [
  'alert_channels',
  'alert_deliveries',
  'alert_events',
  'alert_rules',
  'dashboards',
  'device_codes',
  'ingest_usage',
  'invitations',
  'issue_activity',
  'issue_states',
  'memberships',
  'organization_settings',
  'organizations',
  'password_reset_tokens',
  'personal_access_tokens',
  'plans',
  'project_purges',
  'project_role_overrides',
  'projects',
  'quota_warning_recipients',
  'quota_warnings',
  'refresh_token_families',
  'refresh_tokens',
  'schema_migrations',
  'source_map_files',
  'subscriptions',
  'symbol_files',
  'user_identities',
  'user_sessions',
  'users',
];

const hex = (chars: number) =>
  randomBytes(Math.ceil(chars / 2))
    .toString('hex')
    .slice(0, chars);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

// Fixtures: plain parameterised inserts, as repositories will write them.
async function newUser(db: MetaTx, email = `user-${hex(8)}@example.com`): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    'INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id',
    [email, 'Test User', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA'],
  );
  return row!.id;
}

async function newOrg(db: MetaTx, name = 'Acme'): Promise<string> {
  const [row] = await db.query<{ id: string }>('INSERT INTO organizations (name) VALUES ($1) RETURNING id', [name]);
  return row!.id;
}

interface ProjectRow {
  id: string;
  token: string;
  upload_token: string;
  source_map_token: string;
}

async function newProject(db: MetaTx, organizationId: string, token = hex(32)): Promise<ProjectRow> {
  const [row] = await db.query<ProjectRow>(
    `INSERT INTO projects (organization_id, name, framework, token, upload_token, source_map_token)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, token, upload_token, source_map_token`,
    [organizationId, 'api server', 'opentelemetry', token, `tpu_${hex(40)}`, `tps_${hex(40)}`],
  );
  return row!;
}

async function count(db: MetaTx, table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, params);
  return row!.n;
}

/** Everything the migrations define in the current schema, as comparable text. */
async function catalog(db: MetaDb): Promise<Record<string, unknown[]>> {
  const relations = await db.query(
    `SELECT c.relname, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() ORDER BY c.relname`,
  );
  const columns = await db.query(
    `SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull,
            pg_get_expr(d.adbin, d.adrelid) AS default_value
     FROM pg_attribute a
     JOIN pg_class c ON c.oid = a.attrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
  );
  const constraints = await db.query(
    `SELECT c.relname, k.conname, k.contype::text AS type, pg_get_constraintdef(k.oid) AS definition
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = k.connamespace
     WHERE n.nspname = current_schema() ORDER BY c.relname, k.conname`,
  );
  const indexes = await db.query(
    'SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname',
  );
  const triggers = await db.query(
    `SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND NOT t.tgisinternal ORDER BY 1, 2`,
  );
  const migrations = await db.query(
    'SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version',
  );
  return { relations, columns, constraints, indexes, triggers, migrations };
}

function tempMigrationsDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-meta-migrations-'));
  for (const file of fs.readdirSync(META_MIGRATIONS_DIR))
    fs.copyFileSync(path.join(META_MIGRATIONS_DIR, file), path.join(dir, file));
  return dir;
}

export function metaDbContract(name: string, open: OpenFreshMetaDb): void {
  describe(`meta store: ${name}`, () => {
    const migrations = readMetaMigrations();
    const allTags = migrations.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`);
    let db: MetaDb;
    const tempDirs: string[] = [];

    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db?.close();
      for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    describe('migrations', () => {
      it('a fresh database migrates: every migration applied once, every table present', async () => {
        expect(await db.query("SELECT to_regclass('schema_migrations') AS t")).toEqual([{ t: null }]);
        const report = await migrateMeta(db);
        expect(report).toEqual({ applied: allTags, alreadyApplied: 0 });
        const tables = await db.query<{ relname: string }>(
          `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY 1`,
        );
        expect(tables.map((t) => t.relname)).toEqual(EXPECTED_TABLES);
        const landed = await db.query<{ version: number; checksum: string; applied_at: unknown }>(
          'SELECT version, checksum, applied_at FROM schema_migrations ORDER BY version',
        );
        expect(landed.map((m) => m.version)).toEqual(migrations.map((m) => m.version));
        expect(landed.map((m) => m.checksum)).toEqual(migrations.map((m) => m.checksum));
        expect(landed[0]?.applied_at).toBeInstanceOf(Date);
      });

      it('a second run changes nothing (catalog and schema_migrations identical)', async () => {
        const before = await catalog(db);
        const report = await migrateMeta(db);
        expect(report).toEqual({ applied: [], alreadyApplied: migrations.length });
        const after = await catalog(db);
        expect(after).toEqual(before);
        expect(after.migrations).toHaveLength(migrations.length);
        expect(before.indexes!.length).toBeGreaterThan(20);
      });

      it('every table has a primary key and every foreign key leads an index', async () => {
        const withoutPk = await db.query<{ relname: string }>(
          `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = current_schema() AND c.relkind = 'r'
             AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'p')`,
        );
        expect(withoutPk).toEqual([]);
        // A foreign key is covered when some index's first column is one of its columns.
        const unindexed = await db.query<{ relname: string; conname: string }>(
          `SELECT c.relname, k.conname FROM pg_constraint k
           JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = current_schema() AND k.contype = 'f'
             AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = k.conrelid AND i.indkey[0] = ANY (k.conkey))`,
        );
        expect(unindexed).toEqual([]);
      });

      it('quota warnings mailed before migration 0016 read as sent: no run claims them again', async () => {
        const upgraded = await open();
        try {
          const dir = tempMigrationsDir();
          tempDirs.push(dir);
          for (const file of fs.readdirSync(dir)) if (file >= '0016') fs.rmSync(path.join(dir, file));
          await migrateMeta(upgraded, { dir });
          const organizationId = await newOrg(upgraded);
          const sentAt = new Date('2026-10-14T08:30:00Z');
          await upgraded.query(
            "INSERT INTO quota_warnings (organization_id, month, percent, sent_at) VALUES ($1, '2026-10-01', 80, $2)",
            [organizationId, sentAt],
          );
          expect((await migrateMeta(upgraded)).applied).toContain('0016_quota_warning_leases');
          expect(
            await upgraded.query('SELECT percent, claimed_at, sent_at FROM quota_warnings WHERE organization_id = $1', [
              organizationId,
            ]),
          ).toEqual([{ percent: 80, claimed_at: sentAt, sent_at: sentAt }]);
          // Not even a claim whose lease ran out long ago: the row is sent.
          const now = new Date('2026-10-31T23:00:00Z');
          expect(await claimQuotaWarnings(upgraded, organizationId, '2026-10-01', [80, 100], now, now)).toEqual([100]);
        } finally {
          await upgraded.close();
        }
      });

      describe('on a second fresh database', () => {
        let other: MetaDb;
        beforeAll(async () => {
          other = await open();
        });
        afterAll(async () => {
          await other?.close();
        });

        it('concurrent migrators apply each migration exactly once', async () => {
          const reports = await Promise.all([migrateMeta(other), migrateMeta(other), migrateMeta(other)]);
          expect(reports.flatMap((r) => r.applied).sort()).toEqual(allTags);
          expect(await count(other, 'schema_migrations')).toBe(migrations.length);
        });

        it('a landed migration whose file changed is refused, and nothing runs', async () => {
          const dir = tempMigrationsDir();
          tempDirs.push(dir);
          const first = fs.readdirSync(dir).sort()[0]!;
          fs.appendFileSync(path.join(dir, first), '\nCREATE TABLE sneaky (id integer PRIMARY KEY);\n');
          fs.writeFileSync(path.join(dir, '9990_later.sql'), 'CREATE TABLE later_table (id integer PRIMARY KEY);\n');
          const error = await rejection(migrateMeta(other, { dir }));
          expect(error).toBeInstanceOf(MigrationError);
          expect((error as Error).message).toMatch(/changed after it was applied/);
          expect((error as Error).message).toContain(first.replace(/\.sql$/, ''));
          expect(await other.query("SELECT to_regclass('sneaky') AS a, to_regclass('later_table') AS b")).toEqual([
            { a: null, b: null },
          ]);
          expect(await count(other, 'schema_migrations')).toBe(migrations.length);
        });

        it('a database migrated by a newer build is refused', async () => {
          const dir = tempMigrationsDir();
          tempDirs.push(dir);
          await other.transaction(async (tx) => {
            await tx.query(
              "INSERT INTO schema_migrations (version, name, checksum) VALUES (9000, 'from_the_future', $1)",
              [sha256('x')],
            );
          });
          try {
            const error = await rejection(migrateMeta(other, { dir }));
            expect(error).toBeInstanceOf(MigrationError);
            expect((error as Error).message).toMatch(/9000_from_the_future.*newer/);
          } finally {
            await other.query('DELETE FROM schema_migrations WHERE version = 9000');
          }
        });

        it('each migration is its own transaction: a failing one leaves nothing, earlier ones stay', async () => {
          const dir = tempMigrationsDir();
          tempDirs.push(dir);
          fs.writeFileSync(
            path.join(dir, '9991_good.sql'),
            "-- a comment; with a semicolon\nCREATE TABLE good_table (id integer PRIMARY KEY, note text DEFAULT 'a;b');\n",
          );
          fs.writeFileSync(
            path.join(dir, '9992_broken.sql'),
            'CREATE TABLE broken_table (id integer PRIMARY KEY);\nINSERT INTO broken_table VALUES (1);\nSELECT 1 / 0;\n',
          );
          const error = await rejection(migrateMeta(other, { dir }));
          expect(error).toBeInstanceOf(MigrationError);
          expect((error as Error).message).toMatch(/9992_broken failed at statement 3: division by zero/);
          expect(((error as Error).cause as MetaDbError).code).toBe('22012');
          expect(
            await other.query(
              "SELECT to_regclass('good_table') IS NOT NULL AS good, to_regclass('broken_table') AS broken",
            ),
          ).toEqual([{ good: true, broken: null }]);
          const landed = await other.query<{ version: number }>(
            'SELECT version FROM schema_migrations WHERE version > 9000',
          );
          expect(landed).toEqual([{ version: 9991 }]);
          expect(await other.query<{ note: string }>('INSERT INTO good_table (id) VALUES (1) RETURNING note')).toEqual([
            { note: 'a;b' },
          ]);
        });

        it('close is idempotent and later calls are refused', async () => {
          await other.ping();
          await other.close();
          await other.close();
          const error = await rejection(other.query('SELECT 1'));
          expect(error).toBeInstanceOf(MetaDbError);
          expect((error as MetaDbError).message).toMatch(/closed/);
        });
      });
    });

    describe('constraints', () => {
      it('e-mail is unique regardless of case: typed unique violation naming the index', async () => {
        const email = `Casey-${hex(6)}@Example.com`;
        await newUser(db, email);
        const error = await rejection(newUser(db, email.toLowerCase()));
        expect(error).toBeInstanceOf(UniqueViolationError);
        expect(error).toBeInstanceOf(MetaDbError);
        expect((error as MetaDbError).code).toBe(SqlState.uniqueViolation);
        expect(isUniqueViolation(error, 'users_email_key')).toBe(true);
        expect((error as Error).message).not.toContain(email.toLowerCase());
        const found = await db.query<{ email: string }>('SELECT email FROM users WHERE lower(email) = lower($1)', [
          email.toUpperCase(),
        ]);
        expect(found).toEqual([{ email }]);
      });

      it('project tokens: 32 lowercase hex, unique', async () => {
        const org = await newOrg(db);
        for (const bad of [hex(32).toUpperCase().replace(/^./, 'A'), randomUUID(), hex(31), `${hex(31)}g`, '']) {
          const error = await rejection(newProject(db, org, bad));
          expect(isCheckViolation(error, 'projects_token_format'), `token ${JSON.stringify(bad)}`).toBe(true);
        }
        const project = await newProject(db, org);
        const error = await rejection(newProject(db, org, project.token));
        expect(isUniqueViolation(error, 'projects_token_key')).toBe(true);
        const badUpload = await rejection(
          db.query(
            `INSERT INTO projects (organization_id, name, framework, token, upload_token, source_map_token) VALUES ($1, 'x', 'flutter', $2, $3, $4)`,
            [org, hex(32), hex(40), `tps_${hex(40)}`],
          ),
        );
        expect(isCheckViolation(badUpload, 'projects_upload_token_format')).toBe(true);
        const badName = await rejection(
          db.query(
            `INSERT INTO projects (organization_id, name, framework, token, upload_token, source_map_token) VALUES ($1, $2, 'go', $3, $4, $5)`,
            [org, 'x'.repeat(101), hex(32), `tpu_${hex(40)}`, `tps_${hex(40)}`],
          ),
        );
        expect(isCheckViolation(badName, 'projects_name_length')).toBe(true);
      });

      it('roles are admin, write or read-only; overrides only narrow and need a membership', async () => {
        const org = await newOrg(db);
        const user = await newUser(db);
        const bad = await rejection(
          db.query("INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'owner')", [org, user]),
        );
        expect(isCheckViolation(bad, 'memberships_role')).toBe(true);
        expect((bad as MetaDbError).code).toBe(SqlState.checkViolation);
        const project = await newProject(db, org);
        const notMember = await rejection(
          db.query(
            "INSERT INTO project_role_overrides (project_id, organization_id, user_id, role) VALUES ($1, $2, $3, 'read-only')",
            [project.id, org, user],
          ),
        );
        expect(isForeignKeyViolation(notMember, 'project_role_overrides_membership_fkey')).toBe(true);
        await db.query("INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'write')", [
          org,
          user,
        ]);
        const widen = await rejection(
          db.query(
            "INSERT INTO project_role_overrides (project_id, organization_id, user_id, role) VALUES ($1, $2, $3, 'admin')",
            [project.id, org, user],
          ),
        );
        expect(isCheckViolation(widen, 'project_role_overrides_role')).toBe(true);
        const otherOrg = await newOrg(db);
        const wrongOrg = await rejection(
          db.query(
            "INSERT INTO project_role_overrides (project_id, organization_id, user_id, role) VALUES ($1, $2, $3, 'read-only')",
            [project.id, otherOrg, user],
          ),
        );
        expect(isForeignKeyViolation(wrongOrg)).toBe(true);
        await db.query(
          "INSERT INTO project_role_overrides (project_id, organization_id, user_id, role) VALUES ($1, $2, $3, 'read-only')",
          [project.id, org, user],
        );
        await db.query('DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2', [org, user]);
        expect(await count(db, 'project_role_overrides', 'user_id = $1', [user])).toBe(0);
      });

      it('personal access tokens: name 1-100, 12-character tpp_ prefix, SHA-256 hash unique', async () => {
        const user = await newUser(db);
        const insert = (name: string, prefix: string, hash: string) =>
          db.query(
            'INSERT INTO personal_access_tokens (user_id, name, prefix, token_hash) VALUES ($1, $2, $3, $4) RETURNING id',
            [user, name, prefix, hash],
          );
        const token = `tpp_${hex(40)}`;
        await insert('laptop', token.slice(0, 12), sha256(token));
        expect(
          isUniqueViolation(
            await rejection(insert('again', token.slice(0, 12), sha256(token))),
            'personal_access_tokens_token_hash_key',
          ),
        ).toBe(true);
        expect(
          isCheckViolation(
            await rejection(insert('x'.repeat(101), token.slice(0, 12), sha256('a'))),
            'personal_access_tokens_name_length',
          ),
        ).toBe(true);
        expect(
          isCheckViolation(
            await rejection(insert('ok', token.slice(0, 11), sha256('b'))),
            'personal_access_tokens_prefix_format',
          ),
        ).toBe(true);
        expect(
          isCheckViolation(
            await rejection(insert('ok', token.slice(0, 12), token)),
            'personal_access_tokens_token_hash_format',
          ),
        ).toBe(true);
        const expired = await rejection(
          db.query(
            "INSERT INTO personal_access_tokens (user_id, name, prefix, token_hash, expires_at) VALUES ($1, 'old', $2, $3, now() - interval '1 day')",
            [user, token.slice(0, 12), sha256('c')],
          ),
        );
        expect(isCheckViolation(expired, 'personal_access_tokens_expiry')).toBe(true);
      });

      it('device codes: user_code unique among pending only; status and decision consistent', async () => {
        const user = await newUser(db);
        const userCode = `${hex(4).toUpperCase()}-${hex(4).toUpperCase()}`;
        const insert = (code: string) =>
          db.query<{ id: string }>(
            "INSERT INTO device_codes (device_code_hash, user_code, client_id, expires_at) VALUES ($1, $2, 'sightline-cli', now() + interval '600 seconds') RETURNING id",
            [sha256(randomUUID()), code],
          );
        const [first] = await insert(userCode);
        expect(isUniqueViolation(await rejection(insert(userCode)), 'device_codes_pending_user_code_key')).toBe(true);
        expect(isCheckViolation(await rejection(insert('abcd-efgh')), 'device_codes_user_code_format')).toBe(true);
        const noUser = await rejection(
          db.query("UPDATE device_codes SET status = 'approved', decided_at = now() WHERE id = $1", [first!.id]),
        );
        expect(isCheckViolation(noUser, 'device_codes_decision')).toBe(true);
        const badStatus = await rejection(
          db.query("UPDATE device_codes SET status = 'expired', user_id = $2, decided_at = now() WHERE id = $1", [
            first!.id,
            user,
          ]),
        );
        expect(isCheckViolation(badStatus, 'device_codes_status')).toBe(true);
        await db.query("UPDATE device_codes SET status = 'approved', user_id = $2, decided_at = now() WHERE id = $1", [
          first!.id,
          user,
        ]);
        await insert(userCode); // the code is free again once the first is no longer pending
      });

      it('refresh tokens: one live token per family, hashes unique', async () => {
        const user = await newUser(db);
        const [family] = await db.query<{ id: string }>(
          "INSERT INTO refresh_token_families (user_id, client_id) VALUES ($1, 'sightline-cli') RETURNING id",
          [user],
        );
        const issue = (hash: string) =>
          db.query<{ id: string }>(
            "INSERT INTO refresh_tokens (family_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '90 days') RETURNING id",
            [family!.id, hash],
          );
        const [first] = await issue(sha256('one'));
        expect(isUniqueViolation(await rejection(issue(sha256('two'))), 'refresh_tokens_live_key')).toBe(true);
        // Rotation: mark the old one, issue the new one, link them, in one transaction.
        await db.transaction(async (tx) => {
          await tx.query('UPDATE refresh_tokens SET rotated_at = now() WHERE id = $1', [first!.id]);
          const [second] = await tx.query<{ id: string }>(
            "INSERT INTO refresh_tokens (family_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '90 days') RETURNING id",
            [family!.id, sha256('two')],
          );
          await tx.query('UPDATE refresh_tokens SET replaced_by = $2 WHERE id = $1', [first!.id, second!.id]);
        });
        const reason = await rejection(
          db.query('UPDATE refresh_token_families SET revoked_at = now() WHERE id = $1', [family!.id]),
        );
        expect(isCheckViolation(reason, 'refresh_token_families_revocation')).toBe(true);
        await db.query(
          "UPDATE refresh_token_families SET revoked_at = now(), revoked_reason = 'reuse_detected' WHERE id = $1",
          [family!.id],
        );
      });

      it('password reset tokens: SHA-256 hash unique, one open token per user, replaced in place', async () => {
        const user = await newUser(db);
        const open = (hash: string) =>
          db.query(
            "INSERT INTO password_reset_tokens (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '30 minutes')",
            [user, hash],
          );
        await open(sha256('one'));
        expect(isUniqueViolation(await rejection(open(sha256('two'))), 'password_reset_tokens_open_key')).toBe(true);
        expect(isCheckViolation(await rejection(open('not-a-hash')), 'password_reset_tokens_token_hash_format')).toBe(
          true,
        );
        await db.query(
          `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '30 minutes')
           ON CONFLICT (user_id) WHERE used_at IS NULL DO UPDATE SET token_hash = EXCLUDED.token_hash`,
          [user, sha256('two')],
        );
        expect(await db.query('SELECT token_hash FROM password_reset_tokens WHERE user_id = $1', [user])).toEqual([
          { token_hash: sha256('two') },
        ]);
        await db.query('UPDATE password_reset_tokens SET used_at = now() WHERE user_id = $1', [user]);
        await open(sha256('three'));
        const other = await newUser(db);
        const reused = db.query(
          "INSERT INTO password_reset_tokens (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '1 minute')",
          [other, sha256('three')],
        );
        expect(isUniqueViolation(await rejection(reused), 'password_reset_tokens_token_hash_key')).toBe(true);
        expect(
          isCheckViolation(
            await rejection(
              db.query('INSERT INTO password_reset_tokens (user_id, token_hash, expires_at) VALUES ($1, $2, now())', [
                other,
                sha256('four'),
              ]),
            ),
            'password_reset_tokens_expiry',
          ),
        ).toBe(true);
      });

      it('user identities: one user per (issuer, subject); deleting the user removes its identities and reset tokens', async () => {
        const user = await newUser(db);
        const link = (issuer: string, subject: string, userId = user, provider = 'oidc') =>
          db.query(
            "INSERT INTO user_identities (issuer, subject, provider, user_id, email) VALUES ($1, $2, $3, $4, 'a@example.com')",
            [issuer, subject, provider, userId],
          );
        await link('https://github.com', '583231', user, 'github');
        // The same subject at another issuer is another account.
        await link('https://sso.example.com', '583231');
        const taken = await rejection(link('https://github.com', '583231', await newUser(db), 'github'));
        expect(taken).toBeInstanceOf(UniqueViolationError);
        expect(isUniqueViolation(taken, 'user_identities_pkey')).toBe(true);
        expect(
          isCheckViolation(
            await rejection(link('https://github.com', 'x', user, 'GitHub!')),
            'user_identities_provider_format',
          ),
        ).toBe(true);
        expect(
          isCheckViolation(await rejection(link('https://github.com', '')), 'user_identities_subject_length'),
        ).toBe(true);
        expect(isCheckViolation(await rejection(link('', 'x')), 'user_identities_issuer_length')).toBe(true);
        await db.query(
          "INSERT INTO password_reset_tokens (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '30 minutes')",
          [user, sha256(randomUUID())],
        );
        await db.query('DELETE FROM users WHERE id = $1', [user]);
        expect(await count(db, 'user_identities', 'user_id = $1', [user])).toBe(0);
        expect(await count(db, 'password_reset_tokens', 'user_id = $1', [user])).toBe(0);
      });

      it('project purges: deleting a project records its purge in the same statement; pending once requested before the bound; failures are kept; finishing removes it', async () => {
        const org = await newOrg(db);
        const [project, other] = [await newProject(db, org), await newProject(db, org)];
        const at = new Date('2026-01-02T03:04:05Z');
        expect(await deleteProject(db, project.id, at)).toBe(true);
        expect(await deleteProject(db, project.id, at)).toBe(false);
        expect((await pendingPurges(db, at, 1000)).some((purge) => purge.projectId === project.id)).toBe(false);
        const pending = await pendingPurges(db, new Date(at.getTime() + 1), 1000);
        expect(pending.filter((purge) => purge.projectId === project.id)).toEqual([
          { projectId: project.id, requestedAt: at, attempts: 0 },
        ]);
        expect(pending.some((purge) => purge.projectId === other.id)).toBe(false);
        await recordPurgeFailure(db, project.id, 'x'.repeat(5000));
        expect(
          await db.query(
            'SELECT attempts, char_length(last_error) AS length FROM project_purges WHERE project_id = $1',
            [project.id],
          ),
        ).toEqual([{ attempts: 1, length: 2000 }]);
        await finishPurge(db, project.id);
        expect(await count(db, 'project_purges', 'project_id = $1', [project.id])).toBe(0);
      });

      it('ingest usage: one row per (project, month) summing every addition, kept when the project is deleted', async () => {
        const org = await newOrg(db);
        const [first, second] = [await newProject(db, org), await newProject(db, org)];
        const record = (projectId: string, month: string, bytes: number, skippedRecords = 0) => ({
          projectId,
          organizationId: org,
          month,
          bytes,
          requests: 1,
          skippedRecords,
        });
        // Past 2^31: bytes are bigint.
        await addIngestUsage(db, [
          record(first.id, '2026-11-01', 3_000_000_000),
          record(first.id, '2026-11-01', 5, 2),
          record(second.id, '2026-11-01', 7),
          record(first.id, '2026-10-01', 11),
        ]);
        await addIngestUsage(db, [record(first.id, '2026-11-01', 100, 1)]);
        expect(await projectIngestUsage(db, first.id, '2026-11-01')).toEqual({
          bytes: 3_000_000_105,
          requests: 3,
          skippedRecords: 3,
        });
        expect(await organizationIngestBytes(db, org, '2026-11-01')).toBe(3_000_000_112);
        expect(await organizationIngestBytes(db, org, '2026-10-01')).toBe(11);
        expect(await organizationIngestBytes(db, org, '2026-09-01')).toBe(0);
        expect(await projectIngestUsage(db, second.id, '2026-09-01')).toBeNull();
        await deleteProject(db, second.id, new Date());
        expect(await projectIngestUsage(db, second.id, '2026-11-01')).toMatchObject({ bytes: 7 });
        expect(
          isCheckViolation(
            await rejection(addIngestUsage(db, [record(first.id, '2026-11-02', 1)])),
            'ingest_usage_month_first_day',
          ),
        ).toBe(true);
      });

      it('quota warnings: of concurrent claims one takes a new, released or stale warning; none a held or sent one', async () => {
        const org = await newOrg(db);
        const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, minutes));
        // Each claimant at minute `minute` with a 10-minute lease, as the job claims.
        const claimAll = (percents: number[], minute: number) =>
          Promise.all(
            Array.from({ length: 6 }, () =>
              claimQuotaWarnings(db, org, '2026-11-01', percents, at(minute), at(minute - 10)),
            ),
          );
        const winners = (claims: number[][]) => claims.flat().sort((a, b) => a - b);
        expect(winners(await claimAll([80, 100], 0))).toEqual([80, 100]);
        expect(winners(await claimAll([80, 100], 9))).toEqual([]);
        // Past the lease, unsent: the holder died; one claimant takes each.
        expect(winners(await claimAll([80, 100], 11))).toEqual([80, 100]);
        await markQuotaWarningsSent(db, org, '2026-11-01', [100], at(12));
        await releaseQuotaWarning(db, { organizationId: org, month: '2026-11-01', percent: 80 });
        expect(winners(await claimAll([80, 100], 13))).toEqual([80]);
        expect(winners(await claimAll([80, 100], 60))).toEqual([80]);
        await markQuotaWarningsSent(db, org, '2026-11-01', [80], at(61));
        expect(winners(await claimAll([80, 100], 600))).toEqual([]);
        expect(
          await db.query(
            'SELECT percent, claimed_at, sent_at FROM quota_warnings WHERE organization_id = $1 ORDER BY 1',
            [org],
          ),
        ).toEqual([
          { percent: 80, claimed_at: at(60), sent_at: at(61) },
          { percent: 100, claimed_at: at(11), sent_at: at(12) },
        ]);
      });

      it('user sessions: looked up with their user, listed live and newest first, ended only by their user, uses only move forward, expired rows pruned', async () => {
        const [ada, grace] = [await newUser(db), await newUser(db)];
        const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes));
        const session = (tokenId: string, kind: UserSessionKind, createdMinute: number, expiresMinute: number) => ({
          tokenId,
          kind,
          createdAt: at(createdMinute),
          expiresAt: at(expiresMinute),
          lastUsedAt: at(createdMinute),
          clientIp: '192.0.2.7',
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0',
        });
        const [older, newer, cli, expired] = [
          session(`a-${hex(8)}`, 'session', 0, 50),
          session(`b-${hex(8)}`, 'session', 5, 50),
          session(`c-${hex(8)}`, 'cli', 1, 50),
          session(`d-${hex(8)}`, 'session', 2, 9),
        ];
        for (const row of [older, newer, cli, expired]) await insertUserSession(db, ada, row);
        const graces = session(`e-${hex(8)}`, 'session', 3, 50);
        await insertUserSession(db, grace, graces);

        expect(await findUserOfSession(db, ada, older.tokenId)).toMatchObject({
          user: { id: ada },
          lastUsedAt: older.lastUsedAt,
        });
        // A token naming another user than its session's is no session.
        expect(await findUserOfSession(db, grace, older.tokenId)).toBeNull();
        expect((await listUserSessions(db, ada, at(10))).map((s) => s.tokenId)).toEqual([
          newer.tokenId,
          cli.tokenId,
          older.tokenId,
        ]);
        expect((await listUserSessions(db, ada, at(10)))[1]).toEqual(cli);

        await recordUserSessionUse(db, [{ id: older.tokenId, at: at(20) }]);
        await recordUserSessionUse(db, [{ id: older.tokenId, at: at(15) }]);
        expect((await findUserOfSession(db, ada, older.tokenId))?.lastUsedAt).toEqual(at(20));

        expect(await deleteUserSession(db, grace, older.tokenId)).toBe(false);
        expect(await deleteUserSession(db, ada, older.tokenId)).toBe(true);
        expect(await deleteUserSession(db, ada, older.tokenId)).toBe(false);
        expect(await findUserOfSession(db, ada, older.tokenId)).toBeNull();

        // Ends the others, counting the live ones (the expired row goes too, uncounted).
        expect(await deleteUserSessionsExcept(db, ada, newer.tokenId, at(10))).toBe(1);
        expect((await listUserSessions(db, ada, at(10))).map((s) => s.tokenId)).toEqual([newer.tokenId]);
        expect(await findUserOfSession(db, grace, graces.tokenId)).not.toBeNull();

        await insertUserSession(db, ada, expired);
        expect(await deleteUserSessionsExpiredBefore(db, at(10))).toBe(1);
        expect(await count(db, 'user_sessions', 'user_id = $1', [ada])).toBe(1);
        expect(await deleteUserSessionsExcept(db, ada, null, at(10))).toBe(1);
        expect(await count(db, 'user_sessions', 'user_id = $1', [grace])).toBe(1);
        expect(
          isCheckViolation(
            await rejection(
              db.query(
                "INSERT INTO user_sessions (token_id, user_id, kind, created_at, expires_at, last_used_at) VALUES ($1, $2, 'device', now(), now(), now())",
                [hex(8), ada],
              ),
            ),
            'user_sessions_kind',
          ),
        ).toBe(true);
      });

      it('symbol files: kind and arch checked, one row per (project, kind, build, arch)', async () => {
        const project = await newProject(db, await newOrg(db));
        const buildId = hex(40);
        const insert = (kind: string, arch: string, key: string) =>
          db.query(
            'INSERT INTO symbol_files (project_id, kind, build_id, arch, object_key, size) VALUES ($1, $2, $3, $4, $5, $6)',
            [project.id, kind, buildId, arch, key, 1234],
          );
        await insert('dart', 'arm64', `dartsymbols/${project.id}/${buildId}-arm64.symbols`);
        await insert('dart', 'x64', `dartsymbols/${project.id}/${buildId}-x64.symbols`);
        expect(isUniqueViolation(await rejection(insert('dart', 'arm64', 'other-key')), 'symbol_files_build_key')).toBe(
          true,
        );
        expect(
          isUniqueViolation(
            await rejection(insert('ios', 'arm64', `dartsymbols/${project.id}/${buildId}-x64.symbols`)),
            'symbol_files_object_key_key',
          ),
        ).toBe(true);
        expect(isCheckViolation(await rejection(insert('dart', 'x86_64', 'k1')), 'symbol_files_dart_arch')).toBe(true);
        expect(isCheckViolation(await rejection(insert('wasm', '', 'k2')), 'symbol_files_kind')).toBe(true);
        const [size] = await db.query<{ size: number }>(
          'SELECT size FROM symbol_files WHERE project_id = $1 AND arch = $2',
          [project.id, 'x64'],
        );
        expect(size).toEqual({ size: 1234 });
      });

      it('unknown references are foreign-key violations', async () => {
        const error = await rejection(
          db.query("INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'read-only')", [
            randomUUID(),
            randomUUID(),
          ]),
        );
        expect(isForeignKeyViolation(error)).toBe(true);
        expect((error as MetaDbError).code).toBe(SqlState.foreignKeyViolation);
        expect((error as MetaDbError).table).toBe('memberships');
      });
    });

    describe('transactions', () => {
      it('commit makes writes visible and returns the callback value', async () => {
        const email = `commit-${hex(8)}@example.com`;
        const id = await db.transaction(async (tx) => {
          const userId = await newUser(tx, email);
          const org = await newOrg(tx);
          await tx.query("INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'admin')", [
            org,
            userId,
          ]);
          return userId;
        });
        expect(await db.query('SELECT id FROM users WHERE email = $1', [email])).toEqual([{ id }]);
        expect(await count(db, 'memberships', 'user_id = $1', [id])).toBe(1);
      });

      it('an error thrown by the callback rolls back and reaches the caller unchanged', async () => {
        const email = `rollback-${hex(8)}@example.com`;
        class DomainError extends Error {}
        const thrown = new DomainError('plan limit reached');
        const error = await rejection(
          db.transaction(async (tx) => {
            await newUser(tx, email);
            throw thrown;
          }),
        );
        expect(error).toBe(thrown);
        expect(await count(db, 'users', 'email = $1', [email])).toBe(0);
      });

      it('a failed statement rolls back the whole transaction with the typed error', async () => {
        const email = `dup-${hex(8)}@example.com`;
        await newUser(db, email);
        const other = `other-${hex(8)}@example.com`;
        const error = await rejection(
          db.transaction(async (tx) => {
            await newUser(tx, other);
            await newUser(tx, email.toUpperCase());
          }),
        );
        expect(isUniqueViolation(error, 'users_email_key')).toBe(true);
        expect(await count(db, 'users', 'email = $1', [other])).toBe(0);
      });

      it('catching a failed statement and carrying on cannot commit (25P02), nothing is kept', async () => {
        const email = `dup2-${hex(8)}@example.com`;
        await newUser(db, email);
        const other = `kept-${hex(8)}@example.com`;
        const error = await rejection(
          db.transaction(async (tx) => {
            await newUser(tx, other);
            await newUser(tx, email).catch(() => undefined);
            return 'done';
          }),
        );
        expect(error).toBeInstanceOf(MetaDbError);
        expect((error as MetaDbError).code).toBe(SqlState.inFailedTransaction);
        expect(await count(db, 'users', 'email = $1', [other])).toBe(0);
      });

      it('the outer database refuses calls from inside a transaction callback; tx refuses use after the end', async () => {
        let leaked: MetaTx | undefined;
        const inner = await rejection(
          db.transaction(async (tx) => {
            leaked = tx;
            await db.query('SELECT 1');
          }),
        );
        expect(inner).toBeInstanceOf(MetaDbError);
        expect((inner as Error).message).toMatch(/use the tx argument/);
        const after = await rejection(leaked!.query('SELECT 1'));
        expect(after).toBeInstanceOf(MetaDbError);
        expect((after as Error).message).toMatch(/already finished/);
        // The database stays usable.
        expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      });

      it('concurrent work never interleaves with a transaction: outside reads see all or nothing, a rollback takes only its own writes', async () => {
        const org = await newOrg(db, `iso-${hex(6)}`);
        const seen: number[] = [];
        let running = true;
        const reader = (async () => {
          while (running) {
            seen.push(await count(db, 'projects', 'organization_id = $1', [org]));
            await sleep(2);
          }
        })();
        const committed = db.transaction(async (tx) => {
          await newProject(tx, org);
          await sleep(20);
          await newProject(tx, org);
        });
        const rolledBack = db.transaction(async (tx) => {
          await newProject(tx, org);
          await sleep(30);
          await newProject(tx, org);
          throw new Error('abandon');
        });
        const alsoCommitted = db.transaction(async (tx) => {
          await sleep(5);
          await newProject(tx, org);
        });
        const outcomes = await Promise.allSettled([committed, rolledBack, alsoCommitted]);
        await sleep(10);
        running = false;
        await reader;
        expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect(await count(db, 'projects', 'organization_id = $1', [org])).toBe(3);
        // Only committed totals are ever visible: 0, 1, 2 or 3 depending on commit order, never a half transaction.
        expect(seen.length).toBeGreaterThan(0);
        for (const n of seen) expect([0, 1, 2, 3]).toContain(n);
        const partials = seen.filter((n, i) => i > 0 && n < seen[i - 1]!);
        expect(partials).toEqual([]); // counts never go down: the rolled-back rows were never visible
      });

      it('statements issued concurrently on one transaction all run inside it, with no driver warning', async () => {
        // pg warns (once per process) when statements overlap on one client: a path removed in pg 9.
        const warnings: string[] = [];
        const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
        process.on('warning', onWarning);
        try {
          const org = await newOrg(db);
          await db.transaction(async (tx) => {
            await Promise.all([newProject(tx, org), newProject(tx, org), newProject(tx, org)]);
            expect(await count(tx, 'projects', 'organization_id = $1', [org])).toBe(3);
          });
          expect(await count(db, 'projects', 'organization_id = $1', [org])).toBe(3);
          await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
        } finally {
          process.off('warning', onWarning);
        }
        expect(warnings).toEqual([]);
      });

      it('dashboards: concurrent creations in their own transactions stop at the per-project cap', async () => {
        const project = await newProject(db, await newOrg(db));
        const user = await newUser(db);
        await db.query(
          "INSERT INTO dashboards (project_id, name) SELECT $1, 'seeded ' || g FROM generate_series(1, $2::int) AS g",
          [project.id, MAX_DASHBOARDS_PER_PROJECT - 2],
        );
        const created = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            db.transaction((tx) =>
              insertDashboard(tx, { projectId: project.id, name: `racing ${i}`, definition: {}, createdBy: user }),
            ),
          ),
        );
        expect(created.filter((dashboard) => dashboard !== null)).toHaveLength(2);
        expect(await count(db, 'dashboards', 'project_id = $1', [project.id])).toBe(MAX_DASHBOARDS_PER_PROJECT);
      });
    });

    describe('cascades', () => {
      it('deleting a project removes its symbol files, dashboards and role overrides', async () => {
        const org = await newOrg(db);
        const user = await newUser(db);
        await db.query("INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'write')", [
          org,
          user,
        ]);
        const project = await newProject(db, org);
        await db.query(
          "INSERT INTO symbol_files (project_id, kind, build_id, arch, object_key, size) VALUES ($1, 'ios', $2, 'arm64', $3, 10)",
          [project.id, hex(32), `iossymbols/${project.id}/x.dsym`],
        );
        await db.query('INSERT INTO dashboards (project_id, name, definition, created_by) VALUES ($1, $2, $3, $4)', [
          project.id,
          'Latency',
          JSON.stringify({ panels: [] }),
          user,
        ]);
        await db.query(
          "INSERT INTO project_role_overrides (project_id, organization_id, user_id, role) VALUES ($1, $2, $3, 'read-only')",
          [project.id, org, user],
        );
        await db.query('DELETE FROM projects WHERE id = $1', [project.id]);
        for (const table of ['symbol_files', 'dashboards', 'project_role_overrides']) {
          expect(await count(db, table, 'project_id = $1', [project.id]), table).toBe(0);
        }
        expect(await count(db, 'memberships', 'user_id = $1', [user])).toBe(1);
      });

      it('deleting an organization removes its projects, members, invitations, settings and subscriptions', async () => {
        const org = await newOrg(db);
        const admin = await newUser(db);
        await db.query("INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'admin')", [
          org,
          admin,
        ]);
        const project = await newProject(db, org);
        await db.query('INSERT INTO dashboards (project_id, name) VALUES ($1, $2)', [project.id, 'Home']);
        await db.query(
          "INSERT INTO invitations (organization_id, email, role, token_hash, invited_by, expires_at) VALUES ($1, $2, 'read-only', $3, $4, now() + interval '7 days')",
          [org, `invitee-${hex(6)}@example.com`, sha256(randomUUID()), admin],
        );
        await db.query('INSERT INTO organization_settings (organization_id, settings) VALUES ($1, $2)', [
          org,
          JSON.stringify({ theme: 'dark' }),
        ]);
        const plan = `plan-${hex(6)}`;
        await db.query(
          `INSERT INTO plans (code, name, projects, seats, ingest_gb_monthly, retention_days_hot, retention_days_warm, synthetics_checks, session_recordings)
           VALUES ($1, 'Test', 3, 5, 10, 7, 30, 0, 100)`,
          [plan],
        );
        await db.query("INSERT INTO subscriptions (organization_id, plan_code, status) VALUES ($1, $2, 'active')", [
          org,
          plan,
        ]);
        await db.query('DELETE FROM organizations WHERE id = $1', [org]);
        for (const table of ['projects', 'memberships', 'invitations', 'organization_settings', 'subscriptions']) {
          expect(await count(db, table, 'organization_id = $1', [org]), table).toBe(0);
        }
        expect(await count(db, 'dashboards', 'project_id = $1', [project.id])).toBe(0);
        expect(await count(db, 'users', 'id = $1', [admin])).toBe(1);
        expect(await count(db, 'plans', 'code = $1', [plan])).toBe(1);
      });

      it('deleting a user removes their memberships and credentials, and unlinks what they authored', async () => {
        const org = await newOrg(db);
        const user = await newUser(db);
        await db.query("INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'admin')", [
          org,
          user,
        ]);
        await db.query(
          "INSERT INTO personal_access_tokens (user_id, name, prefix, token_hash) VALUES ($1, 'ci', $2, $3)",
          [user, `tpp_${hex(8)}`, sha256(randomUUID())],
        );
        const [family] = await db.query<{ id: string }>(
          "INSERT INTO refresh_token_families (user_id, client_id) VALUES ($1, 'sightline-cli') RETURNING id",
          [user],
        );
        await db.query(
          "INSERT INTO refresh_tokens (family_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '1 day')",
          [family!.id, sha256(randomUUID())],
        );
        const [invitation] = await db.query<{ id: string }>(
          "INSERT INTO invitations (organization_id, email, role, token_hash, invited_by, expires_at) VALUES ($1, $2, 'write', $3, $4, now() + interval '1 day') RETURNING id",
          [org, `new-${hex(6)}@example.com`, sha256(randomUUID()), user],
        );
        const project = await newProject(db, org);
        const [dashboard] = await db.query<{ id: string }>(
          'INSERT INTO dashboards (project_id, name, created_by) VALUES ($1, $2, $3) RETURNING id',
          [project.id, 'Mine', user],
        );
        await db.query(
          "INSERT INTO user_sessions (token_id, user_id, kind, created_at, expires_at, last_used_at) VALUES ($1, $2, 'session', now(), now() + interval '1 day', now())",
          [hex(16), user],
        );
        await db.query('DELETE FROM users WHERE id = $1', [user]);
        for (const table of ['memberships', 'personal_access_tokens', 'refresh_token_families', 'user_sessions']) {
          expect(await count(db, table, 'user_id = $1', [user]), table).toBe(0);
        }
        expect(await count(db, 'refresh_tokens', 'family_id = $1', [family!.id])).toBe(0);
        expect(await db.query('SELECT invited_by FROM invitations WHERE id = $1', [invitation!.id])).toEqual([
          { invited_by: null },
        ]);
        expect(await db.query('SELECT created_by FROM dashboards WHERE id = $1', [dashboard!.id])).toEqual([
          { created_by: null },
        ]);
      });

      it('a plan in use cannot be deleted', async () => {
        const org = await newOrg(db);
        const plan = `plan-${hex(6)}`;
        await db.query(
          `INSERT INTO plans (code, name, projects, seats, ingest_gb_monthly, retention_days_hot, retention_days_warm, synthetics_checks, session_recordings)
           VALUES ($1, 'Team', 10, 10, 50, 14, 90, 5, 1000)`,
          [plan],
        );
        await db.query("INSERT INTO subscriptions (organization_id, plan_code, status) VALUES ($1, $2, 'active')", [
          org,
          plan,
        ]);
        expect(isForeignKeyViolation(await rejection(db.query('DELETE FROM plans WHERE code = $1', [plan])))).toBe(
          true,
        );
        const second = await rejection(
          db.query("INSERT INTO subscriptions (organization_id, plan_code, status) VALUES ($1, $2, 'trialing')", [
            org,
            plan,
          ]),
        );
        expect(isUniqueViolation(second, 'subscriptions_current_key')).toBe(true);
      });

      it("projects' retention: hot + warm days of the plan in force, the default plan without a granting subscription", async () => {
        const [fallback, team] = [`plan-${hex(6)}`, `plan-${hex(6)}`];
        await db.query(
          `INSERT INTO plans (code, name, projects, seats, ingest_gb_monthly, retention_days_hot, retention_days_warm, synthetics_checks, session_recordings)
           VALUES ($1, 'Free', 1, 1, 1, 14, 0, 0, 0), ($2, 'Team', 10, 10, 50, 30, 60, 5, 1000)`,
          [fallback, team],
        );
        const [withoutSubscription, subscribed, canceled] = [await newOrg(db), await newOrg(db), await newOrg(db)];
        await db.query(
          "INSERT INTO subscriptions (organization_id, plan_code, status) VALUES ($1, $3, 'active'), ($2, $3, 'canceled')",
          [subscribed, canceled, team],
        );
        const projects = {
          withoutSubscription: (await newProject(db, withoutSubscription)).id,
          subscribed: (await newProject(db, subscribed)).id,
          subscribedSecond: (await newProject(db, subscribed)).id,
          canceled: (await newProject(db, canceled)).id,
        };
        const days = new Map(
          (await projectRetentionDays(db, fallback)).map((row) => [row.projectId, row.days] as const),
        );
        expect(Object.fromEntries(Object.entries(projects).map(([name, id]) => [name, days.get(id)]))).toEqual({
          withoutSubscription: 14,
          subscribed: 90,
          subscribedSecond: 90,
          canceled: 14,
        });
      });
    });

    describe('values', () => {
      it('both engines return the same JS types', async () => {
        const [row] = await db.query<Record<string, unknown>>(
          `SELECT gen_random_uuid() AS id, now() AS at, (SELECT count(*) FROM users) AS n, 9007199254740993::int8 AS big,
                  42::int8 AS small, 2.50::numeric AS price, DATE '2024-05-01' AS day, true AS yes, NULL::text AS nothing,
                  $1::jsonb AS obj, $2::jsonb AS arr, $3::text[] AS list, 3::int4 AS int, 0.5::float8 AS float`,
          [JSON.stringify({ a: 1, b: ['x'] }), JSON.stringify([1, 2]), ['a', 'b']],
        );
        expect(row!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(row!.at).toBeInstanceOf(Date);
        expect(typeof row!.n).toBe('number');
        expect(row!.big).toBe(9007199254740993n);
        expect(row!.small).toBe(42);
        expect(row!.price).toBe('2.50');
        expect(row!.day).toBe('2024-05-01');
        expect(row!.yes).toBe(true);
        expect(row!.nothing).toBeNull();
        expect(row!.obj).toEqual({ a: 1, b: ['x'] });
        expect(row!.arr).toEqual([1, 2]);
        expect(row!.list).toEqual(['a', 'b']);
        expect(row!.int).toBe(3);
        expect(row!.float).toBe(0.5);
      });

      it('array parameters work with = ANY, Date parameters keep the instant', async () => {
        const ids = [await newUser(db), await newUser(db)];
        const rows = await db.query<{ id: string }>('SELECT id FROM users WHERE id = ANY($1::uuid[]) ORDER BY id', [
          ids,
        ]);
        expect(rows.map((r) => r.id)).toEqual([...ids].sort());
        const instant = new Date('2030-01-02T03:04:05.678Z');
        const [back] = await db.query<{ at: Date }>('SELECT $1::timestamptz AS at', [instant]);
        expect(back!.at.toISOString()).toBe(instant.toISOString());
      });

      it('SQL errors carry their SQLSTATE; ping answers', async () => {
        await db.ping();
        const syntax = await rejection(db.query('SELEC 1'));
        expect(syntax).toBeInstanceOf(MetaDbError);
        expect((syntax as MetaDbError).code).toBe('42601');
        const missing = await rejection(db.query('SELECT * FROM no_such_table'));
        expect((missing as MetaDbError).code).toBe(SqlState.undefinedTable);
      });
    });
  });
}
