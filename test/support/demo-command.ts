/** Runs `sightline demo` (bin/sightline.mjs, the compiled dist/) as an operator would, without the developer's demo variables. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

export const SIGHTLINE_BIN = path.resolve('bin/sightline.mjs');

/** The environment without the demo's variables, so the developer's own do not leak in. */
export const demoEnvironment = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['SIGHTLINE_URL', 'SIGHTLINE_TOKEN', 'SIGHTLINE_DEMO_EMAIL', 'SIGHTLINE_DEMO_PASSWORD'])
    if (!(name in extra)) delete env[name];
  return env;
};

export async function runDemoCommand(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SIGHTLINE_BIN, 'demo', ...args], {
      env: demoEnvironment(env),
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
