/**
 * The span tree of a waterfall and the rows it shows: parents before children in start order,
 * collapsed subtrees left out, and, while searching, only the matching spans and their ancestors.
 * Linear in the number of spans, so a 10,000-span trace re-rows in a few milliseconds.
 */
import type { paths } from '@sightline/api-client';

type TraceSpan = paths['/api/traces/{id}']['get']['responses'][200]['content']['application/json']['spans'][number];

/**
 * What the tree reads of a span of the trace answer (`Span` of ./types, also a distributed trace's):
 * of its events only the names. Taken from the generated client by its package name, a type-only
 * import, so this module still runs its unit tests under the server's module resolution.
 */
export type TreeSpan = Pick<
  TraceSpan,
  'spanId' | 'parentSpanId' | 'name' | 'kind' | 'startTime' | 'durationMs' | 'statusCode' | 'attributes'
> & { events: ReadonlyArray<{ name: string }> };

export interface SpanNode {
  span: TreeSpan;
  startMs: number;
  endMs: number;
  depth: number;
  parent: SpanNode | null;
  children: SpanNode[];
  error: boolean;
}

export interface WaterfallRow {
  node: SpanNode;
  /** Whether the row's children are shown (false for a leaf). */
  expanded: boolean;
  matched: boolean;
}

/** An API timestamp (nanosecond digits allowed) as epoch milliseconds with the sub-millisecond part kept. */
export function instantMs(iso: string | null): number {
  if (iso === null) return NaN;
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const whole = Date.parse(iso.replace(/\.\d+/, ''));
  return whole + (fraction === '' ? 0 : Number(`0.${fraction}`) * 1000);
}

export const spanIsError = (span: TreeSpan): boolean =>
  span.statusCode >= 500 || span.events.some((event) => event.name === 'exception');

export function buildSpanTree(spans: readonly TreeSpan[]): { roots: SpanNode[]; nodes: Map<string, SpanNode> } {
  const nodes = new Map<string, SpanNode>();
  for (const span of spans) {
    const startMs = instantMs(span.startTime);
    nodes.set(span.spanId, {
      span,
      startMs,
      endMs: startMs + span.durationMs,
      depth: 0,
      parent: null,
      children: [],
      error: spanIsError(span),
    });
  }
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parentSpanId === null ? undefined : nodes.get(node.span.parentSpanId);
    // A span naming itself or a missing parent (sent in another batch, or outside the cap) is a root.
    if (parent && parent !== node) {
      node.parent = parent;
      parent.children.push(node);
    } else {
      roots.push(node);
    }
  }
  const byStart = (a: SpanNode, b: SpanNode) => a.startMs - b.startMs || a.span.spanId.localeCompare(b.span.spanId);
  roots.sort(byStart);
  // Depth-first without recursion: a 10,000-deep chain must not overflow the stack.
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    node.children.sort(byStart);
    for (const child of node.children) {
      child.depth = node.depth + 1;
      stack.push(child);
    }
  }
  return { roots, nodes };
}

/** A span matches a search when its name, kind or an attribute key or value contains the text. */
export function spanMatches(span: TreeSpan, needle: string): boolean {
  const text = needle.toLowerCase();
  if (span.name.toLowerCase().includes(text) || span.kind.toLowerCase().includes(text)) return true;
  return Object.entries(span.attributes).some(
    ([key, value]) => key.toLowerCase().includes(text) || value.toLowerCase().includes(text),
  );
}

/**
 * Whether a search leaves the span out of the waterfall: `waterfallRows` keeps the matches and
 * their ancestors, so a span stays when it or any span under it (in `buildSpanTree`'s tree)
 * matches. False without a search or for an unknown span.
 */
export function hiddenBySearch(spans: readonly TreeSpan[], spanId: string, search: string): boolean {
  const needle = search.trim();
  const node = needle === '' ? undefined : buildSpanTree(spans).nodes.get(spanId);
  if (!node) return false;
  // `seen` guards against a cycle of parents in bad data.
  const seen = new Set<SpanNode>();
  const stack = [node];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    if (spanMatches(at.span, needle)) return false;
    stack.push(...at.children);
  }
  return true;
}

export function waterfallRows(
  roots: readonly SpanNode[],
  collapsed: ReadonlySet<string>,
  search: string,
): WaterfallRow[] {
  const needle = search.trim();
  let keep: Set<SpanNode> | null = null;
  const matched = new Set<SpanNode>();
  if (needle !== '') {
    keep = new Set();
    const stack = [...roots];
    while (stack.length > 0) {
      const node = stack.pop()!;
      stack.push(...node.children);
      if (!spanMatches(node.span, needle)) continue;
      matched.add(node);
      for (let at: SpanNode | null = node; at !== null && !keep.has(at); at = at.parent) keep.add(at);
    }
  }
  const rows: WaterfallRow[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (keep && !keep.has(node)) continue;
    // While searching, the path to every match is open whatever was collapsed.
    const expanded = node.children.length > 0 && (keep !== null || !collapsed.has(node.span.spanId));
    rows.push({ node, expanded, matched: matched.has(node) });
    if (expanded) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return rows;
}

/** The axis of a set of spans: the earliest start to the latest end (at least 1 µs long). */
export function spanExtent(nodes: Iterable<SpanNode>): { startMs: number; endMs: number } {
  let startMs = Infinity;
  let endMs = -Infinity;
  for (const node of nodes) {
    if (!Number.isFinite(node.startMs)) continue;
    startMs = Math.min(startMs, node.startMs);
    endMs = Math.max(endMs, node.endMs);
  }
  if (!Number.isFinite(startMs)) return { startMs: 0, endMs: 1 };
  return { startMs, endMs: Math.max(endMs, startMs + 0.001) };
}

/** Round tick steps for a ruler of `durationMs` with about `count` ticks. */
export function rulerTicks(durationMs: number, count = 5): number[] {
  if (!(durationMs > 0)) return [0];
  const rough = durationMs / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= rough) ?? rough;
  const ticks: number[] = [];
  for (let tick = 0; tick <= durationMs + step * 1e-9; tick += step) ticks.push(tick);
  return ticks;
}
