/** Disjoint segments sorted by start; `owner` is the index of the winning input interval. */
export interface Segments {
  readonly start: number[];
  readonly end: number[];
  readonly owner: number[];
}

/**
 * Flattens possibly overlapping intervals [low[i], high[i]) into sorted,
 * disjoint segments, each owned by the interval with the highest index among
 * those covering it. Empty intervals are ignored. O(n log n): a sweep over
 * the sorted boundaries with a max-heap of open intervals, from which
 * intervals that already ended are removed lazily when they surface.
 */
export function paintIntervals(low: readonly number[], high: readonly number[]): Segments {
  const order: number[] = [];
  for (let i = 0; i < low.length; i++) if (low[i]! < high[i]!) order.push(i);
  order.sort((a, b) => low[a]! - low[b]! || a - b);
  const bounds = new Float64Array(order.length * 2);
  order.forEach((interval, i) => {
    bounds[2 * i] = low[interval]!;
    bounds[2 * i + 1] = high[interval]!;
  });
  bounds.sort();

  const out: Segments = { start: [], end: [], owner: [] };
  const open = new MaxHeap();
  let next = 0;
  let current = -1;
  let currentStart = 0;
  for (let i = 0; i < bounds.length; i++) {
    const at = bounds[i]!;
    if (i > 0 && at === bounds[i - 1]) continue;
    while (next < order.length && low[order[next]!]! <= at) open.push(order[next++]!);
    while (open.size > 0 && high[open.top]! <= at) open.pop();
    const owner = open.size > 0 ? open.top : -1;
    if (owner === current) continue;
    if (current >= 0) {
      out.start.push(currentStart);
      out.end.push(at);
      out.owner.push(current);
    }
    current = owner;
    currentStart = at;
  }
  return out;
}

class MaxHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  get top(): number {
    return this.items[0]!;
  }

  push(value: number): void {
    const items = this.items;
    let i = items.push(value) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]! >= value) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = value;
  }

  pop(): void {
    const items = this.items;
    const last = items.pop()!;
    if (items.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const larger = right < items.length && items[right]! > items[left]! ? right : left;
      if (items[larger]! <= last) break;
      items[i] = items[larger]!;
      i = larger;
    }
    items[i] = last;
  }
}
