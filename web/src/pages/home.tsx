import { Link } from '@tanstack/react-router';
import { ArrowRight, Cable } from 'lucide-react';
import { Card, CardHeader } from '@/components/ui/card';
import { useCurrentProject } from '@/lib/current-project';
import { resolveRange, formatInstant } from '@/lib/time-range';
import { useSearch } from '@tanstack/react-router';
import { DataStatusBanner } from './data-status';
import { PageHeader } from './page-header';

const FIGURES = ['Requests', 'Error rate', 'P95 latency', 'Issues', 'AI cost'];

export function HomePage() {
  const { project, projects } = useCurrentProject();
  const search = useSearch({ strict: false });
  const range = resolveRange(search);

  if (projects && projects.length === 0) {
    return (
      <div className="grid gap-4 px-6 py-5">
        <PageHeader title="Welcome to Sightline" description="You are not a member of any project yet. Create one from the project menu, or ask an administrator to invite you." />
      </div>
    );
  }

  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title={project?.name ?? 'Home'}
        description={
          <span className="tabular">
            {formatInstant(range.from)} – {formatInstant(range.to)}
          </span>
        }
      />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
        {FIGURES.map((figure) => (
          <Card key={figure} className="grid gap-1 px-4 py-3">
            <span className="text-xs text-muted-foreground">{figure}</span>
            <span className="text-xl font-semibold text-muted-foreground tabular">—</span>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader title="Send your first data" description="Home fills with requests, errors and issues once the project receives telemetry." />
        {project && <DataStatusBanner projectId={project.id} className="mx-4 mt-4" />}
        <div className="flex flex-wrap items-center justify-between gap-4 px-4 py-4">
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Cable className="size-4" aria-hidden />
            The project's token, connection string, OTLP variables and a snippet for your framework.
          </p>
          <Link
            to="/connection"
            className="inline-flex h-8 items-center gap-1.5 rounded-md bg-accent px-3 text-sm font-medium text-accent-foreground outline-none hover:bg-accent/90 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1"
          >
            Connect {project?.name ?? 'the project'}
            <ArrowRight className="size-4" aria-hidden />
          </Link>
        </div>
      </Card>
      <p className="text-xs text-muted-foreground">Series, top endpoints and newest issues are coming in this release.</p>
    </div>
  );
}
