import type { Config } from '../../config.js';
import { openChdb } from './chdb.js';
import { openClickHouseHttp } from './clickhouse-http.js';
import type { TelemetryEngine } from './engine.js';

export function openTelemetryEngine(options: Config['telemetry']): Promise<TelemetryEngine> {
  return options.kind === 'chdb' ? openChdb(options) : openClickHouseHttp(options);
}

export type { TelemetryEngine } from './engine.js';
