/**
 * /distributed-traces/:id: every entity of a distributed trace, across services and projects, on
 * one time axis; each row opens to its span waterfall on the same axis (open rows, the selected
 * span and the span search are in the URL).
 */
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ChevronRight } from 'lucide-react';
import { useMemo } from 'react';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { ErrorState, TableSkeleton } from '@/components/ui/states';
import { NotFoundState } from '@/components/ui/problem-states';
import { ApiError } from '@/lib/api';
import { api, read } from '@/lib/api';
import { formatCount, formatDuration, formatPreciseTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { StatusBadge } from '../traces/entity';
import { SpanDetails } from '../traces/span-details';
import type { DistributedEntity, DistributedTrace } from '../traces/types';
import { SpanSearch, TimeRuler, TimelineBar, Waterfall, type WaterfallAxis } from '../traces/waterfall';
import { hiddenBySearch, instantMs } from '../traces/waterfall-tree';

const route = getRouteApi('/app/distributed-traces/$id');

function axisOf(trace: DistributedTrace): WaterfallAxis {
  let startMs = Infinity;
  let endMs = -Infinity;
  for (const entity of trace.entities) {
    const start = instantMs(entity.recordedAt);
    if (Number.isFinite(start)) {
      startMs = Math.min(startMs, start);
      endMs = Math.max(endMs, start + entity.durationMs);
    }
    for (const span of entity.spans) {
      const spanStart = instantMs(span.startTime);
      if (!Number.isFinite(spanStart)) continue;
      startMs = Math.min(startMs, spanStart);
      endMs = Math.max(endMs, spanStart + span.durationMs);
    }
  }
  return Number.isFinite(startMs) ? { startMs, endMs: Math.max(endMs, startMs + 0.001) } : { startMs: 0, endMs: 1 };
}

const KIND_LABEL: Record<DistributedEntity['kind'], string> = { endpoint: 'Endpoint', task: 'Task', ai: 'AI' };

export function DistributedTracePage() {
  const { id } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();

  const trace = useQuery({
    queryKey: ['distributed-trace', id],
    queryFn: () => read<DistributedTrace>(api.GET('/api/distributed-traces/{id}', { params: { path: { id } } })),
  });
  const axis = useMemo(() => (trace.data ? axisOf(trace.data) : undefined), [trace.data]);
  const open = new Set(search.open ?? []);
  const toggle = (entityId: string) =>
    void navigate({
      search: (prev) => {
        const next = new Set(prev.open ?? []);
        if (next.has(entityId)) next.delete(entityId);
        else next.add(entityId);
        return { ...prev, open: next.size > 0 ? [...next] : undefined };
      },
      replace: true,
      resetScroll: false,
    });
  const selectSpan = (span: string | undefined) =>
    void navigate({ search: (prev) => ({ ...prev, span }), replace: true, resetScroll: false });
  const selectedEntity = trace.data?.entities.find((entity) =>
    entity.spans.some((span) => span.spanId === search.span),
  );
  const selectedSpan = selectedEntity?.spans.find((span) => span.spanId === search.span);
  const selectionHidden = useMemo(
    () => (selectedEntity && search.span ? hiddenBySearch(selectedEntity.spans, search.span, search.q ?? '') : false),
    [selectedEntity, search.span, search.q],
  );
  const setSearch = (q: string) =>
    void navigate({ search: (prev) => ({ ...prev, q: q || undefined }), replace: true, resetScroll: false });
  const services = new Set(trace.data?.entities.map((entity) => entity.serverName || entity.projectId));

  if (trace.error instanceof ApiError && trace.error.status === 404)
    return <NotFoundState kind="distributedTrace" id={id} />;
  if (trace.isError) {
    return (
      <div className="grid gap-4 px-6 py-5">
        <ErrorState error={trace.error} />
      </div>
    );
  }

  return (
    <div className="grid gap-4 px-6 py-5">
      <header className="grid gap-1">
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <span>Distributed trace</span>
          <span aria-hidden>·</span>
          <span className="font-mono">{id}</span>
        </div>
        {trace.data ? (
          <div className="flex flex-wrap items-baseline gap-x-5 gap-y-1 text-sm text-muted-foreground">
            <h1 className="text-lg font-semibold tracking-tight text-foreground">
              {trace.data.entities[0]?.name ?? id}
            </h1>
            <span>
              <span className="font-medium text-foreground tabular" data-testid="entity-count">
                {formatCount(trace.data.entities.length)}
              </span>{' '}
              {trace.data.entities.length === 1 ? 'entity' : 'entities'} in {formatCount(services.size)}{' '}
              {services.size === 1 ? 'service' : 'services'}
            </span>
            <span>
              <span className="font-mono text-foreground" data-testid="distributed-duration">
                {formatDuration(trace.data.durationMs)}
              </span>{' '}
              from {formatPreciseTime(trace.data.startedAt)}
            </span>
          </div>
        ) : (
          <Skeleton className="h-6 w-96" />
        )}
      </header>

      <Card>
        <CardHeader
          title="Timeline"
          description="Each row is one endpoint call, task run or AI call; open it to see its spans on the same axis."
          actions={<SpanSearch value={search.q ?? ''} onChange={setSearch} />}
        />
        {trace.data && axis ? (
          <div className={cn('grid', selectedSpan && 'xl:grid-cols-[minmax(0,1fr)_24rem]')}>
            <div className="grid min-w-0 content-start">
              <div className="grid grid-cols-[minmax(12rem,2fr)_minmax(0,3fr)] border-b bg-muted/40 text-xs text-muted-foreground">
                <div className="px-3 leading-6">Entity</div>
                <TimeRuler axis={axis} className="mr-16" />
              </div>
              <ul aria-label="Entities">
                {trace.data.entities.map((entity) => {
                  const expanded = open.has(entity.id);
                  const start = instantMs(entity.recordedAt);
                  return (
                    <li
                      key={`${entity.projectId}-${entity.id}`}
                      className="border-b last:border-b-0"
                      data-entity-id={entity.id}
                    >
                      <div className="grid h-9 grid-cols-[minmax(12rem,2fr)_minmax(0,3fr)] items-center text-sm hover:bg-muted/60">
                        <div className={cn('flex min-w-0 items-center gap-1.5 pr-2', entity.isRoot ? 'pl-1' : 'pl-5')}>
                          <button
                            type="button"
                            onClick={() => toggle(entity.id)}
                            aria-expanded={expanded}
                            aria-label={`${expanded ? 'Hide' : 'Show'} the ${entity.spans.length} spans of ${entity.name}`}
                            className="grid size-6 shrink-0 place-items-center rounded text-muted-foreground outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
                          >
                            <ChevronRight
                              className={cn('size-4 transition-transform', expanded && 'rotate-90')}
                              aria-hidden
                            />
                          </button>
                          <span className="shrink-0 rounded bg-muted px-1 text-[11px] text-muted-foreground">
                            {KIND_LABEL[entity.kind]}
                          </span>
                          <Link
                            to="/traces/$id"
                            params={{ id: entity.id }}
                            search={{ projectId: entity.projectId }}
                            className={cn(
                              'truncate font-medium hover:underline',
                              entity.statusCode >= 500 && 'text-danger',
                            )}
                            title={`${entity.name} — open this trace`}
                          >
                            {entity.name}
                          </Link>
                          <span className="shrink-0 truncate text-xs text-muted-foreground">{entity.serverName}</span>
                          <StatusBadge kind={entity.kind} statusCode={entity.statusCode} />
                        </div>
                        <div className="mr-16 h-full min-w-0">
                          <TimelineBar
                            startMs={Number.isFinite(start) ? start : axis.startMs}
                            endMs={(Number.isFinite(start) ? start : axis.startMs) + entity.durationMs}
                            axis={axis}
                            error={entity.statusCode >= 500}
                            label={formatDuration(entity.durationMs)}
                          />
                        </div>
                      </div>
                      {expanded && (
                        <div className="border-t bg-muted/20">
                          <Waterfall
                            spans={entity.spans}
                            axis={axis}
                            selectedSpanId={search.span}
                            onSelect={selectSpan}
                            search={search.q ?? ''}
                            label={`Spans of ${entity.name}`}
                            maxHeight={360}
                          />
                        </div>
                      )}
                    </li>
                  );
                })}
              </ul>
            </div>
            {selectedSpan && (
              <SpanDetails
                span={selectedSpan}
                axisStartMs={axis.startMs}
                onClose={() => selectSpan(undefined)}
                hiddenBy={selectionHidden ? { search: search.q ?? '', onClear: () => setSearch('') } : undefined}
              />
            )}
          </div>
        ) : (
          <TableSkeleton rows={4} columns={2} />
        )}
      </Card>
    </div>
  );
}
