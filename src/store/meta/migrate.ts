/**
 * Metadata migrations: numbered files `NNNN_snake_name.sql` in ./migrations, applied in version
 * order, each inside its own transaction together with its row in `schema_migrations`, so a
 * migration lands whole or not at all.
 *
 * - A landed migration never changes: a file whose checksum (SHA-256 of its text, line endings
 *   normalised) differs from the recorded one is refused. Fix forward with a new migration.
 * - A database holding a migration this build does not have (a newer release migrated it), or
 *   missing one below the newest landed (out of order), is refused.
 * - Concurrent migrators (several processes starting against one PostgreSQL) are serialised by
 *   `pg_advisory_xact_lock`, keyed by the current schema; each step re-reads the state under the
 *   lock. PGlite supports the same call (and has one connection anyway).
 * - Migrations run in a transaction: no `CREATE INDEX CONCURRENTLY`, no `VACUUM`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MetaDb, MetaTx } from './types.js';

export const META_MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface MetaMigration {
  version: number;
  name: string;
  checksum: string;
  statements: string[];
}

export interface MetaMigrationReport {
  /** `NNNN_name` of each migration applied by this run, in order. */
  applied: string[];
  /** Migrations that had landed before this run. */
  alreadyApplied: number;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export function readMetaMigrations(dir: string = META_MIGRATIONS_DIR): MetaMigration[] {
  const migrations: MetaMigration[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.sql')) continue;
    const match = FILE_NAME.exec(file);
    if (!match) throw new MigrationError(`metadata migration file ${file} is not named NNNN_snake_case_name.sql`);
    const text = fs.readFileSync(path.join(dir, file), 'utf8').replace(/\r\n/g, '\n');
    const statements = splitSqlStatements(text);
    if (statements.length === 0) throw new MigrationError(`metadata migration ${file} has no statements`);
    migrations.push({
      version: Number(match[1]),
      name: match[2] ?? '',
      checksum: createHash('sha256').update(text).digest('hex'),
      statements,
    });
  }
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]?.version === migrations[i - 1]?.version) {
      throw new MigrationError(
        `two metadata migrations are numbered ${String(migrations[i]?.version).padStart(4, '0')} in ${dir}`,
      );
    }
  }
  if (migrations[0]?.version === 0) throw new MigrationError('metadata migration numbers start at 0001');
  return migrations;
}

/**
 * Splits a script into statements at top-level semicolons, skipping those inside quotes,
 * quoted identifiers, dollar-quoted bodies and comments. Comment-only pieces are dropped.
 */
export function splitSqlStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let hasCode = false;
  let i = 0;
  const push = (end: number) => {
    if (hasCode) statements.push(sql.slice(start, end).trim());
    start = end + 1;
    hasCode = false;
  };
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < sql.length && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === "'" || c === '"') {
      // E'...' strings allow backslash escapes; '' and "" are escapes in every form.
      const backslash = c === "'" && /[eE]/.test(sql[i - 1] ?? '') && !/[A-Za-z0-9_]/.test(sql[i - 2] ?? '');
      hasCode = true;
      i++;
      while (i < sql.length) {
        if (backslash && sql[i] === '\\') i += 2;
        else if (sql[i] === c && sql[i + 1] === c) i += 2;
        else if (sql[i] === c) break;
        else i++;
      }
      i++;
    } else if (c === '$' && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        if (end === -1) throw new MigrationError(`unterminated dollar-quoted string ${tag[0]}`);
        hasCode = true;
        i = end + tag[0].length;
      } else {
        hasCode = true;
        i++;
      }
    } else if (c === ';') {
      push(i);
      i++;
    } else {
      if (c !== undefined && !/\s/.test(c)) hasCode = true;
      i++;
    }
  }
  push(sql.length);
  return statements;
}

interface Landed {
  version: number;
  name: string;
  checksum: string;
}

const tag = (m: { version: number; name: string }) => `${String(m.version).padStart(4, '0')}_${m.name}`;

/** Applies pending migrations; a no-op when all have landed. */
export async function migrateMeta(db: MetaDb, options: { dir?: string } = {}): Promise<MetaMigrationReport> {
  const migrations = readMetaMigrations(options.dir ?? META_MIGRATIONS_DIR);
  const report: MetaMigrationReport = { applied: [], alreadyApplied: 0 };
  for (let step = 0; ; step++) {
    const applied = await db.transaction(async (tx) => {
      const landed = await lockAndRead(tx);
      if (step === 0) report.alreadyApplied = landed.length;
      verify(migrations, landed);
      const done = new Set(landed.map((m) => m.version));
      const next = migrations.find((m) => !done.has(m.version));
      if (!next) return null;
      for (const [index, statement] of next.statements.entries()) {
        try {
          await tx.query(statement);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new MigrationError(`metadata migration ${tag(next)} failed at statement ${index + 1}: ${reason}`, {
            cause: error,
          });
        }
      }
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        next.version,
        next.name,
        next.checksum,
      ]);
      return next;
    });
    if (!applied) return report;
    report.applied.push(tag(applied));
  }
}

async function lockAndRead(tx: MetaTx): Promise<Landed[]> {
  const [current] = await tx.query<{ schema: string | null }>('SELECT current_schema() AS schema');
  if (!current?.schema) {
    throw new MigrationError('no schema to migrate into: the schema named by search_path does not exist');
  }
  // Migrations may build indexes over large tables: no statement timeout for this transaction.
  await tx.query('SET LOCAL statement_timeout = 0');
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('sightline.meta.migrate'), hashtext($1))", [current.schema]);
  await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY CHECK (version > 0),
    name text NOT NULL,
    checksum text NOT NULL CHECK (checksum ~ '^[0-9a-f]{64}$'),
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  return tx.query<Landed>('SELECT version, name, checksum FROM schema_migrations ORDER BY version');
}

function verify(migrations: MetaMigration[], landed: Landed[]): void {
  const known = new Map(migrations.map((m) => [m.version, m]));
  for (const row of landed) {
    const migration = known.get(row.version);
    if (!migration) {
      throw new MigrationError(
        `the metadata database has migration ${tag(row)}, which this build does not know: it was migrated by a newer Sightline; run that version or newer`,
      );
    }
    if (migration.checksum !== row.checksum) {
      throw new MigrationError(
        `metadata migration ${tag(migration)} changed after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ${migration.checksum.slice(0, 12)}… on disk); landed migrations are never edited: restore the file and add a new migration`,
      );
    }
  }
  const newest = landed.at(-1)?.version ?? 0;
  const done = new Set(landed.map((m) => m.version));
  const gap = migrations.find((m) => m.version < newest && !done.has(m.version));
  if (gap) {
    throw new MigrationError(
      `metadata migration ${tag(gap)} is not applied but a later one is (${String(newest).padStart(4, '0')}): renumber it after the newest landed migration`,
    );
  }
}
