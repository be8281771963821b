/**
 * Vitest global setup: compiles src/ into dist/ once before any suite runs, so the suites that
 * spawn `bin/sightline.mjs` (test/support/child-service.ts) run the code of this work tree.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build-server.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
}
