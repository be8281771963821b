import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Outlet, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { Search, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/card';
import { isNetworkError, RETRY_EVERY_MS, UnreachableState } from '@/components/ui/problem-states';
import { ErrorState } from '@/components/ui/states';
import {
  isForgottenProject,
  preferredProject,
  rememberProject,
  shownOrganization,
  useCurrentProject,
} from '@/lib/current-project';
import {
  mayCreateOrganization,
  meQuery,
  organizationSettingsQuery,
  projectCreatingOrganizations,
  projectsQuery,
  providersQuery,
} from '@/lib/queries';
import { resolveTimeZone, setDisplayTimeZone } from '@/lib/time-zone';
import { useDisplayTimeZone } from '@/lib/use-display-time-zone';
import { ShellActionsContext, type ShellActions } from './shell-actions';
import { Sidebar } from './sidebar';
import { ThemeToggle } from './theme-toggle';
import { TimeRangePicker } from './time-range-picker';
import { UserMenu } from './user-menu';
import type { Project } from '@/lib/types';

// Their own chunks (cmdk, the dialog and form kit): fetched on first use, not before the first page.
const CommandPalette = lazy(async () => ({ default: (await import('./command-palette')).CommandPalette }));
const CreateProjectDialog = lazy(async () => ({
  default: (await import('./create-project-dialog')).CreateProjectDialog,
}));
const CreateOrganizationDialog = lazy(async () => ({
  default: (await import('./create-organization-dialog')).CreateOrganizationDialog,
}));

/** True from the first time `open` is true: a dialog stays mounted after that, so it can animate closed. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/**
 * Puts the organization's time zone (of the organization the URL names — the Organization page's
 * `?organization=` — else the current project's, else the person's first) into lib/time-zone, which every formatter and chart reads (DASHBOARD.md §1.6). Returns the
 * zone in force and whether pages may render: not before a known organization's setting arrived
 * (a refused or failed read leaves the browser's zone).
 */
function useOrganizationTimeZone(organizationId: string | undefined): { zone: string; ready: boolean } {
  const settings = useQuery(organizationSettingsQuery(organizationId));
  const zone = useDisplayTimeZone();
  const wanted = settings.data ? resolveTimeZone(settings.data.timezone) : undefined;
  useLayoutEffect(() => {
    if (wanted !== undefined) setDisplayTimeZone(wanted);
  }, [wanted]);
  return { zone, ready: organizationId === undefined || settings.isError || wanted === zone };
}

export function AppShell() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { projectId, organization } = useSearch({ strict: false });
  const { project, projects, isLoading } = useCurrentProject();
  const projectsState = useQuery(projectsQuery);
  const me = useQuery(meQuery);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const providers = useQuery(providersQuery);
  // Open, with the organization it was opened for (undefined: the dialog's own choice).
  const [creating, setCreating] = useState<{ organizationId?: string | undefined } | null>(null);
  const [startingOrganization, setStartingOrganization] = useState(false);
  const actions: ShellActions = {
    createProject:
      projectCreatingOrganizations(me.data).length > 0
        ? (organizationId) => setCreating({ organizationId })
        : undefined,
    createOrganization: mayCreateOrganization(me.data, providers.data)
      ? () => setStartingOrganization(true)
      : undefined,
  };
  const createProject = actions.createProject && (() => actions.createProject?.());
  /** The project the URL named that is not one of the person's, and the one shown instead. */
  const [replaced, setReplaced] = useState<{ requested: string; shown: Project } | null>(null);
  const paletteMounted = useOpenedOnce(paletteOpen);
  const creatingMounted = useOpenedOnce(creating !== null);
  const startingMounted = useOpenedOnce(startingOrganization);
  const timeZone = useOrganizationTimeZone(
    shownOrganization(me.data?.organizations ?? [], organization, project?.organizationId)?.id ??
      project?.organizationId,
  );

  // Keep a valid project in the URL: the one named, else the last used, else the first. A project
  // the URL named that the person cannot see is replaced too, and the notice says so.
  useEffect(() => {
    if (!projects) return;
    if (projects.length === 0) {
      // A project the URL still names (just deleted, or left) is dropped: there is none to show.
      // Named as undefined, not left out, which the root's retainSearchParams would fill back in.
      if (projectId !== undefined)
        void navigate({ to: '.', search: (prev) => ({ ...prev, projectId: undefined }), replace: true });
      return;
    }
    if (project) {
      rememberProject(project.id);
      return;
    }
    const pick = preferredProject(projects);
    if (pick && pick.id !== projectId) {
      if (projectId !== undefined && !isForgottenProject(projectId)) setReplaced({ requested: projectId, shown: pick });
      void navigate({ to: '.', search: (prev) => ({ ...prev, projectId: pick.id }), replace: true });
    }
  }, [projects, project, projectId, navigate]);

  // The service did not answer the first reads (projects, /api/me): keep trying by itself, and
  // read everything that failed again once it answers (the avatar and organization name too).
  const unreachable = projects === undefined && projectsState.isError;
  const retryAll = async () => {
    await queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' });
  };
  useEffect(() => {
    if (!unreachable && !(me.isError && me.data === undefined)) return;
    const timer = window.setInterval(
      () => void queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' }),
      RETRY_EVERY_MS,
    );
    return () => window.clearInterval(timer);
  }, [unreachable, me.isError, me.data, queryClient]);

  const notice = replaced && project?.id === replaced.shown.id ? replaced : null;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPaletteOpen((open) => !open);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="flex h-screen overflow-hidden">
      <Sidebar onCreateProject={createProject} />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-12 shrink-0 items-center gap-2 border-b bg-panel px-4">
          <Button
            variant="secondary"
            size="md"
            className="w-64 justify-start text-muted-foreground max-md:w-auto"
            onClick={() => setPaletteOpen(true)}
          >
            <Search />
            {/* Only the icon shows below 768 px; the text still names the button. */}
            <span className="max-md:sr-only">Jump to…</span>
            <kbd className="ml-auto rounded border bg-muted px-1.5 font-mono text-[11px] leading-4 max-md:hidden">
              Ctrl K
            </kbd>
          </Button>
          <div className="ml-auto flex items-center gap-2">
            {/* Without a project no page reads telemetry: nothing for a time range to apply to. */}
            {project && <TimeRangePicker />}
            <ThemeToggle />
            <UserMenu user={me.data?.user} />
          </div>
        </header>
        {/* The positioned scroll panel: absolutely positioned content (screen-reader-only headers
            of table columns, sr-only) is placed and scrolled inside it, not against the document,
            which would then grow past the window and scroll the whole shell. */}
        <main className="relative min-h-0 flex-1 overflow-y-auto">
          {unreachable ? (
            isNetworkError(projectsState.error) ? (
              <UnreachableState onRetry={retryAll} />
            ) : (
              <ErrorState
                error={projectsState.error}
                className="mx-6 my-5 max-w-2xl"
                action={
                  <Button size="sm" onClick={() => void retryAll()}>
                    Retry
                  </Button>
                }
              />
            )
          ) : isLoading ||
            (projects && !project && (projects.length > 0 || projectId !== undefined)) ||
            !timeZone.ready ? (
            <PageSkeleton />
          ) : (
            <>
              {notice && (
                <div
                  role="status"
                  data-testid="project-notice"
                  className="mx-6 mt-4 flex items-start gap-3 rounded-lg border border-warning/50 bg-warning/5 px-4 py-2.5 text-sm"
                >
                  <p className="min-w-0 flex-1">
                    You have no access to project <span className="break-all font-mono">{notice.requested}</span> (or it
                    does not exist) — showing <span className="font-medium">{notice.shown.name}</span>.
                  </p>
                  <Button variant="ghost" size="icon" className="-my-1 size-7" onClick={() => setReplaced(null)}>
                    <X />
                    <span className="sr-only">Dismiss</span>
                  </Button>
                </div>
              )}
              {/* Keyed by the time zone: a page shows its times again (remounted, from the query
                  cache) when the organization's zone changes. */}
              <ShellActionsContext.Provider value={actions}>
                <Outlet key={timeZone.zone} />
              </ShellActionsContext.Provider>
            </>
          )}
        </main>
      </div>
      <Suspense fallback={null}>
        {paletteMounted && (
          <CommandPalette
            open={paletteOpen}
            onOpenChange={setPaletteOpen}
            onCreateProject={createProject}
            onCreateOrganization={actions.createOrganization}
          />
        )}
        {creatingMounted && (
          <CreateProjectDialog
            open={creating !== null}
            onOpenChange={(open) => setCreating(open ? (creating ?? {}) : null)}
            organizationId={creating?.organizationId}
          />
        )}
        {startingMounted && (
          <CreateOrganizationDialog open={startingOrganization} onOpenChange={setStartingOrganization} />
        )}
      </Suspense>
    </div>
  );
}

/** The page frame while the projects load: the final layout in grey, never a blank page. */
export function PageSkeleton() {
  return (
    <div className="grid gap-4 px-6 py-5" role="status" aria-busy="true" aria-label="Loading">
      <Skeleton className="h-6 w-48" />
      <div className="grid grid-cols-4 gap-3">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}
