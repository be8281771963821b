/**
 * The replay player as pages embed it: rrweb-player is fetched only when a replay is shown (its
 * own chunk, replay-player.tsx), with a skeleton of the player's shape meanwhile.
 */
import { type ComponentProps, lazy, Suspense } from 'react';
import { Skeleton } from '@/components/ui/card';

const ReplayPlayer = lazy(() => import('./replay-player').then((module) => ({ default: module.ReplayPlayer })));

export function LazyReplayPlayer(props: ComponentProps<typeof ReplayPlayer>) {
  return (
    <Suspense fallback={<PlayerSkeleton />}>
      <ReplayPlayer {...props} />
    </Suspense>
  );
}

export function PlayerSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading the replay">
      <Skeleton className="aspect-video w-full rounded-none" />
      <div className="flex items-center gap-3 border-t px-3 py-2">
        <Skeleton className="size-8" />
        <Skeleton className="h-3 flex-1" />
      </div>
    </div>
  );
}
