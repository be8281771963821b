import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';
import { openClickHouseHttp } from '../../src/store/telemetry/clickhouse-http.js';
import { startClickHouseShim } from '../support/clickhouse-http-shim.js';
import { telemetryEngineContract } from './telemetry-engine.contract.js';

// Real @clickhouse/client HTTP traffic, executed by real ClickHouse (chDB) behind the shim.
telemetryEngineContract('clickhouse-http', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-chshim-'));
  const session = new Session(dir);
  const shim = await startClickHouseShim(session);
  const engine = await openClickHouseHttp({ url: shim.url, database: 'contract' });
  return {
    ...engine,
    dispose: async () => {
      await shim.close();
      session.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
