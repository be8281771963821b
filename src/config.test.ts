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
    expect(config.telemetry).toEqual({
      kind: 'chdb',
      path: path.resolve('data/chdb'),
      database: 'sightline',
      maxMemoryMb: null,
      cacheMb: 64,
      backupDir: path.resolve('data/backup-staging'),
    });
    expect(config.meta).toEqual({ kind: 'pglite', path: path.resolve('data/pglite'), sharedBuffersMb: 16 });
    expect(config.objects).toEqual({ kind: 'fs', root: path.resolve('data/objects') });
    expect(config.coord).toEqual({ kind: 'memory' });
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it("TRUST_PROXY is a boolean or the proxies' addresses and CIDR ranges", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', '300.1.1.1', '10.0.0.1/8/1', '10.0.0.0/', 'fd00::/129']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        `TRUST_PROXY=${JSON.stringify(bad)}: expected true, false, or a comma-separated list of IP addresses`,
      );
    }
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
    expect(message).toMatch(/PORT="eighty": must be a number \(/);
    expect(message).toMatch(/REGISTRATION="maybe": must be one of open, first-user, invite-only/);
    expect(message).toMatch(/SESSION_SECRET \(value hidden\): /);
    expect(message).toMatch(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/);
  });

  it('says in plain words what a number or URL variable must be', () => {
    const messageOf = (env: Record<string, string>): string => {
      try {
        loadConfig(env);
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    expect(messageOf({ PORT: '80.5' })).toContain('PORT="80.5": must be a whole number (');
    expect(messageOf({ PORT: '70000' })).toContain('PORT="70000": must be at most 65535 (');
    expect(messageOf({ PORT: '-1' })).toContain('PORT="-1": must be at least 0 (');
    expect(messageOf({ PUBLIC_URL: 'not a url' })).toContain('PUBLIC_URL="not a url": must be a URL (');
    expect(messageOf({ PORT: 'eighty' })).not.toMatch(/Invalid input|expected number/);
    // A length is counted in characters, and the message says so (before: "must be at least 32").
    expect(messageOf({ SESSION_SECRET: 'short' })).toContain(
      'SESSION_SECRET (value hidden): must be at least 32 characters (',
    );
    expect(messageOf({ METRICS_TOKEN: 'short' })).toContain(
      'METRICS_TOKEN (value hidden): must be at least 16 characters (',
    );
  });

  it('refuses a DATA_DIR with a file name pattern character for the embedded telemetry engine only', () => {
    for (const dataDir of ['/srv/sightline*', '/srv/data?', '/srv/{a,b}', '/srv/x}']) {
      expect(() => loadConfig({ DATA_DIR: dataDir }), dataDir).toThrow(
        /the embedded telemetry engine cannot use a folder whose path has . in it/,
      );
      expect(loadConfig({ DATA_DIR: dataDir, CLICKHOUSE_URL: 'http://127.0.0.1:8123' }).dataDir).toBe(dataDir);
    }
    expect(loadConfig({ DATA_DIR: '/srv/sightline [main]' }).dataDir).toBe('/srv/sightline [main]');
  });

  it('refuses a DATA_DIR under /proc or /sys (the start hung there at full CPU)', () => {
    for (const dataDir of ['/proc/sightline', '/sys', '/dev/shm/../../sys/x']) {
      expect(() => loadConfig({ DATA_DIR: dataDir }), dataDir).toThrow(/a kernel file system that cannot hold files/);
    }
    expect(loadConfig({ DATA_DIR: '/var/lib/procedures' }).dataDir).toBe('/var/lib/procedures');
    expect(loadConfig({ DATA_DIR: '/dev/shm/sightline' }).dataDir).toBe('/dev/shm/sightline');
    const result = spawnSync(process.execPath, [path.resolve('bin/sightline.mjs'), 'serve'], {
      env: { ...process.env, DATA_DIR: '/proc/sightline', PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('DATA_DIR=/proc/sightline: under /proc, a kernel file system');
  });

  it('stops `sightline serve` with exit code 78 and the message when the configuration is bad, secrets left out', () => {
    const result = spawnSync(process.execPath, [path.resolve('bin/sightline.mjs'), 'serve'], {
      env: {
        ...process.env,
        PORT: '70000',
        SESSION_SECRET: 'short-SECRET-MARKER',
        DATABASE_URL: 'postgres://admin:SECRET-MARKER@db host/x',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toMatch(/sightline: invalid configuration:\n {2}PORT="70000": /);
    expect(result.stderr).toContain('SESSION_SECRET (value hidden): ');
    expect(result.stderr).toContain('DATABASE_URL="postgres://***@db host/x": ');
    expect(result.stdout + result.stderr).not.toContain('SECRET-MARKER');
  });

  it('never shows the value of a secret variable nor the credentials of a URL in its errors', () => {
    const MARKER = 'mk7f3q';
    const messageOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(Object.keys(env))}`);
    };
    const secrets = Object.entries(VARIABLES)
      .filter(([, spec]) => 'secret' in spec && spec.secret)
      .map(([name]) => name);
    // Every variable named like a credential is declared secret.
    for (const name of Object.keys(VARIABLES).filter((n) => /(SECRET|TOKEN|_KEY|_KEY_ID)$/.test(n)))
      expect(secrets, name).toContain(name);
    for (const name of secrets) {
      // A malformed value (too short, wrong prefix) and one that is fine but misses its partner.
      for (const value of [MARKER, `${MARKER}${'x'.repeat(40)}`]) {
        const message = messageOf({ [name]: value, PORT: 'eighty' });
        expect(message, name).not.toContain(MARKER);
        expect(message).toContain('PORT="eighty"');
      }
    }
    expect(messageOf({ SESSION_SECRET: `short${MARKER}` })).toMatch(
      /^invalid configuration:\n {2}SESSION_SECRET \(value hidden\): .*32/,
    );
    expect(messageOf({ STRIPE_SECRET_KEY: MARKER, STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toContain(
      'STRIPE_SECRET_KEY (value hidden): must be a Stripe secret or restricted key',
    );

    const urls: Array<[string, string, string]> = [
      [
        'DATABASE_URL',
        `postgres://admin:${MARKER}@db host:5432/sightline`,
        'DATABASE_URL="postgres://***@db host:5432/sightline": ',
      ],
      ['DATABASE_URL', `//admin:${MARKER}@db:5432/sightline`, 'DATABASE_URL="***@db:5432/sightline": '],
      ['DATABASE_URL', `postgres://admin:p/ss@${MARKER}@db:99999/x`, 'DATABASE_URL="postgres://***@db:99999/x": '],
      ['REDIS_URL', `redis ://:${MARKER}@cache:6379`, 'REDIS_URL="***@cache:6379": '],
      ['CLICKHOUSE_URL', `http://default:${MARKER}@click house:8123`, 'CLICKHOUSE_URL="http://***@click house:8123": '],
      ['S3_ENDPOINT', `https://key:${MARKER}@minio :9000`, 'S3_ENDPOINT="https://***@minio :9000": '],
      [
        'SMTP_URL',
        `http://mailer:${MARKER}@mail.example.com:587`,
        'SMTP_URL="http://***@mail.example.com:587": must be an smtp:// or smtps:// URL',
      ],
      [
        'OIDC_ISSUER',
        `http://client:${MARKER}@id.example.com`,
        'OIDC_ISSUER="http://***@id.example.com": must be an https URL',
      ],
      ['PUBLIC_URL', `https://u:${MARKER}@obs example.com`, 'PUBLIC_URL="https://***@obs example.com": '],
    ];
    for (const [name, value, expected] of urls) {
      const message = messageOf({ [name]: value, ...(name === 'OIDC_ISSUER' ? { OIDC_CLIENT_ID: 'c' } : {}) });
      expect(message, value).not.toContain(MARKER);
      expect(message, value).toContain(expected);
    }
    // Values without credentials stay as they were, e-mail addresses included.
    expect(messageOf({ MAIL_FROM: 'a@' })).toContain('MAIL_FROM="a@": ');
  });

  it('mail and sign-in: off by default; the sender follows PUBLIC_URL; reset links live 30 minutes', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://obs.example.com/' });
    expect(config.mail).toEqual({ smtpUrl: null, from: 'Sightline <no-reply@obs.example.com>' });
    expect(config.passwordResetTtlMinutes).toBe(30);
    expect(config.oauth).toEqual({ oidc: null, google: null, github: null });
    const on = loadConfig({
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      MAIL_FROM: 'Ops <ops@example.com>',
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'c',
      GOOGLE_CLIENT_ID: 'g',
      GOOGLE_CLIENT_SECRET: 'gs',
      GITHUB_CLIENT_ID: 'h',
      GITHUB_CLIENT_SECRET: 'hs',
      GITHUB_URL: 'https://github.example.com/',
    });
    expect(on.mail).toEqual({ smtpUrl: 'smtps://u:p@mail.example.com:465', from: 'Ops <ops@example.com>' });
    expect(on.oauth).toEqual({
      oidc: { issuer: 'https://id.example.com', clientId: 'c', clientSecret: null, name: 'Single sign-on' },
      google: { clientId: 'g', clientSecret: 'gs' },
      github: { clientId: 'h', clientSecret: 'hs', url: 'https://github.example.com' },
    });
  });

  it('refuses half-configured providers, plain-http provider URLs off loopback and non-SMTP mail URLs', () => {
    const message = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    expect(message({ OIDC_ISSUER: 'https://id.example.com' })).toContain(
      'OIDC_ISSUER and OIDC_CLIENT_ID must be set together',
    );
    expect(message({ GOOGLE_CLIENT_ID: 'g' })).toContain(
      'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together',
    );
    expect(message({ GITHUB_CLIENT_SECRET: 's' })).toContain(
      'GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together',
    );
    expect(message({ OIDC_ISSUER: 'http://id.example.com', OIDC_CLIENT_ID: 'c' })).toContain(
      'OIDC_ISSUER="http://id.example.com": must be an https URL',
    );
    expect(message({ GITHUB_URL: 'http://10.0.0.5' })).toContain('GITHUB_URL="http://10.0.0.5": must be an https URL');
    expect(message({ SMTP_URL: 'http://mail.example.com' })).toContain(
      'SMTP_URL="http://mail.example.com": must be an smtp:// or smtps:// URL',
    );
    expect(loadConfig({ OIDC_ISSUER: 'http://127.0.0.1:4000', OIDC_CLIENT_ID: 'c' }).oauth.oidc?.issuer).toBe(
      'http://127.0.0.1:4000',
    );
    expect(loadConfig({ OIDC_ISSUER: 'http://localhost:4000', OIDC_CLIENT_ID: 'c' }).oauth.oidc?.issuer).toBe(
      'http://localhost:4000',
    );
  });

  it('documents every variable in the README configuration table', () => {
    const readme = fs.readFileSync(path.resolve('README.md'), 'utf8');
    for (const name of Object.keys(VARIABLES)) expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });
});
