/**
 * Telemetry migrations: numbered `.sql` files in ./migrations, applied in order and recorded in
 * `schema_migrations`. ClickHouse DDL is not transactional, so every statement is written to be
 * re-runnable (IF NOT EXISTS); a migration is recorded only after all its statements succeeded.
 * A landed migration must never change: a checksum mismatch stops the process.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TelemetryEngine } from './engine.js';

export const TELEMETRY_MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  checksum: string;
  statements: string[];
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export function readMigrations(dir: string): Migration[] {
  const migrations = fs
    .readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      return {
        version: Number(file.slice(0, 4)),
        name: file.slice(5, -4),
        checksum: createHash('sha256').update(text).digest('hex'),
        statements: splitStatements(text),
      };
    });
  const versions = migrations.map((m) => m.version);
  if (new Set(versions).size !== versions.length) throw new MigrationError(`duplicate migration numbers in ${dir}`);
  return migrations;
}

/** Splits on `;` at the end of a line, after dropping `--` comment lines. */
export function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
}

export async function migrateTelemetry(
  engine: TelemetryEngine,
  dir = TELEMETRY_MIGRATIONS_DIR,
): Promise<MigrationReport> {
  await engine.command(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version UInt32, name String, checksum String, applied_at DateTime DEFAULT now())
     ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const landed = new Map(
    (
      await engine.query<{ version: number; name: string; checksum: string }>(
        'SELECT version, name, checksum FROM schema_migrations FINAL',
      )
    ).map((row) => [row.version, row]),
  );
  const report: MigrationReport = { applied: [], alreadyApplied: 0 };
  for (const migration of readMigrations(dir)) {
    const previous = landed.get(migration.version);
    if (previous) {
      if (previous.checksum !== migration.checksum) {
        throw new MigrationError(
          `telemetry migration ${migration.version}_${migration.name} changed after it was applied; add a new migration instead of editing it`,
        );
      }
      report.alreadyApplied++;
      continue;
    }
    for (const statement of migration.statements) await engine.command(statement);
    await engine.command(
      'INSERT INTO schema_migrations (version, name, checksum) VALUES ({version:UInt32}, {name:String}, {checksum:String})',
      {
        version: migration.version,
        name: migration.name,
        checksum: migration.checksum,
      },
    );
    report.applied.push(`${migration.version}_${migration.name}`);
  }
  return report;
}
