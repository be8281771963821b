/**
 * An expanded log row: the whole body (long ones folded), when it happened and was observed, its
 * trace and span, and every attribute and resource attribute, each with the chip buttons that
 * filter the list by it.
 */
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { linkStyles } from '@/components/ui/link';
import { formatPreciseTime } from '@/lib/format';
import { traceUuid } from '@/lib/ids';
import { cn } from '@/lib/utils';
import { CHIP_OPS } from './search';
import type { LogFilter, LogRecord } from './types';

/** Bodies longer than this (or with more lines) are folded until "Show more". */
const FOLD_CHARS = 1_200;
const FOLD_LINES = 16;

export function LogDetail({
  row,
  onFilter,
  onTrace,
}: {
  row: LogRecord;
  onFilter: (chip: LogFilter) => void;
  onTrace: (traceId: string) => void;
}) {
  return (
    <div className="grid gap-3 pt-1">
      <FoldedText text={row.body} />
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs">
        <dt className="text-muted-foreground">Timestamp</dt>
        <dd className="font-mono tabular">
          {formatPreciseTime(row.timestamp)} <span className="text-muted-foreground">{row.timestamp}</span>
        </dd>
        <dt className="text-muted-foreground">Observed</dt>
        <dd className="font-mono tabular">{formatPreciseTime(row.observedTimestamp)}</dd>
        <dt className="text-muted-foreground">Severity</dt>
        <dd className="font-mono">
          {row.severityText || '—'} ({row.severityNumber})
        </dd>
        {row.traceId && (
          <>
            <dt className="text-muted-foreground">Trace</dt>
            <dd className="flex flex-wrap items-center gap-x-3">
              <Link to="/traces/$id" params={{ id: traceUuid(row.traceId) }} className={linkStyles.id}>
                {row.traceId}
              </Link>
              <button type="button" className="text-accent hover:underline" onClick={() => onTrace(row.traceId!)}>
                Only this trace's logs
              </button>
            </dd>
          </>
        )}
        {row.spanId && (
          <>
            <dt className="text-muted-foreground">Span</dt>
            <dd className="font-mono">{row.spanId}</dd>
          </>
        )}
      </dl>
      <div className="grid gap-3 lg:grid-cols-2">
        <AttributeTable title="Attributes" prefix="attributes" values={row.attributes} onFilter={onFilter} />
        <AttributeTable
          title="Resource attributes"
          prefix="resource"
          values={row.resourceAttributes}
          onFilter={onFilter}
        />
      </div>
    </div>
  );
}

export function FoldedText({ text, className }: { text: string; className?: string }) {
  const lines = text.split('\n');
  const long = text.length > FOLD_CHARS || lines.length > FOLD_LINES;
  const [unfolded, setUnfolded] = useState(false);
  const shown = !long || unfolded ? text : lines.slice(0, FOLD_LINES).join('\n').slice(0, FOLD_CHARS);
  return (
    <div className={className}>
      <pre className="rounded-md border bg-panel px-3 py-2 font-mono text-xs leading-5 break-words whitespace-pre-wrap">
        {shown}
        {long && !unfolded && <span className="text-muted-foreground">…</span>}
      </pre>
      {long && (
        <Button variant="ghost" size="sm" className="mt-1 text-accent" onClick={() => setUnfolded(!unfolded)}>
          {unfolded ? 'Show less' : `Show more (${text.length.toLocaleString()} characters)`}
        </Button>
      )}
    </div>
  );
}

function AttributeTable({
  title,
  prefix,
  values,
  onFilter,
}: {
  title: string;
  prefix: 'attributes' | 'resource';
  values: Record<string, string>;
  onFilter: (chip: LogFilter) => void;
}) {
  const entries = Object.entries(values).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section aria-label={title} className="min-w-0">
      <h3 className="mb-1 text-xs font-medium text-muted-foreground">
        {title} <span className="tabular">({entries.length})</span>
      </h3>
      {entries.length === 0 ? (
        <p className="text-xs text-muted-foreground">None.</p>
      ) : (
        <table className="w-full table-fixed border-collapse rounded-md border bg-panel text-xs">
          <tbody>
            {entries.map(([key, value]) => (
              <AttributeRow key={key} name={key} value={value} className="px-2" nameWidth="w-2/5">
                <td className="w-20 px-1 py-0.5 text-right whitespace-nowrap">
                  {CHIP_OPS.map((chip) => (
                    <button
                      key={chip.op}
                      type="button"
                      onClick={() => onFilter({ field: `${prefix}.${key}`, op: chip.op, value })}
                      aria-label={`Filter: ${key} ${chip.label} ${value}`}
                      title={`${key} ${chip.label} this value`}
                      className="size-5 rounded-sm font-mono text-muted-foreground opacity-60 outline-none group-hover:opacity-100 hover:bg-muted hover:text-foreground focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      {chip.symbol}
                    </button>
                  ))}
                </td>
              </AttributeRow>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** One `key  value` row of an attribute table (monospace; long values wrap), with optional action cells. */
export function AttributeRow({
  name,
  value,
  className,
  nameWidth,
  children,
}: {
  name: string;
  value: string;
  className: string;
  nameWidth: string;
  children?: ReactNode;
}) {
  return (
    <tr className="group border-b last:border-b-0">
      <th
        scope="row"
        className={cn('truncate py-1 text-left font-mono font-normal text-muted-foreground', nameWidth, className)}
        title={name}
      >
        {name}
      </th>
      <td className={cn('py-1 font-mono break-all', className)}>
        {value.length > 2_000 ? `${value.slice(0, 2_000)}…` : value}
      </td>
      {children}
    </tr>
  );
}
