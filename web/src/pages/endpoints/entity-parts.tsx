/**
 * Pieces shared by home, endpoints and tasks: the Impact badge that explains itself, headline
 * tiles with their change against the previous range, the status-code breakdown and the calls
 * table.
 */
import { Link } from '@tanstack/react-router';
import { Tooltip } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { Skeleton } from '@/components/ui/card';
import { Pagination } from '@/components/ui/pagination';
import { linkStyles } from '@/components/ui/link';
import { EmptyState } from '@/components/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { formatCount, formatDuration, formatPercent, formatPreciseTime, formatRelative } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { CallSummary, EndpointItem } from './types';

const IMPACT_PARTS: Array<{ key: keyof EndpointItem['impactComponents']; label: string; weight: number }> = [
  { key: 'apdex', label: 'Apdex shortfall (1 − Apdex)', weight: 0.3 },
  { key: 'errorRate', label: 'Server error rate', weight: 0.25 },
  { key: 'volumeWeightedErrorRate', label: 'Errors × share of traffic', weight: 0.2 },
  { key: 'p99', label: 'P99 over the Apdex threshold', weight: 0.15 },
  { key: 'clientErrorRate', label: 'Client error rate', weight: 0.1 },
];

/** Impact is 0 (healthy) to 1: amber from 0.1, red from 0.25. */
export function impactTone(score: number): string {
  return score >= 0.25
    ? 'border-danger/40 bg-danger/10 text-danger'
    : score >= 0.1
      ? 'border-warning/50 bg-warning/15 text-foreground'
      : 'border-border bg-muted text-muted-foreground';
}

