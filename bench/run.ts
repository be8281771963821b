/**
 * `npm run bench`: every benchmark in its own process (chDB allows one data folder per process),
 * one after the other so they do not compete for the two cores. Before each, the machine is
 * settled: dirty pages written (`sync`) and, where this process may, the page cache dropped, as
 * one bench's file churn slows the next one's part writes (docs/PERFORMANCE.md "Where the bound
 * is"); after each, what it left is ended and removed: the processes of its process group and
 * its own TMPDIR (a bench that fails keeps its data folder). Ends with each bench's peak
 * resident memory, as the bench reported it on exit (bench/support.ts).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

const DROP_CACHES = '/proc/sys/vm/drop_caches';

/** `sync`, then the page cache dropped if this process may (root, a writable drop_caches): what was done. */
function settle(): string {
  execFileSync('sync');
  try {
    fs.writeFileSync(DROP_CACHES, '3');
    return 'synced, page cache dropped';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return `synced; page cache NOT dropped (${code} writing ${DROP_CACHES}: needs root), so figures may carry the previous bench's churn`;
  }
}

/**
 * A temporary folder of the bench's own (its TMPDIR): on this shared machine other processes
 * (other runs, tests) make folders of the same names in /tmp, so only what lies in here is known
 * to be the bench's to remove. tsx keeps its compile cache in TMPDIR: linked in, so the bench
 * does not start with a cold one.
 */
function benchTmpdir(name: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `sightline-bench-run-${name}-`));
  const tsxCache = `tsx-${os.userInfo().uid}`;
  fs.mkdirSync(path.join(os.tmpdir(), tsxCache), { recursive: true });
  fs.symlinkSync(path.join(os.tmpdir(), tsxCache), path.join(folder, tsxCache));
  return folder;
}

/** Signals every process of a bench's group; none left is no error. */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pid !== undefined) process.kill(-pid, signal);
  } catch {}
}

/** Until no process of the group is left (at most 5 s: a process in uninterruptible sleep ends later). */
async function groupEnded(pid: number | undefined): Promise<void> {
  for (let waited = 0; pid !== undefined && waited < 5000; waited += 50) {
    try {
      process.kill(-pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

process.stdout.write(`# Sightline benchmarks (${new Date().toISOString()}, node ${process.version})\n`);
let failed = 0;
let interrupted: NodeJS.Signals | null = null;
let running: number | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    // The bench is in a group of its own, which Ctrl-C at the terminal does not reach.
    interrupted = signal;
    signalGroup(running, signal);
  });
const peaks: Array<[string, string]> = [];
for (const name of benches) {
  if (interrupted) break;
  process.stdout.write(`\n## before ${name}: ${settle()}\n`);
  const tmpdir = benchTmpdir(name);
  // A process group of its own: what the bench started and left running when it died (a serve)
  // is ended with it, instead of competing with the next bench and writing into its folder.
  const child = spawn(process.execPath, ['--import', 'tsx', `bench/${name}.ts`], {
    stdio: ['inherit', 'pipe', 'inherit'],
    env: { ...process.env, TMPDIR: tmpdir },
    detached: true,
  });
  running = child.pid;
  let peak = 'not reported';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    const match = /peak resident memory of this bench process \(VmHWM\): (\d+) MB/.exec(chunk.toString());
    if (match) peak = `${match[1]} MB`;
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  // Its output ends once no process of the group holds it.
  signalGroup(child.pid, 'SIGKILL');
  await closed;
  await groupEnded(child.pid);
  running = undefined;
  peaks.push([name, peak]);
  if (status !== 0) {
    failed++;
    process.stdout.write(`\n## ${name}: FAILED (exit ${status})\n`);
  }
  // A bench removes its folders as it ends; what is left is a failed bench's, or a store kept on
  // purpose (READ_BENCH_KEEP=1: read-api names it), which stays.
  const left = fs.readdirSync(tmpdir).filter((entry) => !entry.startsWith('tsx-'));
  if (process.env.READ_BENCH_KEEP === '1' && left.length > 0)
    process.stdout.write(`## after ${name}: ${tmpdir} kept (READ_BENCH_KEEP=1)\n`);
  else {
    try {
      fs.rmSync(tmpdir, { recursive: true, force: true });
      if (left.length > 0)
        process.stdout.write(`## after ${name}: removed the temporary folders it left: ${left.join(', ')}\n`);
    } catch (error) {
      // A process the bench started and did not stop (it was killed) may still be writing there.
      process.stdout.write(
        `## after ${name}: could not remove ${tmpdir} (${(error as Error).message}): a process it started may still run\n`,
      );
    }
  }
}
if (benches.length > 1) {
  process.stdout.write('\n## peak resident memory per bench process (VmHWM)\n');
  for (const [name, peak] of peaks) process.stdout.write(`  ${name.padEnd(16)}  ${peak}\n`);
}
process.exit(interrupted ? 128 + os.constants.signals[interrupted] : failed === 0 ? 0 : 1);
