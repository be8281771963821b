// Worker entry: the compiled module beside it when the service runs from dist/, else the
// TypeScript source, through tsx, which a worker registers itself.
import { existsSync } from 'node:fs';

const compiled = new URL('./build-worker.js', import.meta.url);
const fromDist = existsSync(compiled);
if (!fromDist) (await import('tsx/esm/api')).register();
await import(fromDist ? compiled.href : new URL('./build-worker.ts', import.meta.url).href);
