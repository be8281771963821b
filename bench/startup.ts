/**
 * Cold start to ready: `sightline serve` on an empty data folder (first PGlite initialisation,
 * chDB and both migration runs), then a warm restart on the same folder; resident memory idle.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { report } from './support.js';

async function startOnce(dataDir: string): Promise<{ readyMs: number; rssMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/sightline.mjs', 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { readyMs, rssMb: Math.round(rssKb / 1024) };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-start-'));
const cold = await startOnce(dataDir);
const warm = await startOnce(dataDir);
fs.rmSync(dataDir, { recursive: true, force: true });
report('start-up (process spawn to "running at")', [
  ['cold start (empty data folder)', `${Math.round(cold.readyMs)} ms`],
  ['warm start (existing folder)', `${Math.round(warm.readyMs)} ms`],
  ['ratio cold / warm', (cold.readyMs / warm.readyMs).toFixed(2)],
  ['resident memory idle after start', `${warm.rssMb} MB`],
]);
