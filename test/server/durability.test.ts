/**
 * An acknowledged write is durable (DESIGN §1.3): rows answered 200 survive SIGKILL right after
 * the answers, and SIGTERM lets in-flight requests finish and flushes before a clean exit.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Session } from 'chdb';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildService } from '../support/child-service.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function report(traceIds: string[]): Buffer {
  const recordedAt = new Date().toISOString();
  const traces = traceIds.map((id) => ({
    id,
    endpoint: 'POST /orders',
    duration: 12_345_678,
    recordedAt,
    statusCode: 201,
    bodySize: 128,
    clientIP: '203.0.113.1',
    attributes: { 'order.items': '3' },
  }));
  return zlib.gzipSync(
    JSON.stringify({
      collectionFrames: [{ stackTraces: [], metrics: [], traces }],
      appVersion: '1.0.0',
      serverName: 'durability',
    }),
  );
}

async function register(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'durable@example.com', password: 'durable password', name: 'Durable' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { project: { token: string } }).project.token;
}

/** Sends reports concurrently; returns the trace ids of the ones answered 200. */
async function sendConcurrently(
  url: string,
  token: string,
  requests: number,
  tracesPerRequest: number,
): Promise<string[]> {
  const acknowledged: string[] = [];
  await Promise.all(
    Array.from({ length: requests }, async () => {
      const ids = Array.from({ length: tracesPerRequest }, () => randomUUID());
      try {
        const response = await fetch(`${url}/api/report`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: report(ids),
        });
        if (response.status === 200) acknowledged.push(...ids);
      } catch {
        // a request cut off by the shutdown is not acknowledged: nothing to prove about it
      }
    }),
  );
  return acknowledged;
}

function storedTraceIds(dataDir: string): Set<string> {
  const session = new Session(path.join(dataDir, 'chdb'));
  try {
    const text = session.query(
      `SELECT DISTINCT toString(id) FROM sightline.endpoints WHERE server_name = 'durability'`,
      'TabSeparated',
    );
    return new Set(text.split('\n').filter(Boolean));
  } finally {
    session.close();
  }
}

describe('durability of acknowledged writes', () => {
  it('loses no acknowledged row when the process is killed with SIGKILL right after the answers', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-kill-'));
    dirs.push(dataDir);
    const first = await startChildService({ DATA_DIR: dataDir });
    const token = await register(first.url);
    const acknowledged = await sendConcurrently(first.url, token, 40, 25);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    // The service comes back on the same folder, then stops cleanly.
    const second = await startChildService({ DATA_DIR: dataDir });
    expect((await fetch(`${second.url}/ready`)).status).toBe(200);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    const stored = storedTraceIds(dataDir);
    const lost = acknowledged.filter((id) => !stored.has(id));
    console.log(
      `SIGKILL durability: ${acknowledged.length} rows acknowledged, ${acknowledged.length - lost.length} found, ${lost.length} lost`,
    );
    expect(acknowledged.length).toBe(1000);
    expect(lost).toEqual([]);
  });

  it('drains in-flight requests and flushes pending rows on SIGTERM, then exits 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-term-'));
    dirs.push(dataDir);
    // A long flush interval keeps the rows pending in the writer when the signal arrives.
    const service = await startChildService({ DATA_DIR: dataDir, WRITER_FLUSH_MS: '3000' });
    const token = await register(service.url);
    const sending = sendConcurrently(service.url, token, 10, 10);
    await new Promise((resolve) => setTimeout(resolve, 500));
    service.child.kill('SIGTERM');
    const acknowledged = await sending;
    expect((await service.exited).code).toBe(0);
    expect(acknowledged.length).toBe(100);
    const stored = storedTraceIds(dataDir);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });
});
