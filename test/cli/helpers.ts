/**
 * The CLI suites run the built CLI (cli/build.mjs, the same bundle `npm pack` ships) as a child
 * process against a real service listening on a loopback port, each with its own config folder.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { demoBatch, seededRandom, sendDemoBatch } from '../../src/demo/demo-data.js';
import { listeningTestService, registerUser, type ListeningTestService, type TestService } from '../support/service.js';

let built: string | undefined;

/** Builds the CLI once per test file, into a folder of its own inside cli/ (so its dependencies resolve). */
export function builtCli(): string {
  if (built) return built;
  const outdir = path.resolve('cli/.test-dist', String(process.pid));
  execFileSync(process.execPath, ['cli/build.mjs', outdir], { stdio: 'inherit' });
  built = path.join(outdir, 'sightline-cli.js');
  return built;
}

export function removeBuiltCli(): void {
  if (built) fs.rmSync(path.dirname(built), { recursive: true, force: true });
  built = undefined;
}

/**
 * Configuration folders of the test file being run, removed after it (the hook is registered on
 * the file importing this module; a process 'exit' handler did not run when vitest ended a worker).
 */
const configDirs: string[] = [];
afterAll(() => {
  for (const dir of configDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function newConfigDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-cli-config-'));
  configDirs.push(dir);
  return dir;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  configDir: string;
  env?: Record<string, string>;
  input?: string;
}

/** The environment of a CLI child: nothing of the developer's own Sightline settings leaks in. */
function childEnv(options: RunOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Nor the developer's terminal width: a table fits COLUMNS when it is set.
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('SIGHTLINE_') && key !== 'COLUMNS') env[key] = value;
  return { ...env, SIGHTLINE_CONFIG_DIR: options.configDir, ...options.env };
}

/** A CLI process still running: its output so far, and waits on it. */
export class RunningCli {
  stdout = '';
  stderr = '';
  readonly exited: Promise<CliResult>;
  private listeners: Array<() => void> = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.took(() => (this.stdout += chunk)));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => this.took(() => (this.stderr += chunk)));
    this.exited = new Promise((resolve) =>
      child.on('close', (code) => resolve({ code, stdout: this.stdout, stderr: this.stderr })),
    );
  }

  private took(append: () => void): void {
    append();
    for (const listener of this.listeners) listener();
  }

  /** Resolves with the first match of `pattern` in a stream; rejects if the process ends first. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = this[stream].match(pattern);
        if (!match) return false;
        this.listeners = this.listeners.filter((listener) => listener !== onData);
        resolve(match);
        return true;
      };
      const onData = () => void check();
      if (check()) return;
      this.listeners.push(onData);
      void this.exited.then(() => {
        if (!check())
          reject(
            new Error(`the CLI ended without ${pattern} on ${stream}:\nstdout: ${this.stdout}\nstderr: ${this.stderr}`),
          );
      });
    });
  }
}

export function startCli(args: string[], options: RunOptions): RunningCli {
  const child = spawn(process.execPath, [builtCli(), ...args], {
    env: childEnv(options),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin.end(options.input);
  else child.stdin.end();
  return new RunningCli(child);
}

export function runCli(args: string[], options: RunOptions): Promise<CliResult> {
  return startCli(args, options).exited;
}

/** JSON on stdout, or a failure showing what the CLI said instead. */
export function jsonOf<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
}

/** The service clock of a suite: real time plus an offset the test moves (device polling needs time to pass). */
export class OffsetClock {
  private offsetMs = 0;
  readonly now = (): number => Date.now() + this.offsetMs;
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export const MINUTE = 60_000;

/** A personal access token of a user, through the real route. */
export async function personalAccessToken(service: TestService, sessionToken: string): Promise<string> {
  const response = await service.app.inject({
    method: 'POST',
    url: '/api/personal-access-tokens',
    headers: { authorization: `Bearer ${sessionToken}` },
    payload: { name: 'cli test' },
  });
  if (response.statusCode !== 201) throw new Error(`token create failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
}

/** A person signed in to the built CLI with a personal access token, in a config folder of their own; runs the CLI as them. */
export async function signedInCli(
  service: ListeningTestService,
  sessionToken: string,
): Promise<(...args: string[]) => Promise<CliResult>> {
  const configDir = newConfigDir();
  const token = await personalAccessToken(service, sessionToken);
  const login = await runCli(['login', '--url', service.url, '--token', token], { configDir });
  if (login.code !== 0) throw new Error(`login failed (${login.code}): ${login.stderr}`);
  return (...args: string[]) => runCli(args, { configDir });
}

/**
 * What the read and MCP suites start from: the built CLI, a listening service holding one demo
 * batch, and `configDir` signed in to it with a personal access token.
 */
export async function signedInDemoService(
  configDir: string,
): Promise<{ service: ListeningTestService; user: Awaited<ReturnType<typeof registerUser>> }> {
  builtCli();
  const service = await listeningTestService();
  const user = await registerUser(service.app);
  await sendDemoBatch(service.url, user.project.token, demoBatch({ random: seededRandom(16), calls: 120 }));
  await service.services.writer.drain();
  const token = await personalAccessToken(service, user.token);
  const login = await runCli(['login', '--url', service.url, '--token', token], { configDir });
  if (login.code !== 0) throw new Error(`login failed (${login.code}): ${login.stderr}`);
  return { service, user };
}
