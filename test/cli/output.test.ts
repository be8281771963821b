import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTime, printRows, renderTable, streamedTable } from '../../cli/src/output.js';
import { resolveRange } from '../../cli/src/time-range.js';
import { builtCli, removeBuiltCli } from './helpers.js';

afterAll(removeBuiltCli);

describe('renderTable', () => {
  it('shows fractions with three significant digits, so a small figure never reads as zero', () => {
    const table = renderTable({
      columns: ['name', 'share', 'p95Ms', 'count'],
      rows: [{ name: 'chat', share: 0.000812, p95Ms: 728.27, count: 4 }],
    });
    expect(table.split('\n')[1]).toMatch(/^chat\s+0\.000812\s+728\.3\s+4$/);
  });

  it('formats rates, Apdex, impact, costs and booleans as the dashboard does (web/src/lib/format.ts)', () => {
    const rows = [
      {
        name: 'a',
        errorRate: 0.0833,
        clientErrorRate: 0,
        apdex: 1,
        impact: 0.00917,
        totalCost: 0.000812,
        default: true,
      },
      { name: 'b', errorRate: 0.004, clientErrorRate: 0.5, apdex: 0.931, impact: 0.5, totalCost: 1.5, default: false },
      { name: 'c', errorRate: 0.123, clientErrorRate: 1, apdex: null, impact: 0, totalCost: null, default: false },
    ];
    const columns = ['name', 'errorRate', 'clientErrorRate', 'apdex', 'impact', 'totalCost', 'default'];
    expect(renderTable({ rows, columns }).split('\n')).toEqual([
      'name  errorRate  clientErrorRate  apdex  impact  totalCost  default',
      'a        8.33 %              0 %   1.00    0.01   $0.00081  yes',
      'b         0.4 %             50 %   0.93    0.50      $1.50  no',
      'c        12.3 %            100 %      -    0.00          -  no',
    ]);
    // --fields picks the same formats; logs tail's streamed rows too.
    expect(renderTable({ rows, columns: [] }, ['errorRate']).split('\n')[1]).toBe('   8.33 %');
    expect(streamedTable(['name', 'errorRate']).line(rows[0]!)).toBe('a     8.33 %');
  });

  it('shows costs digit for digit as the dashboard does: two significant digits below a dollar, never an exponent', () => {
    const costs = [0.0003, 0.012, 0.00000015, 0.996, 1234];
    const table = renderTable({ columns: ['totalCost'], rows: costs.map((totalCost) => ({ totalCost })) });
    expect(table.split('\n').map((line) => line.trim())).toEqual([
      'totalCost',
      '$0.00030',
      '$0.012',
      '$0.00000015',
      '$1.00',
      '$1,234.00',
    ]);
  });

  it('right-aligns columns of numbers, some missing, but not a column with nothing in it', () => {
    const table = renderTable({
      columns: ['name', 'linkedName', 'count'],
      rows: [
        { name: 'checkout-service', linkedName: null, count: 12 },
        { name: 'db', linkedName: null, count: null },
      ],
    });
    expect(table.split('\n')).toEqual([
      'name              linkedName  count',
      'checkout-service  -              12',
      'db                -               -',
    ]);
  });
});

describe('times in tables', () => {
  it('shows an instant in UTC to the second, truncated, and leaves other text alone', () => {
    expect(formatTime('2026-11-26T21:25:03.123456789Z')).toBe('2026-11-26 21:25:03');
    expect(formatTime('2026-12-31T23:59:59.999999999Z')).toBe('2026-12-31 23:59:59');
    expect(formatTime('2026-11-27T01:25:03.5+04:00')).toBe('2026-11-26 21:25:03');
    expect(formatTime('2026-11-26 21:25:03.123')).toBe('2026-11-26 21:25:03');
    expect(formatTime('2026-13-40T00:00:00Z')).toBe('2026-13-40T00:00:00Z');
    expect(formatTime('soon')).toBe('soon');
  });

  it('titles time columns with their zone, whether the command or --fields picks them, and pads them to fit', () => {
    const rows = [
      { hash: 'a1', firstSeen: '2026-11-26T21:25:03.123456789Z', lastSeen: '2026-11-26T22:00:00.000000001Z', count: 3 },
      { hash: 'b2', firstSeen: '2026-11-25T08:00:09.5Z', lastSeen: null, count: 12 },
    ];
    const table = renderTable({ rows, columns: ['hash', 'count', 'lastSeen'] });
    expect(table.split('\n')).toEqual([
      'hash  count  lastSeen (UTC)',
      'a1        3  2026-11-26 22:00:00',
      'b2       12  -',
    ]);
    expect(renderTable({ rows, columns: [] }, ['firstSeen']).split('\n')).toEqual([
      'firstSeen (UTC)',
      '2026-11-26 21:25:03',
      '2026-11-25 08:00:09',
    ]);
  });

  it('logs tail: titles once, times as tables show them, bodies whole', () => {
    const table = streamedTable(['timestamp', 'severity', 'service', 'body']);
    expect(table.header).toBe('timestamp (UTC)      severity  service  body');
    expect(
      table.line({ timestamp: '2026-11-26T21:25:03.123456789Z', severity: 'WARN', service: 'shop', body: 'a\nb' }),
    ).toBe('2026-11-26 21:25:03  WARN      shop     a\nb');
  });

  it('reads a --from/--to without a zone as UTC, as the tables show times', () => {
    expect(resolveRange({ from: '2026-11-26 21:25:03', to: '2026-11-26T22:00' })).toEqual({
      fromDate: '2026-11-26T21:25:03.000Z',
      toDate: '2026-11-26T22:00:00.000Z',
    });
    expect(resolveRange({ from: '2026-11-26T21:25:03+01:00', to: '2026-11-27' }).fromDate).toBe(
      '2026-11-26T20:25:03.000Z',
    );
  });
});

describe('output into a pipe', () => {
  it('keeps JSON rows a bare array and says on stderr that there are more pages', () => {
    const written = { stdout: '', stderr: '' };
    const stdoutWrite = process.stdout.write;
    const stderrWrite = process.stderr.write;
    process.stdout.write = ((chunk: string) => (written.stdout += chunk) !== '') as typeof process.stdout.write;
    process.stderr.write = ((chunk: string) => (written.stderr += chunk) !== '') as typeof process.stderr.write;
    try {
      printRows({ rows: [{ name: 'a' }], columns: ['name'], note: 'more rows: add --page 2' }, { format: 'json' });
    } finally {
      process.stdout.write = stdoutWrite;
      process.stderr.write = stderrWrite;
    }
    expect(JSON.parse(written.stdout)).toEqual([{ name: 'a' }]);
    expect(written.stderr).toBe('more rows: add --page 2\n');
  });

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
