/**
 * The usage recorder (application/ingest-usage.ts) on a real PGlite metadata store: concurrent
 * requests share statements and each counts once; a failed statement fails exactly the requests
 * in it, and the next ones are written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestUsageRecorder } from '../../src/application/ingest-usage.js';
import { openMetaDb } from '../../src/store/meta/index.js';
import { projectIngestUsage } from '../../src/store/meta/repositories/ingest-usage.js';
import type { MetaDb } from '../../src/store/meta/types.js';

const ORGANIZATION = '6f1c5b0e-2222-4000-8000-000000000001';
const PROJECT = '6f1c5b0e-2222-4000-8000-000000000002';
const MONTH = '2026-11-01';
const record = (bytes: number) => ({
  projectId: PROJECT,
  organizationId: ORGANIZATION,
  month: MONTH,
  bytes,
  requests: 1,
  skippedRecords: 0,
});

describe('ingest usage recorder', () => {
  let dir: string;
  let meta: MetaDb;
  /** The real database, with its statements counted and, while `failing`, refused. */
  let statements = 0;
  let failing = false;
  let counted: MetaDb;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-usage-'));
    meta = await openMetaDb({ kind: 'pglite', path: dir });
    counted = Object.assign(Object.create(meta) as MetaDb, {
      query: (sql: string, params?: readonly unknown[]) => {
        statements++;
        return failing ? Promise.reject(new Error('database unavailable')) : meta.query(sql, params);
      },
    });
  });
  afterAll(async () => {
    await meta?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('concurrent records share statements, and each counts once', async () => {
    const recorder = new IngestUsageRecorder(counted);
    statements = 0;
    // Records of the same moment wait a little (LINGER_MS) for each other: one statement.
    await Promise.all(Array.from({ length: 50 }, (_, i) => recorder.record(record(i + 1))));
    expect(statements).toBe(1);
    expect(await projectIngestUsage(meta, PROJECT, MONTH)).toEqual({ bytes: 1275, requests: 50, skippedRecords: 0 });
    // A record that finds a statement running waits for it; those that arrive meanwhile share the next.
    statements = 0;
    const first = recorder.record(record(1));
    while (statements === 0) await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, ...Array.from({ length: 9 }, () => recorder.record(record(1)))]);
    expect(statements).toBe(2);
    expect(await projectIngestUsage(meta, PROJECT, MONTH)).toEqual({ bytes: 1285, requests: 60, skippedRecords: 0 });
  });

  it('a failed statement rejects the requests in it, adds nothing, and the next ones are written', async () => {
    const recorder = new IngestUsageRecorder(counted);
    failing = true;
    const refused = await Promise.allSettled([recorder.record(record(1000)), recorder.record(record(2000))]);
    failing = false;
    expect(refused.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await recorder.record(record(5));
    await recorder.idle();
    expect(await projectIngestUsage(meta, PROJECT, MONTH)).toEqual({ bytes: 1290, requests: 61, skippedRecords: 0 });
  });
});
