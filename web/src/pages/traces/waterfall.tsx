/**
 * The span waterfall: a collapsible tree of spans on a time ruler, bars to scale, errors in red.
 * Rows are virtualized (only the visible window is in the DOM), so 10,000 spans scroll smoothly.
 * Keys, with the tree focused: ↑/↓ move, ← collapses (or goes to the parent), → expands (or goes
 * to the first child), Enter selects; the selected span lives in the page's URL.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronRight } from 'lucide-react';
import { SearchInput } from '@/components/ui/input';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { formatCount, formatDuration } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { Span } from './types';
import { buildSpanTree, rulerTicks, spanExtent, waterfallRows, type SpanNode } from './waterfall-tree';

const ROW_HEIGHT = 28;
const INDENT_PX = 14;
/** Deeper levels stop indenting, so a very deep chain keeps its names readable. */
const MAX_INDENT_LEVELS = 24;

export interface WaterfallAxis {
  startMs: number;
  endMs: number;
}

export function useSpanTree(spans: readonly Span[]) {
  return useMemo(() => buildSpanTree(spans), [spans]);
}

function Highlight({ text, needle }: { text: string; needle: string }): ReactNode {
  const at = needle === '' ? -1 : text.toLowerCase().indexOf(needle.toLowerCase());
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <mark className="rounded-sm bg-warning/30 text-foreground">{text.slice(at, at + needle.length)}</mark>
      {text.slice(at + needle.length)}
    </>
  );
}

/**
 * The span search of a waterfall card (its text lives in the page's URL as `q`). While it has the
 * focus its text is the truth (each keystroke goes to the URL); otherwise it follows the URL, so a
 * "Clear search" elsewhere on the page or the back button shows in the box.
 */
