/**
 * What a page shows when it is not showing data (DASHBOARD.md §1.7–8): skeletons of the final
 * layout while loading, the server's own message on an error (403 names the role needed, 422 says
 * how to narrow the query), and an empty state that says what would fill the page.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { AlertTriangle, Inbox } from 'lucide-react';
import type { ReactNode } from 'react';
import { ApiError } from '@/lib/api';
import { cn } from '@/lib/utils';
import { Skeleton } from './card';
import { isNetworkError, PanelUnreachable } from './problem-states';

/** `action` offers the way out next to the message (for example narrowing a 422's range). */
export function ErrorState({ error, className, action }: { error: unknown; className?: string; action?: ReactNode }) {
  // No answer at all (fetch's "Failed to fetch"): say so, and retry, rather than show the browser's words.
  if (isNetworkError(error)) return <PanelUnreachable className={className} />;
  const status = error instanceof ApiError ? error.status : undefined;
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  const title =
    status === 403
      ? 'You do not have access to this'
      : status === 422
        ? 'This query cannot run as it is'
        : status === 404
          ? 'Not found'
          : 'Could not load this';
  const hint =
    status === 403
      ? forbiddenHint(message)
      : status === 422
        ? 'Narrow the time range or the filters and try again.'
        : undefined;
  return (
    <div
      role="alert"
      className={cn(
        'flex items-start gap-3 rounded-lg border border-danger/40 bg-danger/5 px-4 py-3 text-sm',
        className,
      )}
    >
      <AlertTriangle className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
      <div className="grid gap-0.5">
        <p className="font-medium">{title}</p>
        <p className="text-muted-foreground">{message}</p>
        {hint && <p className="text-muted-foreground">{hint}</p>}
        {action && <div className="mt-1.5">{action}</div>}
      </div>
    </div>
  );
}

/**
 * What to do about a 403, from the service's reason: a role is an administrator's to give; a
 * CLI token used as the dashboard's credential needs a sign-in instead (before: every 403 said
 * to ask for a role); a suspended organization or closed registration say enough themselves.
 */
function forbiddenHint(message: string): string | undefined {
  if (message === 'Access denied' || / role /.test(message))
    return 'Ask an administrator of the organization for a role that can see it.';
  if (/dashboard session/.test(message))
    return 'A CLI token cannot do this: sign in to the dashboard, or use a personal access token.';
  return undefined;
}

export function EmptyState({
  title,
  children,
  className,
}: {
  title: string;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('grid justify-items-center gap-2 px-6 py-10 text-center', className)}>
      <Inbox className="size-6 text-muted-foreground" aria-hidden />
      <p className="text-sm font-medium">{title}</p>
      {/* Links inside the explanation are underlined: colour alone does not tell them from text. */}
      {children && (
        <div className="max-w-md text-sm text-muted-foreground [&_a]:underline [&_a]:underline-offset-2">
          {children}
        </div>
      )}
    </div>
  );
}

/** Rows of grey bars shaped like the table that will replace them. */
export function TableSkeleton({ rows = 8, columns = 5 }: { rows?: number; columns?: number }) {
  return (
    <div role="status" aria-busy="true" aria-label="Loading" className="grid gap-px">
      {Array.from({ length: rows }, (_, row) => (
        <div key={row} className="flex h-9 items-center gap-4 border-b px-3 last:border-b-0">
          {Array.from({ length: columns }, (_, column) => (
            <Skeleton key={column} className={cn('h-3.5', column === 0 ? 'flex-[3]' : 'flex-1')} />
          ))}
        </div>
      ))}
    </div>
  );
}

/** A list's body: its skeleton while loading, the server's message on failure, `empty` without rows, else `children`. */
export function QueryBody({
  query,
  rows = 3,
  columns = 4,
  empty,
  children,
}: {
  query: UseQueryResult<readonly unknown[] | undefined>;
  rows?: number;
  columns?: number;
  empty: ReactNode;
  children: ReactNode;
}) {
  if (query.isPending) return <TableSkeleton rows={rows} columns={columns} />;
  if (query.isError) return <ErrorState error={query.error} className="m-4" />;
  if (!query.data || query.data.length === 0) return empty;
  return children;
}
