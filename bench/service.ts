/** The whole service for the end-to-end benches: embedded engines on a temporary data folder, one registered user. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import { buildApps } from '../src/server/app.js';
import { useServiceHeapGrowth } from '../src/server/garbage-collection.js';
import { fixMallocThresholds, keepReleasingFreedMemory } from '../src/server/native-memory.js';
import { openServices } from '../src/server/services.js';
import { postGzippedReport } from '../test/support/service.js';

export async function startBenchService(name: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sightline-bench-${name}-`));
  await fixMallocThresholds(process.env.GLIBC_TUNABLES); // as serve() does, before the engines load
  const services = await openServices(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REGISTRATION: 'open', ...env }),
  );
  const { app } = await buildApps(services);
  useServiceHeapGrowth(); // as serve() does once the service is ready
  const stopReleasing = keepReleasingFreedMemory();
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email: 'bench@example.com', password: 'bench password 1', name: 'Bench' },
  });
  const owner = registered.json() as { token: string; project: { id: string; token: string } };
  const close = async (): Promise<void> => {
    stopReleasing();
    await app.close();
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { services, app, owner, close };
}

/** POSTs gzipped report bodies, `inFlight` at a time, with a project's ingest token; any answer but 200 throws. */
export async function sendReports(
  app: FastifyInstance,
  projectToken: string,
  bodies: readonly Buffer[],
  inFlight: number,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < bodies.length) {
        const response = await postGzippedReport(app, projectToken, bodies[next++]!);
        if (response.statusCode !== 200) throw new Error(`report answered ${response.statusCode}: ${response.body}`);
      }
    }),
  );
}
