import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Button, SubmitButton } from '@/components/ui/button';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { CodeBlock } from '@/components/ui/code';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { Field, Input, Select } from '@/components/ui/input';
import { toast } from '@/components/shell/toasts';
import { api, read } from '@/lib/api';
import { useCurrentProject } from '@/lib/current-project';
import { connectionQuery, meQuery, projectsQuery } from '@/lib/queries';
import { FRAMEWORKS, HIDDEN_TOKEN, type Connection, type Project } from '@/lib/types';
import { PageHeader } from './page-header';

/** The three secrets of a project, each rotated by its own route. */
const TOKENS = [
  {
    key: 'token',
    label: 'Ingest token',
    path: '/api/projects/token',
    use: 'Sent with every report and OTLP export. Applications still sending the old token get 401 once it is rotated.',
  },
  {
    key: 'uploadToken',
    label: 'Symbol upload token',
    path: '/api/projects/upload-token',
    use: 'Uploads Flutter, iOS and Android debug symbols (sightline-cli symbols upload).',
  },
  {
    key: 'sourceMapToken',
    label: 'Source-map upload token',
    path: '/api/projects/source-map-token',
    use: 'Uploads browser source maps (sightline-cli sourcemaps upload).',
  },
] as const;

type TokenKind = (typeof TOKENS)[number];

/** Name, framework, the tokens with rotation, and deletion; read-only members see it all without the actions. */
export function ProjectSettingsPage() {
  const { project } = useCurrentProject();
  const me = useQuery(meQuery);
  const organization = me.data?.organizations.find((o) => o.id === project?.organizationId);
  if (!project) return null;
  const canWrite = project.role !== 'read-only';
  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title="Project settings"
        description={
          <>
            {project.name}
            {organization && ` in ${organization.name}`}
            {!canWrite && ' · your role is read-only: ask a member with the write role for changes.'}
          </>
        }
      />
      <General key={project.id} project={project} canWrite={canWrite} />
      <Tokens project={project} canWrite={canWrite} />
      {canWrite && <DeleteProject project={project} />}
    </div>
  );
}

