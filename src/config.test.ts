import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, VARIABLES, loadConfig } from './config.js';

describe('configuration', () => {
  it('defaults to the embedded engines under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.ingestPort).toBeNull();
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.telemetry).toEqual({ kind: 'chdb', path: path.resolve('data/chdb'), database: 'sightline' });
    expect(config.meta).toEqual({ kind: 'pglite', path: path.resolve('data/pglite') });
    expect(config.objects).toEqual({ kind: 'fs', root: path.resolve('data/objects') });
    expect(config.coord).toEqual({ kind: 'memory' });
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('switches each store to its server twin when its URL is set', () => {
    const config = loadConfig({
      CLICKHOUSE_URL: 'http://ch:8123',
      DATABASE_URL: 'postgres://u@pg/db',
      S3_BUCKET: 'b',
      S3_FORCE_PATH_STYLE: 'true',
      REDIS_URL: 'redis://r:6379',
      INGEST_PORT: '4318',
    });
    expect(config.telemetry.kind).toBe('clickhouse-http');
    expect(config.meta.kind).toBe('postgres');
    expect(config.objects).toMatchObject({ kind: 's3', bucket: 'b', forcePathStyle: true });
    expect(config.coord.kind).toBe('redis');
    expect(config.ingestPort).toBe(4318);
  });

  it('treats INGEST_PORT equal to PORT as one listener', () => {
    expect(loadConfig({ PORT: '9000', INGEST_PORT: '9000' }).ingestPort).toBeNull();
  });

  it('names every invalid variable and what is allowed', () => {
    const error = (() => {
      try {
        loadConfig({ PORT: 'eighty', REGISTRATION: 'maybe', SESSION_SECRET: 'short', S3_ACCESS_KEY_ID: 'only-one' });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT="eighty": /);
    expect(message).toMatch(/REGISTRATION="maybe": must be one of open, first-user, invite-only/);
    expect(message).toMatch(/SESSION_SECRET="short": /);
    expect(message).toMatch(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/);
  });

  it('stops `sightline serve` with exit code 78 and the message when the configuration is bad', () => {
    const result = spawnSync(process.execPath, [path.resolve('bin/sightline.mjs'), 'serve'], {
      env: { ...process.env, PORT: '70000' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toMatch(/sightline: invalid configuration:\n {2}PORT="70000": /);
  });

  it('documents every variable in the README configuration table', () => {
    const readme = fs.readFileSync(path.resolve('README.md'), 'utf8');
    for (const name of Object.keys(VARIABLES)) expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });
});