export function SpanSearch({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(value);
  latest.current = value;
  const follow = () => {
    const element = input.current;
    if (element && element !== document.activeElement && element.value !== latest.current)
      element.value = latest.current;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: `follow` reads the value through a ref; a new value is the trigger
  useEffect(follow, [value]);
  return (
    <SearchInput
      ref={input}
      className="w-64"
      defaultValue={value}
      onValue={onChange}
      onBlur={follow}
      placeholder="Find spans"
      label="Find spans"
    />
  );
}

/** The ruler over the bar column: tick labels at round offsets from the axis start. */
export function TimeRuler({ axis, className }: { axis: WaterfallAxis; className?: string }) {
  const duration = axis.endMs - axis.startMs;
  return (
    <div className={cn('relative h-6 text-[11px] text-muted-foreground tabular', className)} aria-hidden>
      {rulerTicks(duration).map((tick) => {
        const left = (tick / duration) * 100;
        return (
          <span
            key={tick}
            className="absolute top-0 h-full border-l pl-1 leading-6"
            style={left > 92 ? { right: 0, borderLeft: 0 } : { left: `${left}%` }}
          >
            {formatDuration(tick)}
          </span>
        );
      })}
    </div>
  );
}

/** A bar on the axis with its duration beside it (after the bar, or before it near the right edge). */
export function TimelineBar({
  startMs,
  endMs,
  axis,
  error,
  label,
}: {
  startMs: number;
  endMs: number;
  axis: WaterfallAxis;
  error: boolean;
  label: string;
}) {
  const duration = axis.endMs - axis.startMs;
  const left = Math.min(100, Math.max(0, ((startMs - axis.startMs) / duration) * 100));
  const width = Math.min(100 - left, Math.max(0, ((endMs - startMs) / duration) * 100));
  const labelAfter = left + width < 78;
  return (
    <div className="relative h-full">
      <div
        className={cn(
          'absolute top-1/2 h-2.5 min-w-[2px] -translate-y-1/2 rounded-sm',
          error ? 'bg-danger' : 'bg-accent/70',
        )}
        style={{ left: `${left}%`, width: `${width}%` }}
      />
      <span
        className="absolute top-1/2 -translate-y-1/2 font-mono text-[11px] whitespace-nowrap text-muted-foreground"
        style={labelAfter ? { left: `calc(${left + width}% + 4px)` } : { right: `calc(${100 - left}% + 4px)` }}
      >
        {label}
      </span>
    </div>
  );
}

export function Waterfall({
  spans,
  axis: axisOverride,
  selectedSpanId,
  onSelect,
  search = '',
  label,
  maxHeight = 560,
}: {
  spans: readonly Span[];
  /** The time axis; by default the spans' own extent (a distributed trace passes its whole window). */
  axis?: WaterfallAxis;
  selectedSpanId: string | undefined;
  onSelect: (spanId: string | undefined) => void;
  search?: string;
  label: string;
  maxHeight?: number;
}) {
  const { roots, nodes } = useSpanTree(spans);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => waterfallRows(roots, collapsed, search), [roots, collapsed, search]);
  const axis = useMemo(() => axisOverride ?? spanExtent(nodes.values()), [axisOverride, nodes]);
  const [cursor, setCursor] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const idPrefix = useRef(`wf-${Math.random().toString(36).slice(2, 8)}`).current;

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  // The selection from the URL: open the path to it and bring it into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the selection changes, not on every re-render of the rows it reads
  useEffect(() => {
    if (selectedSpanId === undefined) return;
    const node = nodes.get(selectedSpanId);
    if (!node) return;
    const closedAncestors: string[] = [];
    for (let at = node.parent; at !== null; at = at.parent)
      if (collapsed.has(at.span.spanId)) closedAncestors.push(at.span.spanId);
    if (closedAncestors.length > 0) {
      setCollapsed((previous) => new Set([...previous].filter((id) => !closedAncestors.includes(id))));
      return;
    }
    const index = rows.findIndex((row) => row.node === node);
    if (index >= 0) {
      setCursor(index);
      virtualizer.scrollToIndex(index, { align: 'auto' });
    }
    // Only a new selection (or new rows) moves the view: the cursor and the virtualizer are left out on purpose.
  }, [selectedSpanId, rows]);

  const toggle = (node: SpanNode, open?: boolean) =>
    setCollapsed((previous) => {
      const next = new Set(previous);
      const isOpen = !previous.has(node.span.spanId);
      if (open ?? !isOpen) next.delete(node.span.spanId);
      else next.add(node.span.spanId);
      return next;
    });

  const move = (index: number) => {
    const bounded = Math.max(0, Math.min(rows.length - 1, index));
    setCursor(bounded);
    virtualizer.scrollToIndex(bounded, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[cursor];
    if (!row || event.metaKey || event.ctrlKey || event.altKey) return;
    const { node } = row;
    const handled = (() => {
      switch (event.key) {
        case 'ArrowDown':
          move(cursor + 1);
          return true;
        case 'ArrowUp':
          move(cursor - 1);
          return true;
        case 'Home':
          move(0);
          return true;
        case 'End':
          move(rows.length - 1);
          return true;
        case 'ArrowLeft':
          if (row.expanded && search.trim() === '') toggle(node, false);
          else if (node.parent) move(rows.findIndex((candidate) => candidate.node === node.parent));
          return true;
        case 'ArrowRight':
          if (node.children.length > 0 && !row.expanded) toggle(node, true);
          else if (row.expanded) move(cursor + 1);
          return true;
        case 'Enter':
        case ' ':
          onSelect(node.span.spanId);
          return true;
        case 'Escape':
          onSelect(undefined);
          return true;
        default:
          return false;
      }
    })();
    if (handled) event.preventDefault();
  };

  const activeRow = rows[cursor];
  const height = Math.min(maxHeight, Math.max(rows.length, 1) * ROW_HEIGHT);

  return (
    // content-start: beside a taller side panel the ruler row must not stretch.
    <div className="grid min-w-0 content-start">
      <div className="grid grid-cols-[minmax(12rem,2fr)_minmax(0,3fr)] border-b bg-muted/40 text-xs text-muted-foreground">
        <div className="px-3 leading-6">
          Span{' '}
          <span className="tabular">
            (
            {rows.length === spans.length
              ? formatCount(spans.length)
              : `${formatCount(rows.length)} of ${formatCount(spans.length)}`}
            )
          </span>
        </div>
        <TimeRuler axis={axis} className="mr-16" />
      </div>
      {rows.length === 0 ? (
        <p className="px-3 py-6 text-center text-sm text-muted-foreground">
          {spans.length === 0 ? 'This trace has no spans.' : 'No span matches the search.'}
        </p>
      ) : (
        <div
          ref={scrollRef}
          role="tree"
          aria-label={label}
          tabIndex={0}
          aria-activedescendant={activeRow ? `${idPrefix}-${activeRow.node.span.spanId}` : undefined}
          onKeyDown={onKeyDown}
          className="relative overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
          style={{ height }}
          data-testid="waterfall-scroll"
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              const { node } = row;
              const selected = node.span.spanId === selectedSpanId;
              return (
                // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/useFocusableInteractive: the tree owns the keyboard (arrows, Enter) and focus through aria-activedescendant; rows are clicked, not tabbed to
                <div
                  key={node.span.spanId}
                  id={`${idPrefix}-${node.span.spanId}`}
                  role="treeitem"
                  aria-level={node.depth + 1}
                  aria-expanded={node.children.length > 0 ? row.expanded : undefined}
                  aria-selected={selected}
                  data-span-id={node.span.spanId}
                  data-row={item.index}
                  data-error={node.error ? '' : undefined}
                  onClick={() => {
                    setCursor(item.index);
                    onSelect(node.span.spanId);
                  }}
                  className={cn(
                    'absolute top-0 left-0 grid w-full cursor-pointer grid-cols-[minmax(12rem,2fr)_minmax(0,3fr)] border-b border-border/50 text-sm hover:bg-muted/60',
                    item.index === cursor && 'bg-muted/70',
                    selected && 'bg-accent-soft',
                    row.matched && !selected && 'bg-warning/10',
                  )}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                >
                  <div
                    className="flex min-w-0 items-center gap-1 pr-2"
                    style={{ paddingLeft: 4 + Math.min(node.depth, MAX_INDENT_LEVELS) * INDENT_PX }}
                  >
                    {node.children.length > 0 ? (
                      <button
                        type="button"
                        tabIndex={-1}
                        aria-label={row.expanded ? `Collapse ${node.span.name}` : `Expand ${node.span.name}`}
                        onClick={(event) => {
                          event.stopPropagation();
                          toggle(node);
                        }}
                        className="grid size-5 shrink-0 place-items-center rounded text-muted-foreground hover:bg-muted hover:text-foreground"
                      >
                        <ChevronRight
                          className={cn('size-3.5 transition-transform', row.expanded && 'rotate-90')}
                          aria-hidden
                        />
                      </button>
                    ) : (
                      <span className="size-5 shrink-0" />
                    )}
                    {node.error && <span className="size-1.5 shrink-0 rounded-full bg-danger" title="Error" />}
                    <span className={cn('truncate', node.error && 'text-danger')} title={node.span.name}>
                      <Highlight text={node.span.name} needle={search.trim()} />
                    </span>
                    {node.children.length > 0 && !row.expanded && (
                      <span className="shrink-0 text-xs text-muted-foreground tabular">+{node.children.length}</span>
                    )}
                  </div>
                  <div className="mr-16 min-w-0">
                    <TimelineBar
                      startMs={node.startMs}
                      endMs={node.endMs}
                      axis={axis}
                      error={node.error}
                      label={formatDuration(node.span.durationMs)}
                    />
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
