import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { CodeBlock } from '@/components/ui/code';
import { ConfirmDialog, ItemConfirm } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/input';
import { toast } from '@/components/shell/toasts';
import { api, read } from '@/lib/api';
import { forgetProjects, useCurrentProject } from '@/lib/current-project';
import { connectionQuery, meQuery, projectsQuery } from '@/lib/queries';
import { FRAMEWORKS, HIDDEN_TOKEN, type Connection, type Project } from '@/lib/types';
import { useRowAction } from '@/lib/use-row-action';
import { GeneralSettingsCard, type GeneralDraft } from './general-settings';
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
    <div className="grid grid-cols-1 gap-4 px-6 py-5">
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
  const save = useMutation({
    mutationFn: ({ name, choice }: GeneralDraft) =>
      read<Project>(
        api.PUT('/api/projects', {
          params: { query: { projectId: project.id } },
          body: { name, framework: choice },
        }),
      ),
    onSuccess: async (saved) => {
      toast.success(`Project ${saved.name} saved`);
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
    },
  });
  const frameworkLabel = FRAMEWORKS.find((f) => f.value === project.framework)?.label ?? project.framework;
  return (
    <GeneralSettingsCard
      editable={canWrite}
      description={`Project id ${project.id}`}
      facts={[
        { term: 'Name', value: project.name },
        { term: 'Framework', value: frameworkLabel },
        { term: 'Project id', value: project.id, mono: true },
      ]}
      saved={{ name: project.name, choice: project.framework }}
      nameField={{ label: 'Project name', id: 'project-settings-name' }}
      choiceField={{ label: 'Framework', id: 'project-settings-framework', options: FRAMEWORKS }}
      save={save}
    />
  );
}

function Tokens({ project, canWrite }: { project: Project; canWrite: boolean }) {
  const connection = useQuery(connectionQuery(project.id));
  const rotate = useRowAction({
    call: (kind: TokenKind) =>
      read<Partial<Connection>>(api.POST(kind.path, { params: { query: { projectId: project.id } } })),
    // The ingest token is also on the project (the switcher's list) and on /connection.
    refresh: [connectionQuery(project.id).queryKey, projectsQuery.queryKey],
    success: (kind) => `${kind.label} rotated: the previous one no longer works`,
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
            <li key={kind.key} className="grid grid-cols-1 gap-1.5 px-4 py-3">
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
                    <Button onClick={() => rotate.ask(kind)} aria-label={`Rotate ${kind.label.toLowerCase()}`}>
                      Rotate…
                    </Button>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <ItemConfirm
        action={rotate}
        title={`Rotate the ${rotate.item?.label.toLowerCase() ?? 'token'}?`}
        description={`A new token replaces it at once. ${rotate.item?.use ?? ''}`}
        confirmLabel="Rotate token"
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
      // Before: the shell, still on its URL, said "You have no access to project …" once the list lost it.
      forgetProjects([project.id]);
      const lastOfOrganization = !(queryClient.getQueryData(projectsQuery.queryKey) ?? []).some(
        (other) => other.organizationId === project.organizationId && other.id !== project.id,
      );
      // The shell moves to another project once the list no longer has this one.
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey });
      // The organization's last project: its page, which offers a first project again (before: home,
      // which showed a project of another organization, or only "Welcome").
      if (lastOfOrganization)
        void navigate({
          to: '/settings/organization',
          search: ({ projectId: _deleted, ...rest }) => ({ ...rest, organization: project.organizationId }),
        });
      else void navigate({ to: '/', search: ({ projectId: _deleted, ...rest }) => rest });
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
        <TextField
          label="Project name"
          id="delete-project-name"
          value={typed}
          onValue={setTyped}
          autoComplete="off"
          placeholder={project.name}
          autoFocus
        />
      </ConfirmDialog>
    </Card>
  );
}
