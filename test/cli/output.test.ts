import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { renderTable } from '../../cli/src/output.js';
import { builtCli, removeBuiltCli } from './helpers.js';

afterAll(removeBuiltCli);

describe('renderTable', () => {
  it('shows fractions with three significant digits, so a small cost never reads as zero', () => {
    const table = renderTable({
      columns: ['name', 'totalCost', 'errorRate', 'p95Ms', 'count'],
      rows: [{ name: 'chat', totalCost: 0.000812, errorRate: 0.25, p95Ms: 728.27, count: 4 }],
    });
    expect(table.split('\n')[1]).toMatch(/^chat\s+0\.000812\s+0\.250\s+728\.3\s+4$/);
  });
});

describe('output into a pipe', () => {
  it('ends quietly with 0 when the reader closes the pipe early (| head)', async () => {
    const child = spawn(process.execPath, [builtCli(), 'sourcemaps', 'upload', '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader goes away before the help is written, as `| head -0` would.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  });
});
