/**
 * Worker thread: builds and serializes one lookup table, so parsing a large DWARF file never
 * holds the event loop that serves every other project's ingest.
 */
import { parentPort } from 'node:worker_threads';
import { buildLookupTable, bytesSource, RetraceMapping, serializeTable, SymbolFileError } from '../../symbols/index.js';

export interface BuildRequest {
  bytes: Uint8Array;
  fileName: string;
  arch?: string;
  uuid?: string;
  /** An Android mapping file: the answer is its compact form (RetraceMapping.toCompactText). */
  mapping?: boolean;
}

export type BuildResponse = { ok: true; table: Uint8Array } | { ok: false; message: string; symbolFileError: boolean };

parentPort?.on('message', (request: BuildRequest) => {
  let response: BuildResponse;
  try {
    if (request.mapping) {
      const text = new TextDecoder().decode(request.bytes);
      response = { ok: true, table: new TextEncoder().encode(RetraceMapping.parse(text).toCompactText()) };
    } else {
      const table = buildLookupTable(bytesSource(request.bytes), {
        fileName: request.fileName,
        arch: request.arch,
        uuid: request.uuid,
      });
      response = { ok: true, table: serializeTable(table) };
    }
  } catch (error) {
    response = {
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      symbolFileError: error instanceof SymbolFileError,
    };
  }
  parentPort!.postMessage(response, response.ok ? [response.table.buffer as ArrayBuffer] : []);
});
