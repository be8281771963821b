import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export function Card({ className, ...props }: ComponentProps<'section'>) {
  return <section className={cn('rounded-lg border bg-panel', className)} {...props} />;
}

export function CardHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: string;
  actions?: React.ReactNode;
}) {
  return (
    <header className="flex items-start justify-between gap-4 border-b px-4 py-3 max-sm:flex-wrap">
      <div className="grid gap-0.5">
        <h2 className="text-sm font-semibold">{title}</h2>
        {description && <p className="text-xs text-muted-foreground">{description}</p>}
      </div>
      {actions}
    </header>
  );
}

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />;
}

/**
 * What a list shows before its rows: a skeleton while loading, the server's message on failure.
 * Null once the data is there, so the caller renders its rows or its empty state.
 */
export function ListPending({ query }: { query: { isLoading: boolean; error: Error | null } }) {
  if (query.isLoading) {
    return (
      <div className="grid gap-2 p-4" aria-busy="true">
        <Skeleton className="h-6" />
      </div>
    );
  }
  if (query.error) {
    return (
      <p role="alert" className="p-4 text-sm text-danger">
        {query.error.message}
      </p>
    );
  }
  return null;
}
