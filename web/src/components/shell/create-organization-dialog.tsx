import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFormFooter, Form } from '@/components/ui/form';
import { TextField } from '@/components/ui/input';
import { api, read } from '@/lib/api';
import { meQuery } from '@/lib/queries';
import type { Answer } from '@/lib/types';
import { toast } from './toasts';

/** Starts an organization the person administers, then shows its page (which offers its first project). */
export function CreateOrganizationDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () =>
      read<Answer<'/api/organizations', 'post', 201>>(api.POST('/api/organizations', { body: { name: name.trim() } })),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      onOpenChange(false);
      setName('');
      toast.success(`Organization ${created.name} created`);
      void navigate({ to: '/settings/organization', search: { organization: created.id } });
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
      <DialogContent
        title="New organization"
        description="An organization has its own members, projects, plan and usage. You will be its admin."
      >
        <Form onSubmit={() => create.mutate()}>
          <TextField
            label="Name"
            id="organization-new-name"
            value={name}
            onValue={setName}
            required
            maxLength={100}
            autoFocus
          />
          <DialogFormFooter
            error={create.error}
            pending={create.isPending}
            disabled={name.trim() === ''}
            label="Create organization"
            pendingLabel="Creating…"
            onCancel={() => onOpenChange(false)}
          />
        </Form>
      </DialogContent>
    </Dialog>
  );
}
