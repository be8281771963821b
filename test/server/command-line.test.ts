/** The `sightline` command as an operator runs it (bin/sightline.mjs, the compiled dist/). */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { markMigratedByNewerBuild, postgresQuery, postgresUnavailable, postgresUrl } from '../support/postgres.js';
import { describe, expect, it } from 'vitest';
import { openMetaDb } from '../../src/store/meta/index.js';
import { listenOnLoopback } from '../support/loopback.js';

const BIN = path.resolve('bin/sightline.mjs');
const run = async (args: string[], env: Record<string, string> = {}, nodeOptions: string[] = []) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...nodeOptions, BIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

describe('sightline command line', () => {
  it.each([['version'], ['--version'], ['-v']])('%s prints the package version', async (flag) => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(await run([flag])).toEqual({ code: 0, stdout: `sightline ${version}\n`, stderr: '' });
  });

  it('a Node.js that cannot require() ES modules (before 20.19 and 22.12) is refused in one line, exit 78', async () => {
    // The flag gives every supported Node.js the behaviour of 22.0–22.11 (and 20 before 20.19).
    // Before: the import of dist/ died in an ERR_REQUIRE_ESM stack trace, exit 1.
    expect(await run(['version'], {}, ['--no-experimental-require-module'])).toEqual({
      code: 78,
      stdout: '',
      stderr: `sightline: Node.js ${process.version} cannot load ES modules with require(), which Sightline's dependencies do: use Node.js 22.12 or newer (or 20.19 or newer on 20), without --no-experimental-require-module\n`,
    });
  });

  it('help lists the commands; an unknown one is a usage error (64) that shows them', async () => {
    const help = await run(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: sightline <command>/);
    for (const command of ['serve', 'demo', 'move', 'backup', 'restore', 'version', 'help'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    const unknown = await run(['nonsense']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toBe(`sightline: unknown command "nonsense"\n\n${help.stdout}`);
  });

  it.each([['serve'], ['move']])(
    '%s --help prints its usage (exit 0) and starts nothing; another argument is a usage error (64)',
    async (command) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-help-'));
      try {
        // A DATA_DIR that stays empty proves nothing was opened; a port is never bound.
        const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
        const help = await run([command, '--help'], env);
        expect(help).toMatchObject({ code: 0, stderr: '' });
        expect(help.stdout).toMatch(new RegExp(`^usage: sightline ${command}\n`));
        expect(await run([command, '-h'], env)).toEqual(help);
        const wrong = await run([command, '--port', '3000'], env);
        expect(wrong.code).toBe(64);
        expect(wrong.stderr).toBe(
          `sightline: ${command} takes no arguments (configuration is environment variables)\n\n${help.stdout}`,
        );
        expect(fs.readdirSync(dataDir)).toEqual([]);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it.each([['backup'], ['restore']])(
    '%s --help prints its usage; no archive, two, an option or server engines are refused before anything is opened',
    async (command) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-archive-args-'));
      try {
        const env = { DATA_DIR: dataDir };
        const help = await run([command, '--help'], env);
        expect(help).toMatchObject({ code: 0, stderr: '' });
        expect(help.stdout).toMatch(new RegExp(`^usage: sightline ${command} <archive.tar.gz>\n`));
        for (const args of [[], ['a.tar.gz', 'b.tar.gz'], ['--gzip']]) {
          const wrong = await run([command, ...args], env);
          expect(wrong.code).toBe(64);
          expect(wrong.stderr).toBe(
            `sightline: ${command} takes the archive's path, and nothing else\n\n${help.stdout}`,
          );
        }
        const onServers = await run([command, path.join(dataDir, 'a.tar.gz')], {
          ...env,
          DATABASE_URL: 'postgres://127.0.0.1:1/sightline',
        });
        expect(onServers.code).toBe(64);
        expect(onServers.stderr).toMatch(
          /^sightline: backup and restore cover the embedded engines only; .*pg_dump.*\n$/,
        );
        expect(fs.readdirSync(dataDir)).toEqual([]);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('restore of a missing archive exits 66, of a file that is not one 65, and leaves the data folder empty', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-restore-'));
    const notAnArchive = path.join(os.tmpdir(), `sightline-not-an-archive-${randomBytes(4).toString('hex')}.tar.gz`);
    try {
      const missing = await run(['restore', `${notAnArchive}.missing`], { DATA_DIR: dataDir });
      expect(missing).toMatchObject({ code: 66, stderr: `sightline: no archive at ${notAnArchive}.missing\n` });
      fs.writeFileSync(notAnArchive, 'not a tar.gz');
      const garbage = await run(['restore', notAnArchive], { DATA_DIR: dataDir });
      expect(garbage.code).toBe(65);
      expect(garbage.stderr).toMatch(new RegExp(`\nsightline: ${notAnArchive} is not a readable tar.gz: .*\n$`));
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(notAnArchive, { force: true });
    }
  });

  it('serve on a port another process holds: one line naming the port and the variable, exit 75, the data folder released', async () => {
    const holder = net.createServer();
    const { port } = await listenOnLoopback(holder);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-port-'));
    try {
      const result = await run(['serve'], { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
      expect(result.code).toBe(75);
      expect(result.stderr).toBe(
        `sightline: port ${port} on 127.0.0.1 is in use by another process: stop it, or set PORT to a free port\n`,
      );
      expect(fs.existsSync(path.join(dataDir, 'sightline.lock'))).toBe(false);
    } finally {
      holder.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'DATABASE_URL',
      'postgres://sightline:hunter2@127.0.0.1:1/sightline',
      'PostgreSQL at DATABASE_URL="postgres://***@127.0.0.1:1/sightline": cannot connect to PostgreSQL: connect ECONNREFUSED 127.0.0.1:1',
    ],
    [
      'CLICKHOUSE_URL',
      'http://default:hunter2@127.0.0.1:1',
      'ClickHouse at CLICKHOUSE_URL="http://***@127.0.0.1:1": connect ECONNREFUSED 127.0.0.1:1',
    ],
  ])(
    'serve with %s naming a server that refuses: one line naming the variable, credentials hidden, exit 1, the data folder released',
    async (variable, url, said) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-server-down-'));
      try {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        const result = await run(['serve'], { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', [variable]: url });
        expect(result.code).toBe(1);
        expect(result.stderr).toBe(`sightline: cannot use ${said}\n`);
        expect(fs.existsSync(path.join(dataDir, 'sightline.lock'))).toBe(false);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('serve on a PostgreSQL migrated by a newer Sightline: the migration refusal alone, one line, exit 1', async (context) => {
    const down = await postgresUnavailable();
    if (down) return context.skip(`no PostgreSQL at 127.0.0.1:5432: ${down}`);
    const database = `sightline_newer_${randomBytes(6).toString('hex')}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-newer-'));
    await postgresQuery(`CREATE DATABASE ${database}`);
    try {
      const url = postgresUrl(database);
      await markMigratedByNewerBuild(database);
      const result = await run(['serve'], { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: url });
      expect(result.code).toBe(1);
      // Not "cannot use PostgreSQL at DATABASE_URL=…": the server is fine, the build is older.
      expect(result.stderr).toMatch(
        /^sightline: the metadata database has migration 9999_future, which this build does not know: [^\n]+\n$/,
      );
    } finally {
      await postgresQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serve on a data folder migrated by a newer Sightline: the refusal as one line, exit 1, the folder released', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-newer-embedded-'));
    try {
      // The metadata database of a newer build: one migration more than this build knows.
      const meta = await openMetaDb({ kind: 'pglite', path: path.join(dataDir, 'pglite') });
      await meta.query(
        "INSERT INTO schema_migrations (version, name, checksum) VALUES (9999, 'future', repeat('a', 64))",
      );
      await meta.close();
      const result = await run(['serve'], { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
      expect(result.code).toBe(1);
      // Before: "sightline: MigrationError: …" and its stack trace.
      expect(result.stderr).toMatch(
        /^sightline: the metadata database has migration 9999_future, which this build does not know: [^\n]+\n$/,
      );
      expect(fs.existsSync(path.join(dataDir, 'sightline.lock'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serve on a HOST that is no address of this machine: exit 78 (configuration), one line', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-host-'));
    try {
      // 192.0.2.0/24 is TEST-NET-1: documentation only, never assigned to an interface.
      const result = await run(['serve'], { DATA_DIR: dataDir, PORT: '0', HOST: '192.0.2.123' });
      expect(result.code).toBe(78);
      expect(result.stderr).toBe(
        'sightline: HOST 192.0.2.123 is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0\n',
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
