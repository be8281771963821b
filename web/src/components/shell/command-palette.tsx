import { useNavigate } from '@tanstack/react-router';
import { Command } from 'cmdk';
import { FolderKanban, LogOut, Moon, Plus } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { useCurrentProject } from '@/lib/current-project';
import { PAGES } from '@/lib/navigation';
import { meQuery } from '@/lib/queries';
import { useSignOut } from '@/lib/sign-out';
import { useTheme } from '@/lib/theme';
import { groupByOrganization } from './project-switcher';

const item =
  'flex h-9 cursor-default items-center gap-2.5 rounded-md px-2 text-sm select-none data-[selected=true]:bg-muted [&_svg]:size-4 [&_svg]:text-muted-foreground';
const heading =
  '[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-muted-foreground';

/** ⌘K / Ctrl-K: jump to a page or a project, or run an action. */
export function CommandPalette({
  open,
  onOpenChange,
  onCreateProject,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreateProject: () => void;
}) {
  const navigate = useNavigate();
  const { projects } = useCurrentProject();
  const me = useQuery(meQuery);
  const { resolved, setChoice } = useTheme();
  const signOut = useSignOut();

  const run = (action: () => void) => {
    onOpenChange(false);
    action();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Command palette" hideTitle className="max-w-lg gap-0 overflow-hidden p-0">
        <Command label="Command palette" className="flex max-h-[60vh] flex-col">
          <Command.Input
            placeholder="Type a page, a project or an action…"
            className="h-11 w-full border-b bg-transparent px-4 text-sm outline-none placeholder:text-muted-foreground"
          />
          <Command.List className={`overflow-y-auto p-1.5 ${heading}`}>
            <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">
              Nothing matches.
            </Command.Empty>
            <Command.Group heading="Pages">
              {PAGES.map((page) => (
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
              <Command.Item value="action create project" className={item} onSelect={() => run(onCreateProject)}>
                <Plus />
                Create project
              </Command.Item>
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
