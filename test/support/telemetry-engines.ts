/**
 * The two telemetry engines for service-level suites. `chdb` is the service's default;
 * `clickhouse-http` points the service at a ClickHouse HTTP shim executing with chDB (see
 * clickhouse-http-shim.ts for what that does and does not verify).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';
import { startClickHouseShim } from './clickhouse-http-shim.js';

export type TelemetryEngineName = 'chdb' | 'clickhouse-http';

export interface EngineEnvironment {
  env: Record<string, string>;
  dispose(): Promise<void>;
}

export async function telemetryEngineEnvironment(engine: TelemetryEngineName): Promise<EngineEnvironment> {
  if (engine === 'chdb') return { env: {}, dispose: async () => undefined };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-shim-'));
  const session = new Session(dir);
  const shim = await startClickHouseShim(session);
  return {
    env: { CLICKHOUSE_URL: shim.url },
    async dispose() {
      await shim.close();
      session.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
