/**
 * The dashboard's time-series chart, on uPlot (DASHBOARD.md §2: dense, fast). Lines, areas,
 * stacked areas and bars over bucket timestamps; a legend that toggles series and shows their
 * values at the cursor; a crosshair shared by every chart of a page with the same `syncKey`; and
 * drag-to-zoom that writes the selected window into the URL (`from`/`to`, dropping `range`), so
 * the time-range picker, the other charts and the tables follow it.
 *
 * Import it only from lazily loaded pages: uPlot and its CSS travel in those pages' chunks.
 */
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './chart-palette.css';
import { Skeleton } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/states';
import { formatCount, formatDateTime, formatDuration, formatPercent } from '@/lib/format';
import { useDisplayTimeZone } from '@/lib/use-display-time-zone';
import { cn } from '@/lib/utils';
import { durationIncrements, durationTickLabels, timeTickLabels } from './axes';

export type ChartKind = 'line' | 'area' | 'stacked' | 'bar';

/** A palette slot (1–8, 8 is "other"), or a colour that means something. */
export type ChartColor = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 'danger' | 'warning' | 'success' | 'muted';

export interface ChartSeries {
  name: string;
  /** One value per timestamp; null is a gap. */
  values: readonly (number | null)[];
  /** Defaults to the palette slot of the series' position. */
  color?: ChartColor;
  /**
   * Drawn dashed (lines only), with smaller dots: for a series that often equals the one before it
   * (P99 and P95 with a few calls per interval), which then shows through the gaps instead of
   * being hidden under it.
   */
  dashed?: boolean;
}

/** How the y axis and the legend write a value: milliseconds, counts or ratios (0.05 → 5 %). */
export type ValueFormat = 'duration' | 'count' | 'percent' | ((value: number) => string);

export interface TimeSeriesChartProps {
  /** Accessible name of the figure. */
  title: string;
  /** Bucket starts in epoch seconds (the read API's `bucketStarts` / `series.t`). */
  timestamps: readonly number[];
  series: readonly ChartSeries[];
  kind?: ChartKind;
  format?: ValueFormat;
  height?: number;
  /** Charts with the same key share the crosshair; one key per page. */
  syncKey?: string;
  /** Drag across the plot to set the URL's time range (on by default). */
  zoom?: boolean;
  loading?: boolean;
  /** What the empty state says when there is nothing to draw. */
  emptyTitle?: string;
  className?: string;
}

const SLOT_VARIABLES = [
  '--chart-1',
  '--chart-2',
  '--chart-3',
  '--chart-4',
  '--chart-5',
  '--chart-6',
  '--chart-7',
  '--chart-8',
] as const;

function colorVariable(color: ChartColor): string {
  return typeof color === 'number'
    ? SLOT_VARIABLES[color - 1]!
    : color === 'muted'
      ? '--muted-foreground'
      : `--${color}`;
}

/**
 * A CSS colour (any syntax the page uses: hex, oklch) as [r, g, b], by painting it: canvas fills
 * need an alpha variant for areas, and not every canvas understands every CSS colour syntax.
 */
function toRgb(css: string, probe: CanvasRenderingContext2D): [number, number, number] {
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = '#000';
  probe.fillStyle = css;
  probe.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0] = probe.getImageData(0, 0, 1, 1).data;
  return [r, g, b];
}

interface Theme {
  axis: string;
  grid: string;
  colorOf(color: ChartColor, alpha?: number): string;
}

/** Reads the theme's colours now (CSS variables on <html>, swapped whole by the dark class). */
function readTheme(): Theme {
  const style = getComputedStyle(document.documentElement);
  const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  const rgbOf = (variable: string): [number, number, number] =>
    probe ? toRgb(style.getPropertyValue(variable).trim() || '#888', probe) : [136, 136, 136];
  const rgba = ([r, g, b]: [number, number, number], alpha = 1) => `rgba(${r}, ${g}, ${b}, ${alpha})`;
  return {
    axis: rgba(rgbOf('--muted-foreground')),
    grid: rgba(rgbOf('--border')),
    colorOf: (color, alpha) => rgba(rgbOf(colorVariable(color)), alpha),
  };
}

/** True while <html> carries the dark class; re-renders subscribers when the theme switches. */
function useDarkClass(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const observer = new MutationObserver(changed);
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
      return () => observer.disconnect();
    },
    () => document.documentElement.classList.contains('dark'),
  );
}

