/** How an entity (endpoint call, task run, AI trace) is named and its status shown on the trace pages. */
import { Link } from '@tanstack/react-router';
import { linkStyles } from '@/components/ui/link';
import { cn } from '@/lib/utils';
import type { DistributedEntity } from './types';

type EntityLike = Pick<DistributedEntity, 'kind' | 'id' | 'name'>;

/** The entity's name, linking to the page of all its calls (endpoint, task) or to the AI call itself. */
export function EntityName({ entity, className }: { entity: EntityLike; className?: string }) {
  const props = {
    className: cn(linkStyles.plain, className),
    title: `All about ${entity.name}`,
    children: entity.name || '(unnamed)',
  };
  if (entity.kind === 'endpoint') return <Link to="/endpoints/detail" search={{ name: entity.name }} {...props} />;
  if (entity.kind === 'task') return <Link to="/tasks/detail" search={{ name: entity.name }} {...props} />;
  return <Link to="/ai-traces/$id" params={{ id: entity.id }} {...props} />;
}

export function StatusBadge({ kind, statusCode }: { kind: DistributedEntity['kind']; statusCode: number }) {
  const failed = statusCode >= 500;
  const label = kind === 'endpoint' ? (statusCode === 0 ? 'no status' : String(statusCode)) : failed ? 'failed' : 'ok';
  return (
    <span
      className={cn(
        'inline-flex h-5 items-center rounded border px-1.5 font-mono text-xs',
        // A border carries the colour, so the figure keeps the contrast of text on the panel.
        failed
          ? 'border-danger/60 text-danger'
          : statusCode >= 400
            ? 'border-warning text-foreground'
            : 'text-muted-foreground',
      )}
      data-testid="status"
    >
      {label}
    </span>
  );
}
