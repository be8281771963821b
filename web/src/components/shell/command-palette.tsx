import { useNavigate } from '@tanstack/react-router';
import { Command } from 'cmdk';
import { Bug, Building2, FolderKanban, LogOut, Moon, Plus } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { currentItemBar } from '@/components/ui/menu';
import { useCurrentProject } from '@/lib/current-project';
import { sectionsFor } from '@/lib/navigation';
import { meQuery } from '@/lib/queries';
import { useSignOut } from '@/lib/sign-out';
import { useTelemetryScope } from '@/lib/telemetry';
import { useTheme } from '@/lib/theme';
import { issueListQuery } from '@/pages/issues/api';
import { groupByOrganization } from './project-switcher';

const item = `flex h-9 cursor-default items-center gap-2.5 rounded-md px-2 text-sm select-none data-[selected=true]:bg-muted ${currentItemBar.selected} [&_svg]:size-4 [&_svg]:text-muted-foreground`;
const heading =
  '[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-muted-foreground';

/** Issues the palette lists: the most recently seen of the range, or those whose title matches. */
const PALETTE_ISSUES = 8;

/** ⌘K / Ctrl-K: jump to a page, a project or one of the project's recent issues, or run an action. */
export function CommandPalette({
  open,
  onOpenChange,
  onCreateProject,
  onCreateOrganization,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Absent when the person may create no project. */
  onCreateProject: (() => void) | undefined;
  /** Absent when the person may start no organization. */
  onCreateOrganization: (() => void) | undefined;
}) {
  const navigate = useNavigate();
  const { projects } = useCurrentProject();
  const me = useQuery(meQuery);
  const { resolved, setChoice } = useTheme();
  const signOut = useSignOut();
  const scope = useTelemetryScope();
  const [typed, setTyped] = useState('');
  const [searched, setSearched] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearched(typed.trim()), 200);
    return () => clearTimeout(timer);
  }, [typed]);
  useEffect(() => {
    if (!open) setTyped('');
  }, [open]);
  // The issue list's own query (every status, newest seen first; the typed text searched by the
  // API once typing pauses), so an issue older than the first few is found by its title too.
  const issues = useQuery({
    ...issueListQuery(scope, { sort: 'lastSeen', status: 'all', ...(searched ? { q: searched } : {}) }),
    enabled: open && scope !== undefined,
  });

  const run = (action: () => void) => {
    onOpenChange(false);
    action();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Command palette" hideTitle className="max-w-lg gap-0 overflow-hidden p-0">
        <Command label="Command palette" className="flex max-h-[60vh] flex-col">
          <Command.Input
            value={typed}
            onValueChange={setTyped}
            placeholder="Type a page, a project, an issue or an action…"
            className="h-11 w-full border-b bg-transparent px-4 text-sm outline-none placeholder:text-muted-foreground"
          />
          <Command.List className={`overflow-y-auto p-1.5 ${heading}`}>
            <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">
              Nothing matches.
            </Command.Empty>
            <Command.Group heading="Pages">
              {sectionsFor(projects, (me.data?.organizations.length ?? 0) > 0)
                .flatMap((section) => section.pages)
                .map((page) => (
                  <Command.Item
                    key={page.to}
                    value={`page ${page.label}`}
                    className={item}
                    onSelect={() => run(() => void navigate({ to: page.to }))}
                  >
                    <page.icon />
                    {page.label}
                  </Command.Item>
                ))}
            </Command.Group>
            {(issues.data?.items.length ?? 0) > 0 && (
              <Command.Group heading={searched ? 'Issues' : 'Recent issues'}>
                {issues.data!.items.slice(0, PALETTE_ISSUES).map((issue) => (
                  <Command.Item
                    key={issue.hash}
                    value={`issue ${issue.title} ${issue.hash}`}
                    className={item}
                    onSelect={() =>
                      run(() => void navigate({ to: '/issues/$hash', params: { hash: issue.hash }, search: {} }))
                    }
                  >
                    <Bug />
                    <span className="truncate" title={issue.title}>
                      {issue.title}
                    </span>
                  </Command.Item>
                ))}
              </Command.Group>
            )}
            {groupByOrganization(projects ?? [], me.data).map(([organizationId, group]) => (
              <Command.Group key={organizationId} heading={`Projects · ${group.name}`}>
                {group.projects.map((p) => (
                  <Command.Item
                    key={p.id}
                    value={`project ${p.name} ${p.id}`}
                    className={item}
                    onSelect={() =>
                      run(() => void navigate({ to: '.', search: (prev) => ({ ...prev, projectId: p.id }) }))
                    }
                  >
                    <FolderKanban />
                    {p.name}
                  </Command.Item>
                ))}
              </Command.Group>
            ))}
            <Command.Group heading="Actions">
              {onCreateProject && (
                <Command.Item value="action create project" className={item} onSelect={() => run(onCreateProject)}>
                  <Plus />
                  Create project
                </Command.Item>
              )}
              {onCreateOrganization && (
                <Command.Item
                  value="action new organization"
                  className={item}
                  onSelect={() => run(onCreateOrganization)}
                >
                  <Building2 />
                  New organization
                </Command.Item>
              )}
              <Command.Item
                value="action switch theme dark light"
                className={item}
                onSelect={() => run(() => setChoice(resolved === 'dark' ? 'light' : 'dark'))}
              >
                <Moon />
                Switch to {resolved === 'dark' ? 'light' : 'dark'} theme
              </Command.Item>
              <Command.Item value="action sign out" className={item} onSelect={() => run(signOut)}>
                <LogOut />
                Sign out
              </Command.Item>
            </Command.Group>
          </Command.List>
        </Command>
      </DialogContent>
    </Dialog>
  );
}
