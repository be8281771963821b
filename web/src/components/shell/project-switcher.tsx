import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Check, ChevronsUpDown, Plus } from 'lucide-react';
import { Skeleton } from '@/components/ui/card';
import { Menu, MenuContent, MenuGroup, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from '@/components/ui/menu';
import { useCurrentProject } from '@/lib/current-project';
import { meQuery } from '@/lib/queries';
import type { Me, Project } from '@/lib/types';

/** Projects grouped under their organization, in the order of the person's memberships. */
export function groupByOrganization(projects: Project[], me: Me | undefined) {
  const names = new Map(me?.organizations.map((o) => [o.id, o.name]));
  const groups = new Map<string, { name: string; projects: Project[] }>();
  for (const organization of me?.organizations ?? [])
    groups.set(organization.id, { name: organization.name, projects: [] });
  for (const project of projects) {
    const group = groups.get(project.organizationId) ?? {
      name: names.get(project.organizationId) ?? 'Organization',
      projects: [],
    };
    group.projects.push(project);
    groups.set(project.organizationId, group);
  }
  return [...groups.entries()].filter(([, group]) => group.projects.length > 0);
}

export function ProjectSwitcher({ onCreateProject }: { onCreateProject: (() => void) | undefined }) {
  const navigate = useNavigate();
  const { project, projects } = useCurrentProject();
  const me = useQuery(meQuery);
  const organizationName = me.data?.organizations.find((o) => o.id === project?.organizationId)?.name;

  // Until the projects are read (or while the service does not answer): the switcher's shape in
  // grey, not "No project", which is what a person without projects sees.
  if (projects === undefined || (projects.length > 0 && !project)) {
    return (
      <div
        className="flex h-10 w-full items-center gap-2 px-1.5 max-lg:justify-center"
        role="status"
        aria-label="Loading projects"
        data-testid="project-switcher-loading"
      >
        <Skeleton className="size-6 shrink-0 rounded" />
        <div className="grid flex-1 gap-1 max-lg:hidden">
          <Skeleton className="h-3 w-24" />
          <Skeleton className="h-2.5 w-16" />
        </div>
      </div>
    );
  }

  return (
    <Menu>
      <MenuTrigger
        className="flex h-10 w-full items-center gap-2 rounded-md px-1.5 text-left outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring max-lg:justify-center"
        title={project?.name}
      >
        {/* The accessible name leads with the action and then reads the visible text. */}
        <span className="sr-only">Switch project: </span>
        <span
          className="flex size-6 shrink-0 items-center justify-center rounded bg-accent-soft text-xs font-semibold text-accent"
          aria-hidden
        >
          {(project?.name ?? '?').slice(0, 1).toUpperCase()}
        </span>
        <span className="grid min-w-0 flex-1 leading-tight max-lg:hidden">
          <span className="truncate text-sm font-medium">{project?.name ?? 'No project'}</span>
          <span className="truncate text-xs text-muted-foreground">{organizationName ?? ' '}</span>
        </span>
        <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground max-lg:hidden" aria-hidden />
      </MenuTrigger>
      <MenuContent align="start" className="w-64">
        {groupByOrganization(projects ?? [], me.data).map(([organizationId, group], index) => (
          <MenuGroup key={organizationId}>
            {index > 0 && <MenuSeparator />}
            <MenuLabel>{group.name}</MenuLabel>
            {group.projects.map((p) => (
              <MenuItem
                key={p.id}
                onSelect={() => void navigate({ to: '.', search: (prev) => ({ ...prev, projectId: p.id }) })}
              >
                <span className="flex-1 truncate">{p.name}</span>
                {p.id === project?.id && <Check aria-label="current project" />}
              </MenuItem>
            ))}
          </MenuGroup>
        ))}
        {onCreateProject && (
          <>
            <MenuSeparator />
            <MenuItem onSelect={onCreateProject}>
              <Plus />
              Create project
            </MenuItem>
          </>
        )}
      </MenuContent>
    </Menu>
  );
}
