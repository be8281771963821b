/**
 * The staging layer's own bounds (src/store/telemetry/staged-inserts.ts), on real files, with an
 * insert that can be held back: when the engine takes rows slower than they arrive, the rows
 * waiting for their insert stay bounded and writes are refused until it catches up.
 * test/store/chdb-staged-inserts.test.ts covers the layer with chDB itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StagedInserts, StagedInsertsRefused } from '../../src/store/telemetry/staged-inserts.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('staged inserts', () => {
  it('refuse writes while more than maxWaitingBytes wait for a slow insert, and take them again once it lands', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-staged-bound-'));
    dirs.push(folder);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inserted: string[][] = [];
    const staged = await StagedInserts.open({
      folder,
      flushMs: 60_000,
      maxBatchBytes: 100,
      maxWaitingBytes: 300,
      insert: async (_, files) => {
        await held;
        const batch = path.dirname(files);
        inserted.push(fs.readdirSync(batch).filter((file) => file.endsWith('.rowbinary')));
      },
    });
    const target = { table: 'endpoints' };
    const rows = new Uint8Array(100).fill(7);
    // Each write fills a batch (100 bytes), which closes and waits for the held insert.
    for (let i = 0; i < 3; i++) await staged.write('endpoints', target, rows);
    const refusal = await staged.write('endpoints', target, rows).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StagedInsertsRefused);
    expect((refusal as Error).message).toBe('0 MB of endpoints rows wait for their insert; retry shortly');
    // Another table is not held up by this one's backlog.
    await staged.write('spans', { table: 'spans' }, rows);

    release();
    await staged.settle();
    await staged.write('endpoints', target, rows);
    await staged.close();
    expect(inserted).toEqual([
      ['00000001.rowbinary'],
      ['00000001.rowbinary'],
      ['00000001.rowbinary'],
      ['00000001.rowbinary'],
      ['00000001.rowbinary'],
    ]);
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});
