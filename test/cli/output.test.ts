import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTime, printRows, renderTable, streamedTable, tableWidth } from '../../cli/src/output.js';
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

describe('tables fitted to a width (a terminal, or COLUMNS)', () => {
  const rows = [
    {
      id: '1fcd8958-6895-4f0d-8baa-5db749cb7968',
      name: 'POST /api/checkout/with/a/very/long/route/name',
      count: 12,
      lastSeen: '2026-11-26T21:25:03.123456789Z',
      title: 'TypeError: Cannot read properties of undefined (reading "id")',
    },
    { id: 'a8f8bea5-e862-4eef-b503-964d2438c660', name: 'GET /', count: 3, lastSeen: null, title: 'short' },
  ];
  const columns = ['id', 'name', 'count', 'lastSeen', 'title'];

  it('shrinks the widest free-text columns with an ellipsis, never ids, numbers or times', () => {
    const lines = renderTable({ rows, columns }, undefined, 100).split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(lines[1]).toMatch(
      /^1fcd8958-6895-4f0d-8baa-5db749cb7968 {2}POST \/api\S*…\s+12 {2}2026-11-26 21:25:03 {2}TypeError\S* \S.*…$/,
    );
    expect(lines[2]).toMatch(/^a8f8bea5-e862-4eef-b503-964d2438c660 {2}GET \/\s+3 {2}-\s+short$/);
    // Without a width (a pipe): every character.
    expect(renderTable({ rows, columns })).toContain(rows[0]!.title);
  });

  it('leaves out the last columns when shrinking is not enough, and says which; --fields columns are kept', () => {
    const lines = renderTable({ rows, columns }, undefined, 60).split('\n');
    expect(lines[0]).toMatch(/^id\s+name\s+count$/);
    expect(lines[1]).toMatch(/^1fcd8958-6895-4f0d-8baa-5db749cb7968 {2}POST \/api\/\S*…\s+12$/);
    for (const line of lines.slice(0, 3)) expect(line.length).toBeLessThanOrEqual(60);
    // The note is broken at spaces to the width too.
    expect(lines.slice(3)).toEqual([
      '(left out to fit 60 columns: lastSeen, title; --fields picks',
      'columns, -o json shows all)',
    ]);
    const picked = renderTable({ rows, columns }, ['id', 'title', 'lastSeen'], 60).split('\n');
    expect(picked[0]).toMatch(/^id\s+title\s+lastSeen \(UTC\)$/);
    expect(picked[1]).toContain('1fcd8958-6895-4f0d-8baa-5db749cb7968');
    expect(picked).toHaveLength(3);
  });

  it('gives the priority columns (an issue title) their width last: the others shrink, then are left out, first', () => {
    const issues = {
      rows: [
        {
          hash: '3f2a9c1d7e4b8a60',
          count: 1204,
          lastSeen: '2026-11-26T21:25:03.123456789Z',
          linkedName: 'POST /api/checkout/with/a/very/long/route/name',
          title: 'TypeError: Cannot read properties of undefined (reading "id")',
        },
      ],
      columns: ['hash', 'count', 'lastSeen', 'linkedName', 'title'],
      priority: ['title'],
    };
    const note = (width: number, leftOut: string) =>
      `(left out to fit ${width} columns: ${leftOut}; --fields picks columns, -o json shows all)`;
    // 120 columns: the endpoint shrinks to its least (MIN_FREE_TEXT) before the title gives the rest.
    expect(renderTable(issues, undefined, 120).split('\n')).toEqual([
      'hash              count  lastSeen (UTC)       linkedName    title',
      '3f2a9c1d7e4b8a60   1204  2026-11-26 21:25:03  POST /api/c…  TypeError: Cannot read properties of undefined (reading "id…',
    ]);
    // 80 columns: the title would go below MIN_PRIORITY_TEXT, so the endpoint is left out (before: both cut to 16).
    const at80 = renderTable(issues, undefined, 80).split('\n');
    expect(at80.slice(0, 2)).toEqual([
      'hash              count  lastSeen (UTC)       title',
      '3f2a9c1d7e4b8a60   1204  2026-11-26 21:25:03  TypeError: Cannot read properties…',
    ]);
    expect(at80.slice(2).join(' ')).toBe(note(80, 'linkedName'));
    // Narrower still: the time goes too, never the title (the last column, which went first before).
    const at60 = renderTable(issues, undefined, 60).split('\n');
    expect(at60.slice(0, 2)).toEqual([
      'hash              count  title',
      '3f2a9c1d7e4b8a60   1204  TypeError: Cannot read properties …',
    ]);
    expect(at60.slice(2).join(' ')).toBe(note(60, 'lastSeen, linkedName'));
    // Without a priority, both shrink alike and the last column goes first, as before.
    const plain = renderTable({ ...issues, priority: undefined }, undefined, 80).split('\n');
    expect(plain[1]).toBe('3f2a9c1d7e4b8a60   1204  2026-11-26 21:25:03  POST /api/check…  TypeError: Cann…');
  });

  it('shrinks a structured column shown as text (metrics list dimensions) instead of leaving it out', () => {
    const view = {
      rows: [{ name: 'http.server.duration', dimensions: ['deployment.environment', 'http.route', 'serverName'] }],
      columns: ['name', 'dimensions'],
      cells: { dimensions: (value: unknown) => (value as string[]).join(', ') },
    };
    const lines = renderTable(view, undefined, 50).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^http\.server\.duration\s+deployment\.\S* ?\S*…$/);
    expect(lines[1]!.length).toBeLessThanOrEqual(50);
  });

  it('reads the width from COLUMNS, else a terminal; none into a pipe', () => {
    const pipe = { isTTY: false, columns: 0 } as unknown as NodeJS.WriteStream;
    const terminal = { isTTY: true, columns: 91 } as unknown as NodeJS.WriteStream;
    expect(tableWidth({}, pipe)).toBeUndefined();
    expect(tableWidth({}, terminal)).toBe(91);
    expect(tableWidth({ COLUMNS: '80' }, pipe)).toBe(80);
    expect(tableWidth({ COLUMNS: '120' }, terminal)).toBe(120);
    expect(tableWidth({ COLUMNS: 'wide' }, terminal)).toBe(91);
    expect(tableWidth({ COLUMNS: '0' }, pipe)).toBeUndefined();
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

  it('--since with --to is the duration before --to; with --from a usage error naming both', () => {
    expect(resolveRange({ since: '1h', to: '2026-11-26 22:00:00' })).toEqual({
      fromDate: '2026-11-26T21:00:00.000Z',
      toDate: '2026-11-26T22:00:00.000Z',
    });
    expect(() => resolveRange({ since: '1h', from: '2026-11-26T21:00:00Z' })).toThrow(
      '--since cannot be combined with --from',
    );
    expect(() => resolveRange({ since: '1h', from: '2026-11-26T21:00:00Z', to: '2026-11-26T22:00:00Z' })).toThrow(
      '--since cannot be combined with --from',
    );
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
