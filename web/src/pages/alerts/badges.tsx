import { cn } from '@/lib/utils';
import type { AlertEvent, AlertRule } from './types';

/** A rule's state: firing stands out in red; ok and resolved stay quiet. */
export function RuleStateBadge({ state }: { state: AlertRule['state'] | AlertEvent['state'] }) {
  return (
    <span
      data-state={state}
      className={cn(
        'inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap',
        state === 'firing' ? 'bg-danger/10 text-danger' : state === 'test' ? 'bg-accent-soft text-accent' : 'bg-muted text-muted-foreground',
      )}
    >
      {state === 'firing' && <span className="size-1.5 rounded-full bg-danger" aria-hidden />}
      {state}
    </span>
  );
}

export function OutcomeBadge({ outcome }: { outcome: AlertEvent['outcome'] }) {
  return (
    <span
      data-outcome={outcome}
      className={cn(
        'rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap',
        outcome === 'delivered' ? 'bg-success/10 text-success' : outcome === 'failed' ? 'bg-danger/10 text-danger' : 'bg-warning/10 text-warning',
      )}
    >
      {outcome}
    </span>
  );
}
