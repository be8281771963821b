/** The `sightline` command as an operator runs it (bin/sightline.mjs, the compiled dist/). */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const BIN = path.resolve('bin/sightline.mjs');
const run = async (args: string[]) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

describe('sightline command line', () => {
  it.each([['version'], ['--version'], ['-v']])('%s prints the package version', async (flag) => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(await run([flag])).toEqual({ code: 0, stdout: `sightline ${version}\n`, stderr: '' });
  });

  it('help lists the commands; an unknown one is a usage error (64) that shows them', async () => {
    const help = await run(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: sightline <command>/);
    for (const command of ['serve', 'version', 'help']) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    const unknown = await run(['nonsense']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toBe(`sightline: unknown command "nonsense"\n\n${help.stdout}`);
  });
});
