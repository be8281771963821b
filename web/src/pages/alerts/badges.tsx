import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';
import type { AlertEvent, AlertRule } from './types';

/** A quiet badge: body text on muted ground, the meaning in a coloured dot (contrast holds in both themes). */
function Dot({ className }: { className: string }) {
  return <span className={cn('size-1.5 shrink-0 rounded-full', className)} aria-hidden />;
}

const badge = 'inline-flex items-center gap-1.5 rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap';

/** A rule's state: firing stands out in solid red; ok and resolved stay quiet. */
export function RuleStateBadge({ state }: { state: AlertRule['state'] | AlertEvent['state'] }) {
  if (state === 'firing') {
    return (
      <span data-rule-state={state} className={cn(badge, 'bg-danger text-white dark:text-background')}>
        {state}
      </span>
    );
  }
  return (
    <span data-rule-state={state} className={cn(badge, 'bg-muted text-muted-foreground')}>
      {state === 'test' && <Dot className="bg-accent" />}
      {state}
    </span>
  );
}

/** A quiet badge with its meaning in a dot; `data` names it for tests and styles (data-outcome=…). */
function DotBadge({ data, dot, children }: { data: Record<string, string | null>; dot: string; children: ReactNode }) {
  return (
    <span {...data} className={cn(badge, 'bg-muted text-foreground')}>
      <Dot className={dot} />
      {children}
    </span>
  );
}

export function OutcomeBadge({ outcome }: { outcome: AlertEvent['outcome'] }) {
  const dot = outcome === 'delivered' ? 'bg-success' : outcome === 'failed' ? 'bg-danger' : 'bg-warning';
  return (
    <DotBadge data={{ 'data-outcome': outcome }} dot={dot}>
      {outcome}
    </DotBadge>
  );
}

/** A person's action on a rule: acknowledged (on it) or resolved by hand. */
export function ActionBadge({ action }: { action: NonNullable<AlertEvent['action']> }) {
  return (
    <DotBadge data={{ 'data-action': action }} dot={action === 'resolved' ? 'bg-success' : 'bg-accent'}>
      {action === 'resolved' ? 'resolved by hand' : 'acknowledged'}
    </DotBadge>
  );
}

/** What a delivery of a firing rule told beyond its state: a reminder, or someone's acknowledgement. */
export function NoticeBadge({ notice }: { notice: NonNullable<AlertEvent['notice']> }) {
  return (
    <DotBadge data={{ 'data-notice': notice }} dot={notice === 'reminder' ? 'bg-warning' : 'bg-accent'}>
      {notice === 'reminder' ? 'reminder' : 'acknowledgement'}
    </DotBadge>
  );
}
