import { useQuery } from '@tanstack/react-query';
import { Tabs } from 'radix-ui';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { CodeBlock } from '@/components/ui/code';
import { useCurrentProject } from '@/lib/current-project';
import { connectionQuery } from '@/lib/queries';
import { HIDDEN_TOKEN, type Connection } from '@/lib/types';
import { PageHeader } from './page-header';
import { snippetsFor } from './connection-snippets';
import { DataStatusBanner } from './data-status';

/** Everything a project needs to send data (DASHBOARD.md principle 5). */
export function ConnectionPage() {
  const { project } = useCurrentProject();
  const connection = useQuery(connectionQuery(project?.id));
  const origin = window.location.origin;

  return (
    <div className="grid grid-cols-1 gap-4 px-6 py-5">
      <PageHeader
        title="Connection"
        description={`Send telemetry to ${project?.name ?? 'this project'}: pick what your application speaks.`}
      />
      {project && <DataStatusBanner projectId={project.id} />}
      {connection.isLoading || !connection.data ? (
        <div className="grid gap-4" aria-busy="true">
          <Skeleton className="h-40" />
          <Skeleton className="h-72" />
        </div>
      ) : connection.data.token === HIDDEN_TOKEN ? (
        <Card className="p-4 text-sm text-muted-foreground">
          The project's tokens are hidden: your role in this organization is read-only. Ask a member with the write role
          for them.
        </Card>
      ) : (
        <ConnectionDetails connection={connection.data} origin={origin} />
      )}
      {connection.error && (
        <p role="alert" className="text-sm text-danger">
          {connection.error.message}
        </p>
      )}
    </div>
  );
}

function ConnectionDetails({ connection, origin }: { connection: Connection; origin: string }) {
  const snippets = snippetsFor(connection.token, origin);
  return (
    <>
      <Card>
        <CardHeader
          title="Project token"
          description="Sent with every report. Keep it in your application's configuration, not in source control."
        />
        <div className="grid gap-3 p-4">
          <CodeBlock code={connection.token} label="project token" />
          <div className="grid gap-1.5">
            <h3 className="text-xs font-medium text-muted-foreground">Connection string (native report protocol)</h3>
            <CodeBlock code={`${connection.token}@${origin}/api/report`} label="connection string" />
          </div>
          <div className="grid gap-1.5">
            <h3 className="text-xs font-medium text-muted-foreground">OpenTelemetry exporter variables</h3>
            <CodeBlock code={snippets.otlpEnv} label="OTLP variables" />
          </div>
        </div>
      </Card>
      <Card>
        <CardHeader title="Set up your application" description="Each snippet already holds this project's token." />
        <Tabs.Root defaultValue={snippets.frameworks[0]!.id} className="grid">
          <Tabs.List aria-label="Frameworks" className="flex gap-1 overflow-x-auto border-b px-3">
            {snippets.frameworks.map((f) => (
              <Tabs.Trigger
                key={f.id}
                value={f.id}
                className="-mb-px border-b-2 border-transparent px-2.5 py-2 text-sm whitespace-nowrap text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:border-accent data-[state=active]:font-medium data-[state=active]:text-foreground"
              >
                {f.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {snippets.frameworks.map((f) => (
            <Tabs.Content
              key={f.id}
              value={f.id}
              className="grid gap-3 p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
            >
              {f.steps.map((step) => (
                <div key={step.title} className="grid gap-1.5">
                  <h3 className="text-xs font-medium text-muted-foreground">{step.title}</h3>
                  <CodeBlock code={step.code} label={`${f.label}: ${step.title}`} />
                </div>
              ))}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </Card>
      <Card>
        <CardHeader
          title="Debug symbols and source maps"
          description="For symbolicated Flutter and iOS crashes and readable browser stack traces."
        />
        <div className="grid gap-2 p-4 text-sm">
          <p className="text-muted-foreground">Uploads use their own tokens, apart from the project token:</p>
          <div className="grid gap-1.5">
            <h3 className="text-xs font-medium text-muted-foreground">Symbol upload token</h3>
            <CodeBlock code={connection.uploadToken} label="symbol upload token" />
          </div>
          <div className="grid gap-1.5">
            <h3 className="text-xs font-medium text-muted-foreground">Source-map upload token</h3>
            <CodeBlock code={connection.sourceMapToken} label="source-map upload token" />
          </div>
        </div>
      </Card>
    </>
  );
}
