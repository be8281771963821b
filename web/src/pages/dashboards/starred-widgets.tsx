/**
 * The widgets starred on any dashboard of the project, for home (DASHBOARD.md §3 "starred
 * dashboard widgets"): each over the page's time range, titled with a link to its dashboard, the
 * charts sharing one crosshair. It reads the project and range from the URL itself. Home loads
 * it (its own chunk, with the metric views) only once a dashboard of the project stars a widget.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { EmptyState, ErrorState } from '@/components/ui/states';
import { useTelemetryScope } from '@/lib/telemetry';
import { cn } from '@/lib/utils';
import { dashboardsQuery, keepScope } from './api';
import { DashboardLink } from './dashboard-link';
import { parseDefinition } from './definition';
import { WidgetBody } from './widget-view';

export function StarredWidgets({ className }: { className?: string }) {
  const scope = useTelemetryScope();
  const dashboards = useQuery({ ...dashboardsQuery(scope?.projectId ?? ''), enabled: scope !== undefined });
  if (!scope) return null;
  const starred = (dashboards.data ?? []).flatMap((dashboard) =>
    (parseDefinition(dashboard.definition).definition?.widgets ?? [])
      .filter((w) => w.starred)
      .map((widget) => ({ widget, dashboard })),
  );

  return (
    <Card className={className}>
      <CardHeader
        title="Starred widgets"
        description="Widgets starred on the project's dashboards, over this time range."
      />
      {dashboards.error ? (
        <ErrorState error={dashboards.error} className="m-4" />
      ) : dashboards.isLoading ? (
        <div
          className="grid gap-3 p-4 md:grid-cols-2"
          role="status"
          aria-busy="true"
          aria-label="Loading starred widgets"
        >
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
        </div>
      ) : starred.length === 0 ? (
        <EmptyState title="No starred widgets" className="py-6">
          Star a widget on one of the{' '}
          <Link to="/dashboards" search={keepScope} className="text-accent underline underline-offset-2">
            dashboards
          </Link>{' '}
          to keep it here.
        </EmptyState>
      ) : (
        <div className="grid gap-3 p-3 md:grid-cols-2 xl:grid-cols-3">
          {starred.map(({ widget, dashboard }) => (
            <section
              key={`${dashboard.id}/${widget.id}`}
              aria-label={widget.title}
              className={cn(
                'grid min-w-0 gap-2 rounded-md border px-3 py-2',
                widget.type === 'value' && 'content-start',
              )}
            >
              <header className="flex min-w-0 items-baseline justify-between gap-2">
                <h3 className="truncate text-sm font-medium">{widget.title}</h3>
                <DashboardLink
                  dashboard={dashboard}
                  className="shrink-0 truncate text-xs text-muted-foreground underline-offset-2 hover:text-foreground hover:underline"
                />
              </header>
              <div className={widget.type === 'table' ? 'max-h-56 overflow-auto' : ''}>
                <WidgetBody
                  widget={widget}
                  scope={scope}
                  syncKey="home-starred"
                  height={widget.type === 'value' ? 96 : 180}
                />
              </div>
            </section>
          ))}
        </div>
      )}
    </Card>
  );
}
