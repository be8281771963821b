/** The side panel of a selected span: where it sits in the trace, its attributes and its events. */
import { EyeOff, X } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '@/components/ui/button';
import { formatDuration, formatPreciseTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { AttributeTable } from './attribute-table';
import type { Span } from './types';
import { instantMs, spanIsError } from './waterfall-tree';

/** The search that leaves the selected span out of the waterfall, and how to clear it. */
export interface HiddenBySearch {
  search: string;
  onClear: () => void;
}

export function SpanDetails({
  span,
  axisStartMs,
  onClose,
  hiddenBy,
}: {
  span: Span;
  axisStartMs: number;
  onClose: () => void;
  /** Set while the span search filters this (still selected) span out of the waterfall. */
  hiddenBy?: HiddenBySearch | undefined;
}) {
  const error = spanIsError(span);
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <aside
      aria-label="Span details"
      className="grid content-start gap-3 border-l py-3 max-xl:border-t max-xl:border-l-0"
      data-testid="span-details"
    >
      <div className="flex items-start justify-between gap-2 px-4">
        <div className="grid min-w-0 gap-0.5">
          <h3
            ref={heading}
            tabIndex={-1}
            className={cn('text-sm font-semibold break-words outline-none', error && 'text-danger')}
          >
            {span.name}
          </h3>
          <span className="font-mono text-xs text-muted-foreground">{span.spanId}</span>
        </div>
        <Button variant="ghost" size="icon" onClick={onClose} aria-label="Close span details">
          <X aria-hidden />
        </Button>
      </div>
      {hiddenBy && (
        <div
          role="status"
          className="mx-4 flex items-start gap-2 rounded-md border bg-muted/60 px-3 py-2 text-xs"
          data-testid="span-hidden-by-search"
        >
          <EyeOff className="mt-px size-3.5 shrink-0 text-muted-foreground" aria-hidden />
          <div className="grid min-w-0 justify-items-start gap-2">
            <p className="leading-4">
              Hidden by the search <q className="font-medium break-all text-foreground">{hiddenBy.search.trim()}</q>:
              neither this span nor any span under it matches.
            </p>
            <Button
              size="sm"
              onClick={() => {
                hiddenBy.onClear();
                // The notice goes away with its button: keep the focus in the panel.
                heading.current?.focus();
              }}
            >
              Clear search
            </Button>
          </div>
        </div>
      )}
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 px-4 text-sm">
        <dt className="text-muted-foreground">Duration</dt>
        <dd className="font-mono text-xs leading-5" data-testid="span-duration">
          {formatDuration(span.durationMs)}
        </dd>
        <dt className="text-muted-foreground">Starts at</dt>
        <dd className="font-mono text-xs leading-5">+{formatDuration(instantMs(span.startTime) - axisStartMs)}</dd>
        <dt className="text-muted-foreground">Time</dt>
        <dd className="text-xs leading-5 tabular">{formatPreciseTime(span.startTime)}</dd>
        <dt className="text-muted-foreground">Kind</dt>
        <dd className="text-xs leading-5">{span.kind || '—'}</dd>
        <dt className="text-muted-foreground">Status</dt>
        <dd className={cn('text-xs leading-5 tabular', error && 'font-medium text-danger')}>
          {span.statusCode === 0 ? 'unset' : span.statusCode}
        </dd>
        <dt className="text-muted-foreground">Parent</dt>
        {/* A monospace "—" reads as "–": the placeholder in the text face, as elsewhere. */}
        <dd className={cn('text-xs leading-5 break-all', span.parentSpanId && 'font-mono')}>
          {span.parentSpanId ?? '—'}
        </dd>
      </dl>
      <section className="grid gap-1">
        <h4 className="px-4 text-xs font-medium text-muted-foreground">Attributes</h4>
        <AttributeTable attributes={span.attributes} label="Span attributes" />
      </section>
      <section className="grid gap-1">
        <h4 className="px-4 text-xs font-medium text-muted-foreground">Events</h4>
        {span.events.length === 0 ? (
          <p className="px-4 text-xs text-muted-foreground">No events.</p>
        ) : (
          <ol className="grid gap-2">
            {span.events.map((event, index) => (
              <li key={index} className="grid gap-1">
                <div className="flex items-baseline justify-between gap-2 px-4 text-xs">
                  <span className={cn('font-medium', event.name === 'exception' && 'text-danger')}>{event.name}</span>
                  <span className="font-mono text-muted-foreground">
                    +{formatDuration(instantMs(event.time) - instantMs(span.startTime))}
                  </span>
                </div>
                <AttributeTable attributes={event.attributes} label={`Attributes of event ${event.name}`} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </aside>
  );
}
