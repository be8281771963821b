import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFormFooter, Form } from '@/components/ui/form';
import { Field, Input, Select } from '@/components/ui/input';
import { api, read } from '@/lib/api';
import { useCurrentProject } from '@/lib/current-project';
import { meQuery } from '@/lib/queries';
import { FRAMEWORKS, type Project } from '@/lib/types';
import { toast } from './toasts';

export function CreateProjectDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { project } = useCurrentProject();
  const me = useQuery(meQuery);
  const writable = (me.data?.organizations ?? []).filter((o) => o.role !== 'read-only' && !o.suspended);
  const [name, setName] = useState('');
  const [framework, setFramework] = useState('opentelemetry');
  const [organizationId, setOrganizationId] = useState('');

  const create = useMutation({
    mutationFn: () =>
      read<Project>(
        api.POST('/api/projects', {
          // The route is scoped "next to" a project the caller can see; the body names the organization.
          params: { query: { projectId: project?.id ?? '' } },
          body: { name, framework, organizationId: organizationId || project?.organizationId || writable[0]?.id },
        }),
      ),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
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
          <Field label="Name" htmlFor="project-name" hint="Letters, numbers, spaces, hyphens and underscores.">
            <Input
              id="project-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={100}
              autoFocus
            />
          </Field>
          <Field label="Framework" htmlFor="project-framework">
            <Select
              id="project-framework"
              value={framework}
              onChange={(e) => setFramework(e.target.value)}
              options={FRAMEWORKS}
            />
          </Field>
          {writable.length > 1 && (
            <Field label="Organization" htmlFor="project-organization">
              <Select
                id="project-organization"
                value={organizationId || project?.organizationId || ''}
                onChange={(e) => setOrganizationId(e.target.value)}
                options={writable.map((o) => ({ value: o.id, label: o.name }))}
              />
            </Field>
          )}
          <DialogFormFooter
            error={create.error}
            pending={create.isPending}
            disabled={name.trim() === ''}
            label="Create project"
            pendingLabel="Creating…"
            onCancel={() => onOpenChange(false)}
          />
        </Form>
      </DialogContent>
    </Dialog>
  );
}
