/**
 * Runs the service until SIGTERM or SIGINT: stop accepting, let in-flight requests finish, flush
 * the writer, close the stores, exit 0. A second signal exits at once. Embedded installations
 * also listen on the data folder's control socket (control-socket.ts) for `sightline backup`.
 */
import path from 'node:path';
import type { Config } from '../config.js';
import { buildApps } from './app.js';
import { useServiceHeapGrowth } from './garbage-collection.js';
import { fixMallocThresholds, keepReleasingFreedMemory } from './native-memory.js';
import { allEmbedded } from './backup.js';
import { listenControlSocket } from './control-socket.js';
import { openServices } from './services.js';
import { listenFailure } from './start-error.js';

export async function serve(config: Config): Promise<void> {
  const started = performance.now();
  await fixMallocThresholds(process.env.GLIBC_TUNABLES);
  const services = await openServices(config);
  const { app, ingest } = await buildApps(services);
  try {
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw listenFailure(error, { variable: 'PORT', port: config.port, host: config.host });
    });
    if (ingest) {
      await ingest.listen({ port: config.ingestPort ?? 0, host: config.host }).catch((error: unknown) => {
        throw listenFailure(error, { variable: 'INGEST_PORT', port: config.ingestPort ?? 0, host: config.host });
      });
    }
  } catch (error) {
    // Release the data folder and flush nothing half-done before the process exits.
    await Promise.all([app.close(), ingest?.close()]);
    await services.close();
    throw error;
  }
  // `sightline backup` asks this process, which alone may open the embedded engines.
  const control = allEmbedded(config) ? await listenControlSocket(services) : null;

  const port = (app.server.address() as { port: number }).port;
  const ingestPort = ingest ? (ingest.server.address() as { port: number }).port : port;
  const coldStartMs = Math.round(performance.now() - started);
  // Handlers before the announcement: a supervisor may signal as soon as it reads it.
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining requests and flushing writes');
    void (async () => {
      await Promise.all([app.close(), ingest?.close(), control?.close()]);
      await services.close();
      process.exit(0);
    })().catch((error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  const embedded = config.meta.kind === 'pglite' || config.telemetry.kind === 'chdb' || config.objects.kind === 'fs';
  useServiceHeapGrowth();
  keepReleasingFreedMemory();
  app.log.info({ port, ingestPort, coldStartMs, engines: engineNames(services) }, 'sightline ready');
  process.stdout.write(
    `Sightline is running at http://localhost:${port}` +
      (ingest ? ` (ingest at http://localhost:${ingestPort})` : '') +
      ` — ready in ${coldStartMs} ms` +
      // Where the embedded engines keep the data, absolute: a mistyped DATA_DIR shows here.
      (embedded ? `, data in ${path.resolve(config.dataDir)}` : '') +
      '\n',
  );
}

function engineNames(services: Awaited<ReturnType<typeof openServices>>): Record<string, string> {
  return {
    telemetry: services.telemetry.engine,
    meta: services.meta.engine,
    objects: services.objects.engine,
    coord: services.coord.engine,
  };
}
