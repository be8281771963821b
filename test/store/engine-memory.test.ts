/**
 * The embedded engines' memory settings reach the engines: PGlite's shared_buffers (an empty
 * folder initialised in a child process) and chDB's server configuration (caches, memory limit).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMetaDb } from '../../src/store/meta/index.js';
import { openChdb } from '../../src/store/telemetry/chdb.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-engine-memory-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('PGlite memory settings', () => {
  it('initialises an empty folder with the configured shared_buffers, clears a stale staging folder, and reopens with a new value', async () => {
    const folder = path.join(root, 'pglite');
    fs.mkdirSync(`${folder}.initdb/base`, { recursive: true }); // left by a start killed mid-initialisation
    const db = await openMetaDb({ kind: 'pglite', path: folder, sharedBuffersMb: 8 });
    try {
      expect(await db.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '8MB' }]);
      expect(await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).not.toEqual([{ n: 0 }]);
    } finally {
      await db.close();
    }
    expect(fs.existsSync(`${folder}.initdb`)).toBe(false);
    expect(fs.existsSync(path.join(folder, 'PG_VERSION'))).toBe(true);

    const reopened = await openMetaDb({ kind: 'pglite', path: folder, sharedBuffersMb: 24 });
    try {
      expect(await reopened.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '24MB' }]);
    } finally {
      await reopened.close();
    }
  }, 180_000); // an initialisation and two opens with migrations: minutes on a loaded 2-core machine
});

describe('chDB server configuration', () => {
  it('sizes the caches and the memory limit from the options', async () => {
    const engine = await openChdb({ path: path.join(root, 'chdb'), database: 'memory', maxMemoryMb: 700, cacheMb: 32 });
    try {
      const rows = await engine.query<{ name: string; value: string }>(
        `SELECT name, value FROM system.server_settings
         WHERE name IN ('max_server_memory_usage', 'mark_cache_size', 'primary_index_cache_size', 'index_mark_cache_size', 'uncompressed_cache_size')
         ORDER BY name`,
      );
      expect(Object.fromEntries(rows.map((r) => [r.name, r.value]))).toEqual({
        index_mark_cache_size: String(32 * 1024 * 1024),
        mark_cache_size: String(32 * 1024 * 1024),
        max_server_memory_usage: String(700 * 1024 * 1024),
        primary_index_cache_size: String(32 * 1024 * 1024),
        uncompressed_cache_size: '0',
      });
    } finally {
      await engine.close();
    }
  });
});
