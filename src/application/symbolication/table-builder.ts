/**
 * Runs lookup-table builds in worker threads, one at a time: builds are rare (the first crash of
 * a build) and heavy, and a queue keeps at most one large file's parse in memory.
 */
import { Worker } from 'node:worker_threads';
import type { BuildRequest, BuildResponse } from './build-worker.js';

export class SymbolTableBuildError extends Error {
  override name = 'SymbolTableBuildError';
}

export class TableBuilder {
  private queue: Promise<unknown> = Promise.resolve();

  /** Serialized table bytes; rejects with SymbolTableBuildError for an unreadable file. */
  build(request: BuildRequest): Promise<Uint8Array> {
    const run = this.queue.then(() => buildInWorker(request));
    this.queue = run.catch(() => undefined);
    return run;
  }
}

const WORKER_ENTRY = new URL('./build-worker.mjs', import.meta.url);

function buildInWorker(request: BuildRequest): Promise<Uint8Array> {
  const worker = new Worker(WORKER_ENTRY);
  return new Promise<Uint8Array>((resolve, reject) => {
    worker.once('message', (response: BuildResponse) => {
      if (response.ok) resolve(response.table);
      else reject(new SymbolTableBuildError(response.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new SymbolTableBuildError(`table build worker exited with code ${code}`)));
    worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
  }).finally(() => void worker.terminate());
}
