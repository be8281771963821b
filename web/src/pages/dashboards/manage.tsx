/**
 * Creating, renaming, deleting (after typing the name), importing and exporting dashboards:
 * the dialogs the list and a dashboard's own page share.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from '@/components/shell/toasts';
import { ConfirmDialog, Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFormFooter, Form } from '@/components/ui/form';
import { Field, Input, TextField } from '@/components/ui/input';
import { createDashboard, dashboardKey, dashboardsKey, deleteDashboard, keepScope, updateDashboard } from './api';
import { exportFile, parseDashboardFile, parseDefinition } from './definition';
import type { SavedDashboard } from './types';

/** Opens a dashboard keeping only the shared URL state (project and range). */
function useOpenDashboard() {
  const navigate = useNavigate();
  return (id: string) => void navigate({ to: '/dashboards/$id', params: { id }, search: keepScope });
}

export function CreateDashboardDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const open = useOpenDashboard();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => createDashboard(projectId, name.trim(), { version: 1, widgets: [] }),
    onSuccess: async (created) => {
      queryClient.setQueryData(dashboardKey(projectId, created.id), created);
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(projectId), exact: true });
      toast.success(`Dashboard ${created.name} created`);
      onClose();
      open(created.id);
    },
  });
  return (
    <NameDialog
      title="New dashboard"
      label="Dashboard name"
      initial=""
      submitLabel="Create dashboard"
      name={name}
      setName={setName}
      pending={create.isPending}
      error={create.error}
      onSubmit={() => create.mutate()}
      onClose={onClose}
    />
  );
}

export function RenameDashboardDialog({
  projectId,
  dashboard,
  onClose,
}: {
  projectId: string;
  dashboard: SavedDashboard;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(dashboard.name);
  const rename = useMutation({
    mutationFn: () => updateDashboard(projectId, dashboard.id, { name: name.trim() }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(dashboardKey(projectId, saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(projectId), exact: true });
      toast.success(`Renamed to ${saved.name}`);
      onClose();
    },
  });
  return (
    <NameDialog
      title={`Rename ${dashboard.name}`}
      label="Dashboard name"
      initial={dashboard.name}
      submitLabel="Rename"
      name={name}
      setName={setName}
      pending={rename.isPending}
      error={rename.error}
      onSubmit={() => rename.mutate()}
      onClose={onClose}
    />
  );
}

function NameDialog(props: {
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  name: string;
  setName: (name: string) => void;
  pending: boolean;
  error: Error | null;
  onSubmit: () => void;
  onClose: () => void;
}) {
  const unchanged = props.name.trim() === '' || props.name.trim() === props.initial;
  return (
    <Dialog open onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent title={props.title}>
        <Form onSubmit={props.onSubmit}>
          <TextField
            label={props.label}
            id="dashboard-name"
            value={props.name}
            onValue={props.setName}
            required
            maxLength={200}
            autoFocus
          />
          <DialogFormFooter
            error={props.error}
            pending={props.pending}
            disabled={unchanged}
            label={props.submitLabel}
            pendingLabel="Saving…"
            onCancel={props.onClose}
          />
        </Form>
      </DialogContent>
    </Dialog>
  );
}

export function DeleteDashboardDialog({
  projectId,
  dashboard,
  onClose,
  onDeleted,
}: {
  projectId: string;
  dashboard: SavedDashboard;
  onClose: () => void;
  /** Leaves the deleted dashboard's page, if that is where the dialog was opened. */
  onDeleted?: () => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    mutationFn: () => deleteDashboard(projectId, dashboard.id),
    onSuccess: async () => {
      toast.success(`Dashboard ${dashboard.name} deleted`);
      onClose();
      // Off its page first: a query still observed would be fetched again and answer 404.
      await onDeleted?.();
      queryClient.removeQueries({ queryKey: dashboardKey(projectId, dashboard.id), exact: true });
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(projectId), exact: true });
    },
  });
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Delete ${dashboard.name}?`}
      description="Its widgets go with it, for every member of the project. This cannot be undone."
      confirmLabel="Delete dashboard"
      onConfirm={() => remove.mutate()}
      pending={remove.isPending}
      disabled={typed !== dashboard.name}
      error={remove.error}
    >
      <TextField
        label={`Type ${dashboard.name} to confirm`}
        id="delete-dashboard-name"
        value={typed}
        onValue={setTyped}
        autoComplete="off"
        autoFocus
      />
    </ConfirmDialog>
  );
}

/** Downloads the dashboard as `<name>.dashboard.json`, the file import reads. */
export function downloadDashboard(dashboard: SavedDashboard): void {
  const { definition } = parseDefinition(dashboard.definition);
  const file = exportFile(dashboard.name, definition ?? { version: 1, widgets: [] });
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${dashboard.name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'dashboard'}.dashboard.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ImportDashboardDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const open = useOpenDashboard();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const importIt = useMutation({
    mutationFn: () => {
      const { file, errors: problems } = parseDashboardFile(text);
      if (!file) {
        setErrors(problems);
        return Promise.resolve(undefined);
      }
      setErrors([]);
      return createDashboard(projectId, file.name, file.definition);
    },
    onSuccess: async (created) => {
      if (!created) return;
      queryClient.setQueryData(dashboardKey(projectId, created.id), created);
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(projectId), exact: true });
      toast.success(`Dashboard ${created.name} imported`);
      onClose();
      open(created.id);
    },
  });
  return (
    <Dialog open onOpenChange={(isOpen) => !isOpen && onClose()}>
      <DialogContent
        title="Import a dashboard"
        description="A file exported from a Sightline dashboard (Export JSON). It becomes a new dashboard of this project."
        className="max-w-xl"
      >
        <Form onSubmit={() => importIt.mutate()}>
          <Field label="File" htmlFor="import-file">
            <Input
              id="import-file"
              type="file"
              accept="application/json,.json"
              className="h-auto py-1 file:mr-3 file:rounded-sm file:border-0 file:bg-muted file:px-2 file:py-0.5 file:text-xs"
              onChange={async (e) => {
                const chosen = e.target.files?.[0];
                if (!chosen) return;
                setFileName(chosen.name);
                setErrors([]);
                setText(await chosen.text());
              }}
            />
          </Field>
          <Field label={fileName ? `Contents of ${fileName}` : 'Or paste the JSON'} htmlFor="import-json">
            <textarea
              id="import-json"
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setErrors([]);
              }}
              rows={8}
              spellCheck={false}
              aria-invalid={errors.length > 0}
              className="w-full rounded-md border border-input bg-panel px-2.5 py-2 font-mono text-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 aria-invalid:border-danger"
            />
          </Field>
          {errors.length > 0 && (
            <div role="alert" className="grid gap-1 rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-sm">
              <p className="font-medium">This file cannot be imported:</p>
              <ul className="list-disc pl-5 font-mono text-xs">
                {errors.slice(0, 10).map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
              {errors.length > 10 && <p className="text-xs text-muted-foreground">and {errors.length - 10} more</p>}
            </div>
          )}
          <DialogFormFooter
            error={importIt.error}
            pending={importIt.isPending}
            disabled={text.trim() === ''}
            label="Import"
            pendingLabel="Importing…"
            onCancel={onClose}
          />
        </Form>
      </DialogContent>
    </Dialog>
  );
}