function General({ project, canWrite }: { project: Project; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(project.name);
  const [framework, setFramework] = useState(project.framework);
  useEffect(() => {
    setName(project.name);
    setFramework(project.framework);
  }, [project.name, project.framework]);

  const save = useMutation({
    mutationFn: () =>
      read<Project>(
        api.PUT('/api/projects', { params: { query: { projectId: project.id } }, body: { name, framework } }),
      ),
    onSuccess: async (saved) => {
      toast.success(`Project ${saved.name} saved`);
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
    },
  });
  const changed = name.trim() !== project.name || framework !== project.framework;
  const frameworkLabel = FRAMEWORKS.find((f) => f.value === project.framework)?.label ?? project.framework;

  if (!canWrite) {
    return (
      <Card>
        <CardHeader title="General" />
        <dl className="grid grid-cols-[8rem_1fr] gap-y-2 px-4 py-3 text-sm">
          <dt className="text-muted-foreground">Name</dt>
          <dd>{project.name}</dd>
          <dt className="text-muted-foreground">Framework</dt>
          <dd>{frameworkLabel}</dd>
          <dt className="text-muted-foreground">Project id</dt>
          <dd className="font-mono text-xs leading-5">{project.id}</dd>
        </dl>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader title="General" description={`Project id ${project.id}`} />
      <Form layout="row" onSubmit={() => save.mutate()} error={save.error?.message}>
        <div className="w-72">
          <Field label="Project name" htmlFor="project-settings-name">
            <Input
              id="project-settings-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={100}
            />
          </Field>
        </div>
        <div className="w-64">
          <Field label="Framework" htmlFor="project-settings-framework">
            <Select
              id="project-settings-framework"
              value={framework}
              onChange={(e) => setFramework(e.target.value)}
              options={FRAMEWORKS}
            />
          </Field>
        </div>
        <SubmitButton pending={save.isPending} pendingLabel="Saving…" disabled={!changed || name.trim() === ''}>
          Save
        </SubmitButton>
      </Form>
    </Card>
  );
}

function Tokens({ project, canWrite }: { project: Project; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const connection = useQuery(connectionQuery(project.id));
  const [rotating, setRotating] = useState<TokenKind | null>(null);

  const rotate = useMutation({
    mutationFn: (kind: TokenKind) =>
      read<Partial<Connection>>(api.POST(kind.path, { params: { query: { projectId: project.id } } })),
    onSuccess: async (_answer, kind) => {
      setRotating(null);
      toast.success(`${kind.label} rotated: the previous one no longer works`);
      // The ingest token is also on the project (the switcher's list) and on /connection.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: connectionQuery(project.id).queryKey }),
        queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey }),
      ]);
    },
  });

  const hidden = connection.data?.token === HIDDEN_TOKEN;
  return (
    <Card>
      <CardHeader
        title="Tokens"
        description={
          hidden
            ? 'Hidden: your role in this organization is read-only.'
            : 'Rotating a token replaces it at once: the previous one stops working.'
        }
      />
      {connection.isLoading ? (
        <div className="grid gap-3 p-4" aria-busy="true">
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
        </div>
      ) : connection.error ? (
        <p role="alert" className="p-4 text-sm text-danger">
          {connection.error.message}
        </p>
      ) : (
        <ul className="divide-y">
          {TOKENS.map((kind) => (
            <li key={kind.key} className="grid gap-1.5 px-4 py-3">
              <div className="flex items-baseline justify-between gap-4">
                <h3 className="text-sm font-medium">{kind.label}</h3>
                <p className="text-xs text-muted-foreground">{kind.use}</p>
              </div>
              {hidden ? (
                <p className="rounded-md border bg-muted px-3 py-2 font-mono text-xs text-muted-foreground">
                  •••••••• hidden
                </p>
              ) : (
                <div className="flex items-center gap-2">
                  <CodeBlock
                    code={connection.data?.[kind.key] ?? ''}
                    label={kind.label.toLowerCase()}
                    className="min-w-0 flex-1"
                  />
                  {canWrite && (
                    <Button onClick={() => setRotating(kind)} aria-label={`Rotate ${kind.label.toLowerCase()}`}>
                      Rotate…
                    </Button>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={rotating !== null}
        onOpenChange={(open) => {
          if (!open) {
            setRotating(null);
            rotate.reset();
          }
        }}
        title={`Rotate the ${rotating?.label.toLowerCase() ?? 'token'}?`}
        description={`A new token replaces it at once. ${rotating?.use ?? ''}`}
        confirmLabel="Rotate token"
        pending={rotate.isPending}
        error={rotate.error}
        onConfirm={() => rotating && rotate.mutate(rotating)}
      />
    </Card>
  );
}

function DeleteProject({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');

  const remove = useMutation({
    mutationFn: () => read(api.DELETE('/api/projects', { params: { query: { projectId: project.id } } })),
    onSuccess: async () => {
      setOpen(false);
      toast.success(`Project ${project.name} deleted`);
      // The shell moves to another project once the list no longer has this one.
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
      void navigate({ to: '/', search: ({ projectId: _deleted, ...rest }) => rest });
    },
  });

  return (
    <Card className="border-danger/40">
      <CardHeader
        title="Delete project"
        description="Its token stops at once; its telemetry, recordings and symbol files are removed within a few minutes. This month's ingest usage stays for billing."
        actions={
          <Button variant="danger" onClick={() => setOpen(true)}>
            Delete project…
          </Button>
        }
      />
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) {
            setTyped('');
            remove.reset();
          }
        }}
        title={`Delete ${project.name}?`}
        description="This cannot be undone. Type the project's name to confirm."
        confirmLabel="Delete project"
        pending={remove.isPending}
        disabled={typed !== project.name}
        error={remove.error}
        onConfirm={() => typed === project.name && remove.mutate()}
      >
        <Field label="Project name" htmlFor="delete-project-name">
          <Input
            id="delete-project-name"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            placeholder={project.name}
            autoFocus
          />
        </Field>
      </ConfirmDialog>
    </Card>
  );
}
