/** How an entity (endpoint call, task run, AI trace) is named and its status shown on the trace pages. */
import { cn } from '@/lib/utils';
import { ScopedLink } from './scoped-link';
import type { DistributedEntity } from './types';

type EntityLike = Pick<DistributedEntity, 'kind' | 'id' | 'name'>;

/** The entity's name, linking to the page of all its calls (endpoint, task) or to the AI call itself. */
export function EntityName({ entity, className }: { entity: EntityLike; className?: string }) {
  const [path, query] =
    entity.kind === 'endpoint' ? ['/endpoints/detail', { name: entity.name }] : entity.kind === 'task' ? ['/tasks/detail', { name: entity.name }] : [`/ai-traces/${entity.id}`, {}];
  return (
    <ScopedLink path={path} query={query} className={cn('hover:underline', className)} title={`All about ${entity.name}`}>
      {entity.name || '(unnamed)'}
    </ScopedLink>
  );
}

export function StatusBadge({ kind, statusCode }: { kind: DistributedEntity['kind']; statusCode: number }) {
  const failed = statusCode >= 500;
  const label = kind === 'endpoint' ? (statusCode === 0 ? 'no status' : String(statusCode)) : failed ? 'failed' : 'ok';
  return (
    <span
      className={cn(
        'inline-flex h-5 items-center rounded border px-1.5 font-mono text-xs',
        // A border carries the colour, so the figure keeps the contrast of text on the panel.
        failed ? 'border-danger/60 text-danger' : statusCode >= 400 ? 'border-warning text-foreground' : 'text-muted-foreground',
      )}
      data-testid="status"
    >
      {label}
    </span>
  );
}