/** The Impact score; hovering or focusing it shows what it is made of. */
export function ImpactBadge({
  item,
}: {
  item: Pick<EndpointItem, 'impact' | 'reason'> & { impactComponents?: EndpointItem['impactComponents'] };
}) {
  return (
    <Tooltip.Provider delayDuration={150}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <button
            type="button"
            aria-label={`Impact ${item.impact.toFixed(2)}: ${item.reason}`}
            className={cn(
              'inline-flex h-5 min-w-11 items-center justify-center rounded border px-1.5 font-mono text-xs tabular outline-none focus-visible:ring-2 focus-visible:ring-ring',
              impactTone(item.impact),
            )}
          >
            {item.impact.toFixed(2)}
          </button>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            side="left"
            sideOffset={6}
            className="z-50 w-80 max-w-[calc(100vw-2rem)] rounded-md border bg-panel p-3 text-xs shadow-lg"
          >
            <p className="mb-2 font-medium">Impact {item.impact.toFixed(3)}</p>
            {item.impactComponents && (
              <table className="w-full">
                <tbody>
                  {IMPACT_PARTS.map((part) => (
                    <tr key={part.key}>
                      <td className="py-0.5 pr-2 text-muted-foreground">{part.label}</td>
                      <td className="py-0.5 text-right font-mono whitespace-nowrap tabular">
                        {part.weight} × {item.impactComponents![part.key].toFixed(2)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p className="mt-2 text-muted-foreground">{item.reason}</p>
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}

/** A duration cell of the list tables. */
/** An endpoint's or a task's name, linking to its detail page; cut to its column, the whole name on hover. */
export function EntityNameLink({ to, name }: { to: '/endpoints/detail' | '/tasks/detail'; name: string }) {
  return (
    <Link to={to} search={{ name }} className={cn(linkStyles.id, 'block truncate text-xs')} title={name}>
      {name}
    </Link>
  );
}

export function DurationCell({ ms }: { ms: number | null }) {
  return <span className="font-mono text-[13px]">{formatDuration(ms)}</span>;
}

/** Apdex 0–1: red under 0.7 (the usual "poor" band). */
export function ApdexValue({ value }: { value: number | null }) {
  if (value === null) return <span className="text-muted-foreground">—</span>;
  return <span className={cn(value < 0.7 && 'text-danger')}>{value.toFixed(2)}</span>;
}

export function ErrorRateValue({ value }: { value: number }) {
  return (
    <span className={cn(value >= 0.05 ? 'text-danger' : value > 0 ? '' : 'text-muted-foreground')}>
      {formatPercent(value)}
    </span>
  );
}

/**
 * A figure against the previous range's: the relative change, `null` when there was nothing to
 * compare with ("new"), `'gone'` when the range has none of what the previous one had.
 */
function changeAgainst(current: number | null, previous: number | null): number | null | 'gone' {
  if (current === null) return previous === null ? 0 : 'gone';
  if (previous === null) return null;
  if (previous === 0) return current === 0 ? 0 : null;
  return (current - previous) / previous;
}

/**
 * A headline figure and, when the previous range is known, its change; `worseWhenUp` colours a
 * rise (errors, latency) red and a fall green, and the reverse for nothing.
 */
export function FigureTile({
  label,
  value,
  current,
  previous,
  worseWhenUp,
  loading,
}: {
  label: string;
  value: ReactNode;
  current?: number | null;
  previous?: number | null;
  worseWhenUp?: boolean;
  loading?: boolean;
}) {
  let change: ReactNode = null;
  // `undefined` is "not compared" (or not loaded yet); `null` is a figure the range has none of (a
  // P95 without requests), which compares as well as a zero count does.
  if (current !== undefined && previous !== undefined) {
    const ratio = changeAgainst(current, previous);
    const tone =
      ratio === null || ratio === 'gone' || ratio === 0 || worseWhenUp === undefined
        ? 'text-muted-foreground'
        : ratio > 0 === worseWhenUp
          ? 'text-danger'
          : 'text-success';
    change = (
      <span className={cn('text-xs tabular', tone)} title="Against the previous range of the same length">
        {ratio === null
          ? 'new'
          : ratio === 'gone'
            ? 'none in this range'
            : ratio === 0
              ? 'no change'
              : `${ratio > 0 ? '▲' : '▼'} ${formatPercent(Math.abs(ratio))}`}
      </span>
    );
  }
  return (
    <div className="grid content-start gap-1 rounded-lg border bg-panel px-4 py-3" data-figure={label}>
      <span className="text-xs text-muted-foreground">{label}</span>
      {loading ? (
        <Skeleton className="h-7 w-20" />
      ) : (
        <span className="text-xl font-semibold tabular" data-figure-value>
          {value}
        </span>
      )}
      {!loading && change}
    </div>
  );
}

/** Calls per status code as one bar per code: 5xx red, 4xx amber, others neutral. */
export function StatusBreakdown({
  codes,
  total,
  noun,
}: {
  codes: ReadonlyArray<{ statusCode: number; count: number }>;
  total: number;
  noun: string;
}) {
  if (codes.length === 0) return <EmptyState title={`No ${noun}s in this range`} className="py-6" />;
  return (
    <ul className="grid gap-2 px-4 py-3" aria-label="Status codes">
      {codes.map((code) => {
        const share = total > 0 ? code.count / total : 0;
        const tone =
          code.statusCode >= 500 ? 'bg-danger' : code.statusCode >= 400 ? 'bg-warning' : 'bg-muted-foreground/50';
        return (
          <li
            key={code.statusCode}
            className="grid grid-cols-[3.5rem_1fr_5rem_4rem] items-center gap-3 text-sm"
            data-status-code={code.statusCode}
          >
            <span className="font-mono tabular">{statusLabel(code.statusCode)}</span>
            <span className="h-2 overflow-hidden rounded-full bg-muted">
              <span
                className={cn('block h-full rounded-full', tone)}
                style={{ width: `${Math.max(share * 100, 0.5)}%` }}
              />
            </span>
            <span className="text-right tabular">{formatCount(code.count)}</span>
            <span className="text-right text-muted-foreground tabular">{formatPercent(share)}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** Tasks report no HTTP status: 0 is a run that did not fail. */
export function statusLabel(code: number): string {
  return code === 0 ? 'ok' : String(code);
}

export function CallsTable({
  calls,
  paging,
  noun,
  emptyTitle,
}: {
  calls: readonly CallSummary[];
  /** The pager below the table, when there is more than one page. */
  paging?: ComponentProps<typeof Pagination> | undefined;
  noun: string;
  emptyTitle: string;
}) {
  return (
    <>
      {calls.length === 0 ? <EmptyState title={emptyTitle} /> : <CallRows calls={calls} noun={noun} />}
      {/* Also under an empty page past the end, to go back. */}
      {paging && <Pagination {...paging} />}
    </>
  );
}

function CallRows({ calls, noun }: { calls: readonly CallSummary[]; noun: string }) {
  return (
    <Table aria-label={`${noun}s`}>
      <THead>
        <tr>
          <TH>Time</TH>
          <TH>Trace</TH>
          <TH numeric>Duration</TH>
          <TH numeric>Status</TH>
          <TH>Server</TH>
        </tr>
      </THead>
      <TBody>
        {calls.map((call) => (
          <TR key={call.id}>
            <TD className="whitespace-nowrap tabular" title={formatPreciseTime(call.recordedAt)}>
              {formatRelative(call.recordedAt)}
            </TD>
            <TD>
              <Link to="/traces/$id" params={{ id: call.id }} className={cn(linkStyles.id, 'text-xs')}>
                {call.id}
              </Link>
            </TD>
            <TD numeric className="font-mono text-xs">
              {formatDuration(call.durationMs)}
            </TD>
            <TD numeric className={cn('font-mono text-xs', call.statusCode >= 500 && 'text-danger')}>
              {statusLabel(call.statusCode)}
            </TD>
            <TD className="max-w-48 truncate text-muted-foreground">{call.serverName || '—'}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
