/**
 * Start-up time and memory of `sightline serve`: a first start on an empty data folder (PGlite's
 * folder copied from the build's template, chDB, both migration runs), then a warm restart on the
 * same folder. For each:
 * time to the "running at" line, the server's peak resident memory (VmHWM), the peak of the
 * server with any process it spawned (sampled), and resident memory once idle.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processMemory, report, treeRssMb } from './support.js';

/** How long the service sits idle after ready before its resident memory is read. */
const IDLE_MS = Number(process.env.STARTUP_BENCH_IDLE_MS ?? 5000);

interface Start {
  readyMs: number;
  peakMb: number;
  treePeakMb: number;
  idle: { rss: number; anon: number; file: number };
}

async function startOnce(dataDir: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/sightline.mjs', 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let treePeakMb = 0;
  const sampler = setInterval(() => (treePeakMb = Math.max(treePeakMb, treeRssMb(child.pid!))), 50);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /running at (http:\/\/localhost:\d+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const readyMs = performance.now() - started;
    const ready = await fetch(`${url}/ready`);
    if (ready.status !== 200) throw new Error(`not ready: ${ready.status}`);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const memory = processMemory(child.pid!);
    if (!memory) throw new Error('the server exited');
    return { readyMs, peakMb: memory.peak, treePeakMb: Math.max(treePeakMb, memory.peak), idle: memory };
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }
}

// The service runs from dist/: compile the sources of this tree first.
execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-start-'));
const first = await startOnce(dataDir);
const warm = await startOnce(dataDir);
fs.rmSync(dataDir, { recursive: true, force: true });
const memory = (start: Start) =>
  `peak ${start.peakMb} MB (with spawned processes ${start.treePeakMb} MB); idle ${start.idle.rss} MB (${start.idle.anon} anonymous, ${start.idle.file} file-backed)`;
report('start-up (process spawn to "running at"; memory from /proc)', [
  ['first start (empty data folder)', `${Math.round(first.readyMs)} ms`],
  ['warm start (existing folder)', `${Math.round(warm.readyMs)} ms`],
  ['ratio first / warm', (first.readyMs / warm.readyMs).toFixed(2)],
  ['first start memory', memory(first)],
  ['warm start memory', memory(warm)],
  ['idle measured', `${IDLE_MS} ms after ready`],
]);
