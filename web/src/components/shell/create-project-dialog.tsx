import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFormFooter, Form, FormNotice } from '@/components/ui/form';
import { SelectField, TextField } from '@/components/ui/input';
import { api, read } from '@/lib/api';
import { useCurrentProject } from '@/lib/current-project';
import { limitReachedNote } from '@/lib/plan-limits';
import { meQuery, projectCreatingOrganizations, usageQuery } from '@/lib/queries';
import { FRAMEWORKS, type Project } from '@/lib/types';
import { toast } from './toasts';

export function CreateProjectDialog({
  open,
  onOpenChange,
  organizationId: asked,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The organization it opens on (a page's "Create project" for that organization), else the current project's. */
  organizationId?: string | undefined;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { project } = useCurrentProject();
  const me = useQuery(meQuery);
  const writable = projectCreatingOrganizations(me.data);
  const [name, setName] = useState('');
  const [framework, setFramework] = useState('opentelemetry');
  const [picked, setPicked] = useState('');
  // Each opening starts from the organization it is opened for, not the one picked last time.
  useEffect(() => {
    if (open) setPicked('');
  }, [open]);
  // The current project's organization when the person may create there, else the first one they may
  // (before: always the current one, so a read-only member there was refused a project they could create elsewhere).
  const organizationId =
    writable.find((o) => o.id === picked)?.id ??
    writable.find((o) => o.id === asked)?.id ??
    writable.find((o) => o.id === project?.organizationId)?.id ??
    writable[0]?.id ??
    '';
  // Read again at each opening: a project deleted meanwhile frees room.
  const usage = useQuery({ ...usageQuery(organizationId), enabled: open && organizationId !== '', staleTime: 0 });
  const full = limitReachedNote(usage.data, 'projects', usage.data?.counters.projects ?? 0);

  const create = useMutation({
    mutationFn: () =>
      read<Project>(
        api.POST('/api/projects', {
          // The body names the organization; the spec's form also names a project next to it, which
          // a person without any project leaves out.
          params: { query: project ? { projectId: project.id } : {} },
          body: { name, framework, organizationId },
        }),
      ),
    onSuccess: async (created) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['projects'] }),
        queryClient.invalidateQueries({ queryKey: usageQuery(organizationId).queryKey }),
      ]);
      onOpenChange(false);
      setName('');
      toast.success(`Project ${created.name} created`);
      void navigate({ to: '/connection', search: (prev) => ({ ...prev, projectId: created.id }) });
    },
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) create.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent title="Create project" description="A project has its own token and its own data.">
        <Form onSubmit={() => create.mutate()}>
          <FormNotice message={full} />
          <TextField
            label="Name"
            id="project-name"
            hint="Letters, numbers, spaces, hyphens and underscores."
            value={name}
            onValue={setName}
            required
            maxLength={100}
            autoFocus
          />
          <SelectField
            label="Framework"
            id="project-framework"
            value={framework}
            onValue={setFramework}
            options={FRAMEWORKS}
          />
          {writable.length > 1 && (
            <SelectField
              label="Organization"
              id="project-organization"
              value={organizationId}
              onValue={setPicked}
              options={writable.map((o) => ({ value: o.id, label: o.name }))}
            />
          )}
          <DialogFormFooter
            error={create.error}
            pending={create.isPending}
            disabled={name.trim() === '' || full !== null}
            label="Create project"
            pendingLabel="Creating…"
            onCancel={() => onOpenChange(false)}
          />
        </Form>
      </DialogContent>
    </Dialog>
  );
}
