import type { Config } from '../../config.js';
import type { ChdbOptions } from './chdb.js';
import type { TelemetryEngine } from './engine.js';

/**
 * Each engine's module is imported only when it is opened: loading the chDB library alone makes
 * about 180 MB resident, which a deployment on a ClickHouse server never needs, and the embedded
 * start initialises PGlite before chDB is loaded (docs/PERFORMANCE.md, start-up and memory).
 */
export async function openTelemetryEngine(
  options: Config['telemetry'],
  hooks: Pick<ChdbOptions, 'onStagedError'> = {},
): Promise<TelemetryEngine> {
  if (options.kind === 'chdb') return (await import('./chdb.js')).openChdb({ ...options, ...hooks });
  return (await import('./clickhouse-http.js')).openClickHouseHttp(options);
}

export type { TelemetryEngine } from './engine.js';
