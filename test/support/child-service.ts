/**
 * Runs `sightline serve` as a child process, the way an operator does, for tests that kill it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../bin/sightline.mjs');

export interface ChildService {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startChildService(env: Record<string, string>): Promise<ChildService> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', REGISTRATION: 'open', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 60_000);
    const check = (): void => {
      const match = /running at (http:\/\/localhost:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', check);
    void exited.then(({ code, signal }) =>
      reject(new Error(`service exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
  });
  return { url, child, output: () => output, exited };
}

export interface CommandExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * `sightline <args>` as an operator runs it; killed with SIGKILL as soon as its stderr matches
 * `killWhen`; `onStderr` sees the stderr so far after each chunk.
 */
export function runSightline(
  args: string[],
  env: Record<string, string>,
  options: { killWhen?: RegExp; onStderr?: (stderr: string) => void } = {},
): Promise<CommandExit> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (options.killWhen?.test(stderr)) child.kill('SIGKILL');
    options.onStderr?.(stderr);
  });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
}