/** Y-axis steps of a count chart: 1, 2, 5, 10, 20, 50, … */
const COUNT_INCREMENTS = Array.from({ length: 15 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();

export function formatterOf(format: ValueFormat): (value: number) => string {
  if (typeof format === 'function') return format;
  if (format === 'duration') return formatDuration;
  if (format === 'percent') return formatPercent;
  return (value) => formatCount(value, true);
}

/** Indices of values whose neighbours are both gaps (or the edge). */
function isolatedPoints(values: ArrayLike<number | null | undefined>): number[] {
  const present = (index: number) =>
    index >= 0 && index < values.length && values[index] !== null && values[index] !== undefined;
  const out: number[] = [];
  for (let index = 0; index < values.length; index++)
    if (present(index) && !present(index - 1) && !present(index + 1)) out.push(index);
  return out;
}

export function TimeSeriesChart({
  title,
  timestamps,
  series,
  kind = 'line',
  format = 'count',
  height = 200,
  syncKey = 'page',
  zoom = true,
  loading = false,
  emptyTitle = 'No data in this time range',
  className,
}: TimeSeriesChartProps) {
  const navigate = useNavigate();
  const dark = useDarkClass();
  const plotRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [cursorIndex, setCursorIndex] = useState<number | null>(null);
  const formatValue = useMemo(() => formatterOf(format), [format]);
  // The organization's time zone: the x axis's ticks fall on its hours and days, and read in it.
  const zone = useDisplayTimeZone();

  const empty =
    timestamps.length === 0 || series.length === 0 || series.every((s) => s.values.every((v) => v === null));

  // Stacked areas draw running sums; the legend still reports each series' own value.
  const drawn = useMemo(() => {
    if (kind !== 'stacked') return series.map((s) => s.values);
    const sums = timestamps.map(() => 0);
    return series.map((s) => {
      if (hidden.has(s.name)) return s.values;
      return timestamps.map((_, index) => (sums[index] = (sums[index] ?? 0) + (s.values[index] ?? 0)));
    });
  }, [kind, series, timestamps, hidden]);

  const zoomTo = useCallback(
    (fromSeconds: number, toSeconds: number) => {
      void navigate({
        to: '.',
        search: (prev) => ({
          ...prev,
          range: undefined,
          from: new Date(fromSeconds * 1000).toISOString(),
          to: new Date(toSeconds * 1000).toISOString(),
        }),
      });
    },
    [navigate],
  );
  const zoomRef = useRef(zoomTo);
  zoomRef.current = zoomTo;

  // One uPlot per shape of the chart (kind, series, theme, hidden set); data changes alone reuse it.
  const seriesShape = series.map((s) => `${s.name}:${s.color ?? ''}:${s.dashed ? 'dashed' : ''}`).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: one uPlot per shape (seriesShape, theme, hidden set); data changes are pushed with setData below
  useEffect(() => {
    const element = plotRef.current;
    if (!element || empty) return;
    const theme = readTheme();
    const visible = series.map((s) => !hidden.has(s.name));
    const font = '11px ui-sans-serif, system-ui, sans-serif';
    const axis = {
      stroke: theme.axis,
      font,
      grid: { stroke: theme.grid, width: 1 },
      ticks: { stroke: theme.grid, width: 1, size: 4 },
    };
    const bars = kind === 'bar' ? uPlot.paths.bars?.({ size: [0.7, 24], gap: 1 }) : undefined;
    const options: uPlot.Options = {
      width: element.clientWidth || 600,
      height,
      legend: { show: false },
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), zone),
      // Room on the right for half of a time label: the last tick often falls on the plot's right
      // edge, and uPlot centres its label there ("4:00pm" is cut in half with 8 px).
      padding: [8, 28, 0, 0],
      cursor: {
        sync: { key: syncKey, setSeries: false },
        drag: { x: zoom, y: false, setScale: false },
        points: { size: 6 },
        focus: { prox: -1 },
      },
      select: { show: zoom, left: 0, top: 0, width: 0, height: 0 },
      scales: {
        // Half a bucket of room on either side: a value in the first or last bucket (a task that
        // first ran minutes ago) is otherwise drawn on the plot's edge, its dot cut in half.
        x: {
          time: true,
          range: (u, min, max) => {
            const xs = u.data[0];
            const step = xs && xs.length > 1 ? xs[1]! - xs[0]! : 60;
            return [min - step / 2, max + step / 2];
          },
        },
        y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.08 : 1] },
      },
      axes: [
        {
          ...axis,
          space: 80,
          values: (_u, ticks, _axis, _space, step) => timeTickLabels(ticks, step, zone),
        },
        {
          ...axis,
          size: 56,
          values: (_u, values) => values.map((v) => formatValue(v)),
          // Counts are whole: a step of 0.5 would print 0, 1, 1, 2 on a small or all-zero range.
          ...(format === 'count' ? { incrs: COUNT_INCREMENTS } : {}),
          // Durations: round steps of one unit chosen from the axis's range, every tick in it.
          ...(format === 'duration'
            ? {
                incrs: (_u: uPlot, _axis: number, min: number, max: number) => durationIncrements(min, max),
                values: (u: uPlot, ticks: number[]) =>
                  durationTickLabels(ticks, u.scales.y?.min ?? 0, u.scales.y?.max ?? 0),
              }
            : {}),
        },
      ],
      series: [
        {},
        ...series.map((s, index): uPlot.Series => {
          const color = s.color ?? (((index % 7) + 1) as ChartColor);
          const filled = kind === 'area' || kind === 'stacked' || kind === 'bar';
          return {
            label: s.name,
            show: visible[index],
            stroke: theme.colorOf(color),
            width: kind === 'bar' ? 0 : 1.5,
            dash: s.dashed && kind === 'line' ? [6, 4] : undefined,
            fill: filled ? theme.colorOf(color, kind === 'bar' ? 0.85 : kind === 'stacked' ? 0.55 : 0.16) : undefined,
            paths: bars,
            // A value between two gaps draws no line: mark it with a dot, or sparse series look empty.
            points:
              kind === 'bar'
                ? { show: false }
                : {
                    show: true,
                    size: s.dashed ? 3 : 5,
                    space: 0,
                    filter: (u, seriesIndex) => isolatedPoints(u.data[seriesIndex] ?? []),
                  },
            spanGaps: false,
          };
        }),
      ],
      // Each stacked layer fills down to the visible layer under it, not to zero.
      bands:
        kind === 'stacked'
          ? series.flatMap((_, index) => {
              const below = series.slice(0, index).findLastIndex((s) => !hidden.has(s.name));
              return index > 0 && below >= 0 && visible[index]
                ? [{ series: [index + 1, below + 1] as [number, number] }]
                : [];
            })
          : undefined,
      hooks: {
        setCursor: [(u) => setCursorIndex(u.cursor.idx ?? null)],
        setSelect: [
          (u) => {
            if (u.select.width < 4) return;
            const from = u.posToVal(u.select.left, 'x');
            const to = u.posToVal(u.select.left + u.select.width, 'x');
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            if (to > from) zoomRef.current(Math.floor(from), Math.ceil(to));
          },
        ],
      },
    };
    const chart = new uPlot(options, [[...timestamps], ...drawn.map((values) => [...values])], element);
    chartRef.current = chart;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth > 0) chart.setSize({ width: element.clientWidth, height });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
    // Rebuilt on shape changes only; the data effect below feeds new values into the same chart.
  }, [seriesShape, kind, height, syncKey, zoom, dark, hidden, empty, formatValue, zone]);

  useEffect(() => {
    chartRef.current?.setData([[...timestamps], ...drawn.map((values) => [...values])]);
  }, [timestamps, drawn]);

  if (loading) {
    return (
      <div className={cn('grid gap-2', className)} role="status" aria-busy="true" aria-label={`Loading ${title}`}>
        <Skeleton style={{ height }} />
        <Skeleton className="h-4 w-48" />
      </div>
    );
  }
  if (empty) {
    return (
      <div
        className={cn('grid place-items-center rounded-md border border-dashed', className)}
        style={{ height: height + 24 }}
      >
        <EmptyState title={emptyTitle} className="py-4" />
      </div>
    );
  }

  const at = cursorIndex !== null ? timestamps[cursorIndex] : undefined;
  return (
    <figure className={cn('sl-chart grid gap-1.5', className)} aria-label={title}>
      <div
        ref={plotRef}
        className="w-full min-w-0"
        style={{ height }}
        title={zoom ? 'Drag to zoom into a time range' : undefined}
      />
      <figcaption className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <span className="min-w-28 text-muted-foreground tabular">
          {at !== undefined ? formatDateTime(at * 1000) : ''}
        </span>
        {series.map((s, index) => {
          const off = hidden.has(s.name);
          const value = cursorIndex !== null ? s.values[cursorIndex] : undefined;
          const swatch = `var(${colorVariable(s.color ?? (((index % 7) + 1) as ChartColor))})`;
          return (
            <button
              key={s.name}
              type="button"
              aria-pressed={!off}
              title={off ? `Show ${s.name}` : `Hide ${s.name}`}
              onClick={() =>
                setHidden((previous) => {
                  const next = new Set(previous);
                  if (next.has(s.name)) next.delete(s.name);
                  else next.add(s.name);
                  return next;
                })
              }
              className={cn(
                'inline-flex max-w-64 items-center gap-1.5 rounded-sm px-1 py-0.5 outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring',
                off && 'opacity-45',
              )}
            >
              {s.dashed && kind === 'line' ? (
                // The line's own dash, drawn: a CSS dashed border this short renders as one solid bar.
                <svg aria-hidden data-swatch="dashed" width="16" height="10" className="shrink-0">
                  <line x1="0" y1="5" x2="16" y2="5" stroke={swatch} strokeWidth="2" strokeDasharray="4 2" />
                </svg>
              ) : (
                <span aria-hidden className="size-2.5 shrink-0 rounded-[3px]" style={{ background: swatch }} />
              )}
              <span className={cn('truncate', off && 'line-through')}>{s.name}</span>
              {value !== undefined && (
                <span className="font-mono text-muted-foreground tabular">
                  {value === null ? '—' : formatValue(value)}
                </span>
              )}
            </button>
          );
        })}
      </figcaption>
    </figure>
  );
}
