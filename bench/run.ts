/**
 * `npm run bench`: every benchmark in its own process (chDB allows one data folder per process),
 * one after the other so they do not compete for the two cores.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const only = process.argv.slice(2);
const benches = ['startup', 'writer', 'report-parse', 'report-ingest', 'hostile-ingest', 'otlp', 'otlp-ingest', 'symbols', 'sourcemaps', 'read-api', 'dashboard-pages', 'first-screen', 'alerting'].filter(
  (name) => fs.existsSync(`bench/${name}.ts`) && (only.length === 0 || only.includes(name)),
);
process.stdout.write(`# Sightline benchmarks (${new Date().toISOString()}, node ${process.version})\n`);
let failed = 0;
for (const name of benches) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${name}.ts`], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    process.stdout.write(`\n## ${name}: FAILED (exit ${result.status})\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);
