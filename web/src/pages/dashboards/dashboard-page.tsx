/**
 * /dashboards/:id: the widgets of a saved dashboard on a 12-column grid (react-grid-layout). The
 * page's time range applies to every widget and their charts share one crosshair. Members with
 * the write role move and resize widgets (saved when the gesture ends), add, edit, star and
 * delete them; everyone can export the dashboard as JSON.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { Download, GripVertical, MoreHorizontal, Pencil, Plus, Star, Trash2 } from 'lucide-react';
import { useState } from 'react';
import ReactGridLayout, { useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import './grid.css';
import { toast } from '@/components/shell/toasts';
import { Button } from '@/components/ui/button';
import { Card, Skeleton } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Menu, MenuContent, MenuItem, MenuTrigger } from '@/components/ui/menu';
import { EmptyState, ErrorState } from '@/components/ui/states';
import { NotFoundState } from '@/components/ui/problem-states';
import { ApiError } from '@/lib/api';
import { useCurrentProject } from '@/lib/current-project';
import { formatDateTime } from '@/lib/format';
import { useTelemetryScope, type TelemetryScope } from '@/lib/telemetry';
import { cn } from '@/lib/utils';
import { PageHeader } from '../page-header';
import { canWrite, dashboardKey, dashboardQuery, dashboardsKey, keepScope, updateDashboard } from './api';
import { GRID_COLUMNS, newWidget, parseDefinition } from './definition';
import { DeleteDashboardDialog, RenameDashboardDialog, downloadDashboard } from './manage';
import type { DashboardDefinition, SavedDashboard, Widget } from './types';
import { WidgetDialog, type WidgetDraft } from './widget-dialog';
import { WidgetBody } from './widget-view';

const route = getRouteApi('/app/dashboards/$id');

export const ROW_HEIGHT = 40;
const MARGIN = 12;
/** Title bar and padding of a widget card, in pixels. */
const CHROME = 36 + 16 + 2;

/** The pixel height a widget's body has at `h` grid rows. */
export const bodyHeight = (h: number) => h * ROW_HEIGHT + (h - 1) * MARGIN - CHROME;

type Open =
  | { kind: 'add' }
  | { kind: 'edit'; widget: Widget }
  | { kind: 'remove'; widget: Widget }
  | { kind: 'rename' }
  | { kind: 'delete' }
  | null;

