/**
 * The published shape of the CLI: `npm pack` of cli/ installs alone into an empty folder (no
 * workspace around it), pulls in none of the server's packages or engines, and runs.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SERVER_PACKAGES = [
  'sightline',
  '@sightline/api-client',
  '@sightline/stack-frames',
  'fastify',
  'chdb',
  'pg',
  '@electric-sql/pglite',
  '@clickhouse/client',
  'ioredis',
  '@aws-sdk/client-s3',
  '@node-rs/argon2',
  'stripe',
  'nodemailer',
];

interface NpmTree {
  dependencies?: Record<string, NpmTree>;
}

function namesIn(tree: NpmTree): string[] {
  return Object.entries(tree.dependencies ?? {}).flatMap(([name, child]) => [name, ...namesIn(child)]);
}

describe('npm pack of sightline-cli', { timeout: 300_000 }, () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-cli-pack-'));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  // npm run from the test inherits the workspace's npm_* settings; the scratch install must not.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  const npm = (args: string[], cwd: string) =>
    execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

  it('installs alone from its tarball, without server packages, and runs', () => {
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', scratch], path.resolve('cli'))) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    const tarball = path.join(scratch, packed[0]!.filename);
    expect(packed[0]!.files.map((file) => file.path)).toEqual(
      expect.arrayContaining(['package.json', 'dist/sightline-cli.js']),
    );
    expect(packed[0]!.files.some((file) => file.path.startsWith('src/'))).toBe(false);

    const app = path.join(scratch, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(
      path.join(app, 'package.json'),
      JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }),
    );
    // From the local cache where it has the packages; the registry only for what it lacks.
    npm(['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], app);

    const manifest = JSON.parse(fs.readFileSync(path.join(app, 'node_modules/sightline-cli/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      '@modelcontextprotocol/sdk',
      'cli-progress',
      'commander',
      'open',
      'openapi-fetch',
      'zod',
    ]);
    const installed = namesIn(JSON.parse(npm(['ls', '--all', '--json'], app)) as NpmTree);
    expect(installed).toContain('sightline-cli');
    expect(installed.filter((name) => SERVER_PACKAGES.includes(name))).toEqual([]);

    const version = execFileSync(path.join(app, 'node_modules/.bin/sightline-cli'), ['--version'], {
      env,
      encoding: 'utf8',
    });
    expect(version.trim()).toBe('0.1.0');

    // Every command, found by walking the help's command lists, explains itself with an example.
    const helpOf = (command: string[]) =>
      execFileSync(path.join(app, 'node_modules/.bin/sightline-cli'), [...command, '--help'], {
        env,
        encoding: 'utf8',
      });
    const withoutExample: string[] = [];
    const visited: string[] = [];
    const queue: string[][] = [[]];
    while (queue.length > 0) {
      const command = queue.shift()!;
      const help = helpOf(command);
      visited.push(command.join(' '));
      if (!/\nExamples?:\n {2}\$ sightline-cli /.test(help)) withoutExample.push(command.join(' ') || '(root)');
      const listed = help.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
      for (const line of listed.split('\n')) {
        const name = /^ {2}(\S+)/.exec(line)?.[1];
        if (name && name !== 'help') queue.push([...command, name]);
      }
    }
    expect(visited).toEqual(
      expect.arrayContaining(['login', 'logs tail', 'symbols upload', 'mcp', 'profiles use', 'metrics query']),
    );
    expect(withoutExample).toEqual([]);
  });
});
