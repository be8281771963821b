/**
 * Links to pages another part of the dashboard owns (`/traces/:id`, `/distributed-traces/:id`)
 * whose routes may not be registered in this build yet, so TanStack's typed `Link` cannot name
 * them: a plain anchor (right-click, new tab work) whose click navigates inside the app, carrying
 * the project and the time range as every link does.
 */
import { useRouter, useSearch } from '@tanstack/react-router';
import type { MouseEvent, ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** A trace id as the entity routes take it: 32 hex digits become the UUID spelling. */
export function traceUuid(id: string): string {
  const hex = id.replace(/-/g, '').toLowerCase();
  return hex.length === 32 ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : id;
}

export function AppLink({ path, children, className, title }: { path: string; children: ReactNode; className?: string; title?: string }) {
  const router = useRouter();
  const { projectId, range, from, to } = useSearch({ strict: false });
  const query = new URLSearchParams();
  if (projectId) query.set('projectId', projectId);
  if (from && to) {
    query.set('from', from);
    query.set('to', to);
  } else if (range) query.set('range', range);
  const href = `${path}?${query}`;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void router.navigate({ href });
  };
  return (
    <a href={href} onClick={onClick} title={title} className={cn('font-mono text-accent hover:underline', className)}>
      {children}
    </a>
  );
}