const widgetCount = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'widget' : 'widgets'}`;

export function DashboardPage() {
  const { id } = route.useParams();
  const scope = useTelemetryScope();
  const { project } = useCurrentProject();
  if (!scope || !project) return null;
  return <DashboardView key={`${project.id}/${id}`} id={id} scope={scope} writable={canWrite(project.role)} />;
}

function DashboardView({ id, scope, writable }: { id: string; scope: TelemetryScope; writable: boolean }) {
  const { projectId } = scope;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const dashboard = useQuery(dashboardQuery(projectId, id));
  const [open, setOpen] = useState<Open>(null);
  const parsed = dashboard.data ? parseDefinition(dashboard.data.definition) : undefined;
  const definition = parsed?.definition;

  const save = useMutation({
    mutationFn: (next: DashboardDefinition) => updateDashboard(projectId, id, { definition: next }),
    // Shown at once (a moved widget stays where it was dropped); the server's answer replaces it.
    onMutate: (next) => {
      const before = queryClient.getQueryData<SavedDashboard>(dashboardKey(projectId, id));
      if (before)
        queryClient.setQueryData<SavedDashboard>(dashboardKey(projectId, id), { ...before, definition: { ...next } });
      return { before };
    },
    onError: (error, _next, context) => {
      if (context?.before) queryClient.setQueryData(dashboardKey(projectId, id), context.before);
      toast.error(`Not saved: ${error.message}`);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(dashboardKey(projectId, id), saved);
      void queryClient.invalidateQueries({ queryKey: dashboardsKey(projectId), exact: true });
    },
  });
  const change = (widgets: Widget[]) => definition && save.mutate({ ...definition, widgets });

  if (dashboard.error instanceof ApiError && dashboard.error.status === 404)
    return <NotFoundState kind="dashboard" id={id} />;
  if (dashboard.error) {
    return (
      <div className="grid gap-4 px-6 py-5">
        <PageHeader title="Dashboard" />
        <ErrorState error={dashboard.error} />
        <Link to="/dashboards" search={keepScope} className="text-sm text-accent underline-offset-2 hover:underline">
          All dashboards
        </Link>
      </div>
    );
  }
  if (!dashboard.data) return <DashboardSkeleton />;
  const saved = dashboard.data;

  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title={saved.name}
        description={
          <>
            <Link
              to="/dashboards"
              search={keepScope}
              className="underline-offset-2 hover:text-foreground hover:underline"
            >
              Dashboards
            </Link>
            {` · ${widgetCount(definition?.widgets.length ?? 0)} · updated ${formatDateTime(saved.updatedAt)}`}
            {save.isPending && ' · saving…'}
          </>
        }
        actions={
          <div className="flex gap-2">
            <Button onClick={() => downloadDashboard(saved)}>
              <Download aria-hidden />
              Export JSON
            </Button>
            {writable && definition && (
              <Button variant="primary" onClick={() => setOpen({ kind: 'add' })}>
                <Plus aria-hidden />
                Add widget
              </Button>
            )}
            {writable && (
              <Menu>
                <MenuTrigger asChild>
                  <Button size="icon" aria-label="Dashboard actions">
                    <MoreHorizontal aria-hidden />
                  </Button>
                </MenuTrigger>
                <MenuContent align="end">
                  <MenuItem onSelect={() => setOpen({ kind: 'rename' })}>Rename…</MenuItem>
                  <MenuItem className="text-danger" onSelect={() => setOpen({ kind: 'delete' })}>
                    Delete…
                  </MenuItem>
                </MenuContent>
              </Menu>
            )}
          </div>
        }
      />

      {!definition ? (
        <ErrorState
          error={new Error(`The saved definition cannot be read: ${parsed?.errors.slice(0, 3).join('; ')}`)}
        />
      ) : definition.widgets.length === 0 ? (
        <Card>
          <EmptyState title="No widgets yet">
            {writable ? (
              <>
                <p>
                  A widget draws one metric query — line, area, stacked area, bar, a single value with thresholds, or a
                  table — over the page's time range.
                </p>
                <Button variant="primary" className="mt-3" onClick={() => setOpen({ kind: 'add' })}>
                  <Plus aria-hidden />
                  Add widget
                </Button>
              </>
            ) : (
              'A member with the write role adds widgets to this dashboard.'
            )}
          </EmptyState>
        </Card>
      ) : (
        <WidgetGrid
          widgets={definition.widgets}
          scope={scope}
          syncKey={`dashboard-${id}`}
          writable={writable}
          onLayout={change}
          onStar={(widget) =>
            change(definition.widgets.map((w) => (w.id === widget.id ? { ...w, starred: !w.starred } : w)))
          }
          onEdit={(widget) => setOpen({ kind: 'edit', widget })}
          onRemove={(widget) => setOpen({ kind: 'remove', widget })}
        />
      )}

      {(open?.kind === 'add' || open?.kind === 'edit') && definition && (
        <WidgetDialog
          scope={scope}
          initial={open.kind === 'edit' ? open.widget : undefined}
          pending={save.isPending}
          error={save.error}
          onClose={() => setOpen(null)}
          onSave={(draft: WidgetDraft) => {
            const widgets =
              open.kind === 'edit'
                ? definition.widgets.map((w) =>
                    w.id === open.widget.id
                      ? { id: w.id, layout: w.layout, ...(w.starred ? { starred: true } : {}), ...draft }
                      : w,
                  )
                : [...definition.widgets, newWidget(definition.widgets, draft)];
            save.mutate({ ...definition, widgets }, { onSuccess: () => setOpen(null) });
          }}
        />
      )}
      {open?.kind === 'remove' && definition && (
        <ConfirmDialog
          open
          onOpenChange={(isOpen) => !isOpen && setOpen(null)}
          title={`Remove ${open.widget.title}?`}
          description="The widget leaves this dashboard (and home, if it was starred). The metric's data stays."
          confirmLabel="Remove widget"
          pending={save.isPending}
          error={save.error}
          onConfirm={() =>
            save.mutate(
              { ...definition, widgets: definition.widgets.filter((w) => w.id !== open.widget.id) },
              { onSuccess: () => setOpen(null) },
            )
          }
        />
      )}
      {open?.kind === 'rename' && (
        <RenameDashboardDialog projectId={projectId} dashboard={saved} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'delete' && (
        <DeleteDashboardDialog
          projectId={projectId}
          dashboard={saved}
          onClose={() => setOpen(null)}
          onDeleted={() => navigate({ to: '/dashboards', search: keepScope })}
        />
      )}
    </div>
  );
}

function WidgetGrid({
  widgets,
  scope,
  syncKey,
  writable,
  onLayout,
  onStar,
  onEdit,
  onRemove,
}: {
  widgets: Widget[];
  scope: TelemetryScope;
  syncKey: string;
  writable: boolean;
  onLayout: (widgets: Widget[]) => void;
  onStar: (widget: Widget) => void;
  onEdit: (widget: Widget) => void;
  onRemove: (widget: Widget) => void;
}) {
  const { width, containerRef, mounted } = useContainerWidth();
  // Static for read-only members: no drag, no resize handles.
  const layout = widgets.map((w) => ({ i: w.id, ...w.layout, minW: 2, minH: 2, static: !writable }));
  // Saved when a gesture ends, not on every compaction the grid does on its own.
  const commit = (next: Layout) => {
    const at = new Map(next.map((item) => [item.i, item]));
    let moved = false;
    const updated = widgets.map((w) => {
      const item = at.get(w.id);
      if (!item || (item.x === w.layout.x && item.y === w.layout.y && item.w === w.layout.w && item.h === w.layout.h))
        return w;
      moved = true;
      return { ...w, layout: { x: item.x, y: item.y, w: item.w, h: item.h } };
    });
    if (moved) onLayout(updated);
  };
  return (
    <div ref={containerRef} className="-mx-3">
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{
            cols: GRID_COLUMNS,
            rowHeight: ROW_HEIGHT,
            margin: [MARGIN, MARGIN],
            containerPadding: [MARGIN, 0],
          }}
          dragConfig={{ enabled: writable, handle: '.widget-handle', cancel: 'button, a, input' }}
          resizeConfig={{ enabled: writable, handles: ['se'] }}
          onDragStop={(next) => commit(next)}
          onResizeStop={(next) => commit(next)}
        >
          {widgets.map((widget) => (
            <div key={widget.id} data-widget-id={widget.id}>
              <Card className="flex h-full flex-col overflow-hidden" aria-label={`Widget ${widget.title}`}>
                <header
                  className={cn(
                    'flex h-9 shrink-0 items-center gap-1 border-b pr-1 pl-3',
                    writable && 'widget-handle cursor-grab active:cursor-grabbing',
                  )}
                >
                  {writable && <GripVertical className="-ml-1.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden />}
                  <h2 className="min-w-0 flex-1 truncate text-sm font-medium" title={widget.title}>
                    {widget.title}
                  </h2>
                  {writable ? (
                    <>
                      <Button
                        size="icon"
                        variant="ghost"
                        className="size-7"
                        aria-pressed={widget.starred === true}
                        aria-label={
                          widget.starred
                            ? `Unstar ${widget.title} (remove from home)`
                            : `Star ${widget.title} (show on home)`
                        }
                        title={widget.starred ? 'Starred: shown on home' : 'Star to show on home'}
                        onClick={() => onStar(widget)}
                      >
                        <Star className={cn(widget.starred && 'fill-current text-accent')} aria-hidden />
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        className="size-7"
                        aria-label={`Edit ${widget.title}`}
                        onClick={() => onEdit(widget)}
                      >
                        <Pencil aria-hidden />
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        className="size-7"
                        aria-label={`Remove ${widget.title}`}
                        onClick={() => onRemove(widget)}
                      >
                        <Trash2 aria-hidden />
                      </Button>
                    </>
                  ) : (
                    widget.starred && (
                      <Star
                        className="mr-2 size-3.5 shrink-0 fill-current text-accent"
                        aria-label="Starred: shown on home"
                      />
                    )
                  )}
                </header>
                <div className="min-h-0 flex-1 px-3 py-2">
                  <WidgetBody widget={widget} scope={scope} syncKey={syncKey} height={bodyHeight(widget.layout.h)} />
                </div>
              </Card>
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}

function DashboardSkeleton() {
  return (
    <div className="grid gap-4 px-6 py-5" role="status" aria-busy="true" aria-label="Loading the dashboard">
      <div className="grid gap-1.5">
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-4 w-72" />
      </div>
      <div className="grid grid-cols-12 gap-3">
        <Skeleton className="col-span-6 h-72" />
        <Skeleton className="col-span-6 h-72" />
        <Skeleton className="col-span-3 h-32" />
      </div>
    </div>
  );
}
