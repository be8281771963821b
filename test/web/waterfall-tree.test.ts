/** The waterfall's rows (web/src/pages/traces/waterfall-tree.ts): tree order, collapsing, search with ancestors, ruler ticks. */
import { describe, expect, it } from 'vitest';
import {
  buildSpanTree,
  hiddenBySearch,
  instantMs,
  rulerTicks,
  waterfallRows,
  type TreeSpan,
} from '../../web/src/pages/traces/waterfall-tree.js';

const at = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();
const span = (
  spanId: string,
  parentSpanId: string | null,
  startMs: number,
  name = spanId,
  extra: Partial<TreeSpan> = {},
): TreeSpan => ({
  spanId,
  parentSpanId,
  name,
  kind: 'INTERNAL',
  startTime: at(startMs),
  durationMs: 1,
  statusCode: 0,
  attributes: {},
  events: [],
  ...extra,
});

describe('waterfall rows', () => {
  const spans = [
    span('c', 'a', 5),
    span('a', null, 0),
    span('b', 'a', 2),
    span('d', 'b', 3, 'd', { attributes: { 'db.statement': 'SELECT 1' } }),
    span('orphan', 'missing', 1),
  ];
  const { roots } = buildSpanTree(spans);
  const names = (rows: ReturnType<typeof waterfallRows>) =>
    rows.map((row) => `${'  '.repeat(row.node.depth)}${row.node.span.spanId}`);

  it('puts parents before children in start order; a span whose parent is missing is a root', () => {
    expect(names(waterfallRows(roots, new Set(), ''))).toEqual(['a', '  b', '    d', '  c', 'orphan']);
  });

  it('leaves a collapsed subtree out', () => {
    expect(names(waterfallRows(roots, new Set(['b']), ''))).toEqual(['a', '  b', '  c', 'orphan']);
  });

  it('keeps matches (name or attribute) and their ancestors while searching, even under a collapsed span', () => {
    const rows = waterfallRows(roots, new Set(['a']), 'select');
    expect(names(rows)).toEqual(['a', '  b', '    d']);
    expect(rows.map((row) => row.matched)).toEqual([false, false, true]);
  });

  it('marks a span with status >= 500 or an exception event as an error', () => {
    const tree = buildSpanTree([
      span('x', null, 0, 'x', { statusCode: 500 }),
      span('y', null, 0, 'y', { events: [{ name: 'exception' }] }),
      span('z', null, 0),
    ]);
    expect(tree.roots.map((node) => node.error)).toEqual([true, true, false]);
  });

  it('builds a 10,000-deep chain without recursion', () => {
    const chain = Array.from({ length: 10_000 }, (_, index) =>
      span(`s${index}`, index === 0 ? null : `s${index - 1}`, index),
    );
    const rows = waterfallRows(buildSpanTree(chain).roots, new Set(), '');
    expect(rows).toHaveLength(10_000);
    expect(rows.at(-1)!.node.depth).toBe(9_999);
  });
});

describe('hiddenBySearch', () => {
  const spans = [
    span('root', null, 0, 'GET /checkout'),
    span('db', 'root', 1, 'SELECT stock', { attributes: { 'db.system': 'postgresql' } }),
    span('cache', 'root', 2, 'redis GET'),
    span('orphan', 'missing-parent', 3, 'lonely'),
  ];

  it('hides a span only when neither it nor any span under it matches, as waterfallRows does', () => {
    expect(hiddenBySearch(spans, 'cache', 'postgres')).toBe(true);
    expect(hiddenBySearch(spans, 'db', 'POSTGRES')).toBe(false); // an attribute value matches, any case
    expect(hiddenBySearch(spans, 'root', 'postgres')).toBe(false); // the ancestor of a match stays
    expect(hiddenBySearch(spans, 'orphan', 'postgres')).toBe(true);
    const shown = waterfallRows(buildSpanTree(spans).roots, new Set(), 'postgres').map((row) => row.node.span.spanId);
    for (const { spanId } of spans) expect(hiddenBySearch(spans, spanId, 'postgres')).toBe(!shown.includes(spanId));
  });

  it('hides nothing without a search, for an unknown span, or on a cycle of parents', () => {
    expect(hiddenBySearch(spans, 'cache', '   ')).toBe(false);
    expect(hiddenBySearch(spans, 'nope', 'postgres')).toBe(false);
    const cycle = [span('a', 'b', 0), span('b', 'a', 1)];
    expect(hiddenBySearch(cycle, 'a', 'zzz')).toBe(true);
  });
});

describe('instantMs and rulerTicks', () => {
  it('keeps the microseconds of a nanosecond timestamp (a double holds no more at epoch scale)', () => {
    expect(instantMs('2025-01-01T00:00:00.123456789Z') - Date.UTC(2025, 0, 1)).toBeCloseTo(123.456789, 3);
  });

  it('places round ticks across the duration', () => {
    expect(rulerTicks(20)).toEqual([0, 5, 10, 15, 20]);
    expect(rulerTicks(1000)).toEqual([0, 200, 400, 600, 800, 1000]);
  });
});
