/**
 * What the dashboard shows when something other than the data is wrong (DASHBOARD.md §1.7–8):
 * the service cannot be reached (with a retry, and retrying by itself), a page failed to draw
 * (the router's error boundary, inside the shell), and a detail page whose id names nothing (the
 * way back to its list, keeping project and range).
 */
import { useQueryClient } from '@tanstack/react-query';
import { type ErrorComponentProps, Link, useRouter, useRouterState } from '@tanstack/react-router';
import { AlertTriangle, SearchX, WifiOff } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { cn } from '@/lib/utils';
import { Button } from './button';
import { linkStyles } from './link';

/** How often the unreachable states try again by themselves. */
export const RETRY_EVERY_MS = 5_000;

/** The code of a page could not be fetched (the service is down, or a new version replaced the file). */
export class PageLoadError extends Error {
  constructor(cause: unknown) {
    // Not the browser's wording: TanStack's lazyRouteComponent reloads the window on that, which
    // with the service down lands on the browser's own "site can't be reached".
    super(`The code of this page could not be loaded (${cause instanceof Error ? cause.message : String(cause)})`, {
      cause,
    });
    this.name = 'PageLoadError';
  }
}

/** A request that never got an answer: fetch's TypeError ("Failed to fetch"), or a page's code that did not load. */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof PageLoadError) return true;
  return (
    error instanceof TypeError &&
    /failed to fetch|networkerror|network request failed|load failed|dynamically imported module|importing a module script/i.test(
      error.message,
    )
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The detail routes take UUIDs (a trace's 32 hex digits are accepted in that spelling by the caller). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** Whether the service answers at all (any HTTP status counts). */
export async function serviceAnswers(): Promise<boolean> {
  try {
    await fetch('/health', { cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/** Runs `retry` every RETRY_EVERY_MS while mounted. */
function useRetrying(retry: () => void): void {
  useEffect(() => {
    const timer = window.setInterval(retry, RETRY_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [retry]);
}

/** Refetches every query that failed: the panels' own, and the account's (/api/me, the projects). */
export function useRetryFailedQueries(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' });
  };
}

/** The service does not answer: where the dashboard is looking, that it keeps trying, and a Retry now. */
export function UnreachableState({
  onRetry,
  className,
  compact = false,
}: {
  onRetry: () => void | Promise<void>;
  className?: string;
  /** In a panel (the shared ErrorState) rather than in place of a page. */
  compact?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const retry = async () => {
    setBusy(true);
    try {
      await onRetry();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div
      role="alert"
      data-testid="unreachable"
      className={cn(
        'flex items-start gap-3 rounded-lg border border-warning/50 bg-warning/5 px-4 py-3 text-sm',
        !compact && 'mx-6 my-5 max-w-2xl',
        className,
      )}
    >
      <WifiOff className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
      <div className="grid gap-0.5">
        <p className="font-medium">
          Cannot reach Sightline at <span className="font-mono">{window.location.origin}</span> — retrying…
        </p>
        <p className="text-muted-foreground">
          The service does not answer: it may be stopped or restarting, or the network is down. This page tries again
          every few seconds and fills in by itself once the service is back.
        </p>
        <div className="mt-1.5">
          <Button size="sm" onClick={() => void retry()} disabled={busy}>
            {busy ? 'Retrying…' : 'Retry'}
          </Button>
        </div>
      </div>
    </div>
  );
}

/**
 * The router's error boundary (defaultErrorComponent): inside the shell, what happened, a Retry,
 * and the error's own message under "Details". A page whose code could not be fetched waits for
 * the service and then reloads (a fresh start also picks up a new version's files).
 */
export function RouteErrorState({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const retryQueries = useRetryFailedQueries();
  const network = isNetworkError(error);

  const retry = async () => {
    if (error instanceof PageLoadError || !network) {
      if (error instanceof PageLoadError) {
        if (await serviceAnswers()) window.location.reload();
        return;
      }
      reset();
      await router.invalidate();
      return;
    }
    await retryQueries();
    reset();
    await router.invalidate();
  };

  if (network) return <NetworkRetry retry={retry} />;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="px-6 py-5">
      <div
        role="alert"
        data-testid="page-error"
        className="flex max-w-2xl items-start gap-3 rounded-lg border border-danger/40 bg-danger/5 px-4 py-3 text-sm"
      >
        <AlertTriangle className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
        <div className="grid min-w-0 gap-1">
          <p className="font-medium">This page hit an error and could not be shown</p>
          <p className="text-muted-foreground">
            Something in the dashboard failed while drawing it; the rest of the app still works. Retry, or pick another
            page from the sidebar.
          </p>
          <details className="text-muted-foreground">
            <summary className="cursor-pointer select-none">Details</summary>
            <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-muted px-2 py-1.5 font-mono text-xs text-foreground">
              {message}
            </pre>
          </details>
          <div className="mt-1">
            <Button size="sm" onClick={() => void retry()}>
              Retry
            </Button>
          </div>
        </div>
      </div>
    </div>
  );
}

function NetworkRetry({ retry }: { retry: () => Promise<void> }) {
  useRetrying(() => void retry());
  return <UnreachableState onRetry={retry} />;
}

/** Retries failed queries every few seconds while shown (the shared ErrorState's network case). */
export function PanelUnreachable({ className }: { className?: string }) {
  const retry = useRetryFailedQueries();
  useRetrying(() => void retry());
  return <UnreachableState compact className={className} onRetry={retry} />;
}

/** The kinds of detail page, each with its list to go back to. */
const KINDS = {
  trace: {
    title: 'Trace not found',
    check:
      'Check the id in the address: it may be mistyped, belong to another project, or be older than the data kept.',
    to: '/endpoints',
    back: 'Endpoints',
  },
  distributedTrace: {
    title: 'Distributed trace not found',
    check:
      'Check the id in the address: it may be mistyped, belong to another project, or be older than the data kept.',
    to: '/endpoints',
    back: 'Endpoints',
  },
  aiTrace: {
    title: 'AI trace not found',
    check:
      'Check the id in the address: it may be mistyped, belong to another project, or be older than the data kept.',
    to: '/ai-traces',
    back: 'AI traces',
  },
  session: {
    title: 'Session not found',
    check:
      'Check the id in the address: it may be mistyped, belong to another project, or be older than the data kept. A session that just started can take a minute to appear.',
    to: '/sessions',
    back: 'Sessions',
  },
  dashboard: {
    title: 'Dashboard not found',
    check: 'It may have been deleted, or it belongs to another project. Check the id in the address.',
    to: '/dashboards',
    back: 'All dashboards',
  },
} as const;

export type DetailKind = keyof typeof KINDS;

/** A detail page's id names nothing (the API's 404, or an id that is not one): what to check and the way back. */
export function NotFoundState({
  kind,
  id,
  children,
  reason,
}: {
  kind: DetailKind;
  id?: string;
  children?: ReactNode;
  /** Why it is not found, when the page knows (a session older than kept): said instead of what to check. */
  reason?: { title: string; explanation: ReactNode };
}) {
  const what = KINDS[kind];
  return (
    <div className="px-6 py-5">
      <div data-testid="not-found" className="grid max-w-2xl gap-2 rounded-lg border bg-panel px-5 py-4 text-sm">
        <div className="flex items-center gap-2">
          <SearchX className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <h1 className="text-base font-semibold">{reason?.title ?? what.title}</h1>
        </div>
        {id !== undefined && (
          <p className="break-all font-mono text-xs text-muted-foreground">
            <span className="sr-only">Id: </span>
            {id}
          </p>
        )}
        <p className="text-muted-foreground">{reason?.explanation ?? what.check}</p>
        {children}
        <p>
          <Link to={what.to} className={linkStyles.accent}>
            ← {what.back}
          </Link>
        </p>
      </div>
    </div>
  );
}

/** A detail route's not-found state (its notFoundComponent), with the id from the URL. */
function RouteNotFound({ kind }: { kind: DetailKind }) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const last = pathname.split('/').pop() ?? '';
  let id = last;
  try {
    id = decodeURIComponent(last);
  } catch {
    /* a malformed escape: show it as written */
  }
  return <NotFoundState kind={kind} id={id} />;
}

export const DETAIL_NOT_FOUND: Record<DetailKind, () => ReactNode> = {
  trace: () => <RouteNotFound kind="trace" />,
  distributedTrace: () => <RouteNotFound kind="distributedTrace" />,
  aiTrace: () => <RouteNotFound kind="aiTrace" />,
  session: () => <RouteNotFound kind="session" />,
  dashboard: () => <RouteNotFound kind="dashboard" />,
};
