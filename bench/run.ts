/**
 * `npm run bench`: every benchmark in its own process (chDB allows one data folder per process),
 * one after the other so they do not compete for the two cores. Ends with each bench's peak
 * resident memory, as the bench reported it on exit (bench/support.ts).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const only = process.argv.slice(2);
const benches = [
  'startup',
  'memory',
  'writer',
  'report-parse',
  'report-ingest',
  'hostile-ingest',
  'otlp',
  'otlp-ingest',
  'symbols',
  'sourcemaps',
  'read-api',
  'dashboard-pages',
  'first-screen',
  'alerting',
  'move',
].filter((name) => fs.existsSync(`bench/${name}.ts`) && (only.length === 0 || only.includes(name)));
process.stdout.write(`# Sightline benchmarks (${new Date().toISOString()}, node ${process.version})\n`);
let failed = 0;
const peaks: Array<[string, string]> = [];
for (const name of benches) {
  const child = spawn(process.execPath, ['--import', 'tsx', `bench/${name}.ts`], {
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  let peak = 'not reported';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    const match = /peak resident memory of this bench process \(VmHWM\): (\d+) MB/.exec(chunk.toString());
    if (match) peak = `${match[1]} MB`;
  });
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  peaks.push([name, peak]);
  if (status !== 0) {
    failed++;
    process.stdout.write(`\n## ${name}: FAILED (exit ${status})\n`);
  }
}
if (benches.length > 1) {
  process.stdout.write('\n## peak resident memory per bench process (VmHWM)\n');
  for (const [name, peak] of peaks) process.stdout.write(`  ${name.padEnd(16)}  ${peak}\n`);
}
process.exit(failed === 0 ? 0 : 1);
