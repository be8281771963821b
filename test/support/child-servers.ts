/**
 * Servers a test runs in child processes: the ClickHouse HTTP shim (chDB allows one data folder
 * per process, so a test holding chDB itself needs the shim elsewhere) and s3rver (it needs
 * OpenSSL's legacy provider, see below). Each prints one JSON line when ready and stops when
 * its stdin closes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  url: string;
  close(): Promise<void>;
}

async function startChild(args: string[]): Promise<{ child: ChildProcess; ready: unknown }> {
  const child = spawn(process.execPath, args, { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with code ${code} before it was ready`)));
  });
  return { child, ready: JSON.parse(line) };
}

function stopper(child: ChildProcess, folder: string): () => Promise<void> {
  return async () => {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill(), 10_000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(folder, { recursive: true, force: true });
  };
}

/** A ClickHouse HTTP shim over chDB in its own process and folder. */
export async function startShimProcess(): Promise<ChildServer> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-shim-process-'));
  const main = fileURLToPath(new URL('./clickhouse-shim-main.ts', import.meta.url));
  const { child, ready } = await startChild(['--import', 'tsx', main, folder]);
  return { url: (ready as { url: string }).url, close: stopper(child, folder) };
}

/**
 * s3rver 3.7.1 builds ListObjectsV2 continuation tokens with DES, which Node 20's OpenSSL 3 only
 * offers with the legacy provider; so it runs in its own process with --openssl-legacy-provider.
 */
const S3RVER = `
const S3rver = require('s3rver');
const [directory, bucket, port] = process.argv.slice(1);
new S3rver({ address: '127.0.0.1', port: Number(port), directory, silent: true, configureBuckets: [{ name: bucket }] })
  .run()
  .then((a) => process.stdout.write(JSON.stringify({ port: a.port }) + '\\n'));
process.stdin.on('end', () => process.exit(0)).resume();
`;

/** s3rver with one bucket, in its own process and folder, on `port` (0: any free one); `url` is its endpoint. */
export async function startS3rverProcess(bucket: string, port = 0): Promise<ChildServer> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-s3rver-'));
  const { child, ready } = await startChild(['--openssl-legacy-provider', '-e', S3RVER, folder, bucket, String(port)]);
  return { url: `http://127.0.0.1:${(ready as { port: number }).port}`, close: stopper(child, folder) };
}
