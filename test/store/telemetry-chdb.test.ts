import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChdb } from '../../src/store/telemetry/chdb.js';
import { telemetryEngineContract } from './telemetry-engine.contract.js';

telemetryEngineContract('chdb', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-chdb-'));
  const engine = await openChdb({ path: dir, database: 'contract' });
  return { ...engine, dispose: async () => fs.rmSync(dir, { recursive: true, force: true }) };
});
