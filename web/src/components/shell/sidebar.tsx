import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCurrentProject } from '@/lib/current-project';
import { sectionsFor } from '@/lib/navigation';
import { meQuery } from '@/lib/queries';
import { ProjectSwitcher } from './project-switcher';

/** `onCreateProject` absent: the person may create no project (read-only everywhere), so none is offered. */
export function Sidebar({ onCreateProject }: { onCreateProject: (() => void) | undefined }) {
  const { projects } = useCurrentProject();
  const me = useQuery(meQuery);
  const noProject = projects?.length === 0;
  return (
    // Below 1024 px the sidebar keeps its icons only, so the page keeps its width on a tablet.
    <nav aria-label="Main" className="flex w-14 shrink-0 flex-col border-r bg-panel lg:w-56">
      <div className="flex h-12 items-center gap-2 border-b px-3">
        <img src="/favicon.svg" alt="" className="size-6" />
        <span className="font-semibold tracking-tight max-lg:hidden">Sightline</span>
      </div>
      <div className="border-b p-2">
        <ProjectSwitcher onCreateProject={onCreateProject} />
      </div>
      {/* Positioned: the labels that are screen-reader-only below 1024 px stay inside this scroll area. */}
      <div className="relative flex-1 overflow-y-auto p-2">
        {sectionsFor(projects, (me.data?.organizations.length ?? 0) > 0).map((section) => (
          <div key={section.title ?? 'top'} className="mb-3">
            {section.title && (
              <div className="px-2 pt-1 pb-1 text-[11px] font-medium tracking-wide text-muted-foreground uppercase max-lg:hidden">
                {section.title}
              </div>
            )}
            <ul className="grid gap-px">
              {section.pages.map((page) => (
                <li key={page.to}>
                  <Link
                    to={page.to}
                    title={page.label}
                    activeOptions={{ exact: page.to === '/', includeSearch: false }}
                    className="flex h-8 items-center gap-2.5 rounded-md px-2 text-sm text-muted-foreground outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring max-lg:justify-center data-[status=active]:bg-accent-soft data-[status=active]:font-medium data-[status=active]:text-foreground"
                  >
                    <page.icon className="size-4 shrink-0" aria-hidden />
                    <span className="truncate max-lg:sr-only">{page.label}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
        {noProject && (
          <p data-testid="no-project-hint" className="px-2 text-xs text-muted-foreground max-lg:hidden">
            Issues, endpoints, logs and the other project pages appear here once you have a project.
          </p>
        )}
      </div>
    </nav>
  );
}
