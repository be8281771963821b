/**
 * The replay player as pages embed it: rrweb-player is fetched only when a replay is shown (its
 * own chunk, replay-player.tsx), with a skeleton of the player's shape meanwhile.
 */
import { type ComponentProps, lazy, Suspense } from 'react';
import { Skeleton } from '@/components/ui/card';

/** The stage's height where another page embeds the replay in a card (the issue page), shorter than the session page's. */
export const EMBEDDED_PLAYER_HEIGHT = 400;

const ReplayPlayer = lazy(() => import('./replay-player').then((module) => ({ default: module.ReplayPlayer })));

export function LazyReplayPlayer(props: ComponentProps<typeof ReplayPlayer>) {
  return (
    <Suspense fallback={<PlayerSkeleton maxHeight={props.maxHeight} />}>
      <ReplayPlayer {...props} />
    </Suspense>
  );
}

/** The player's shape: its stage (as tall as the player will be, up to `maxHeight` px) and its control bar. */
export function PlayerSkeleton({ maxHeight }: { maxHeight?: number }) {
  return (
    <div role="status" aria-busy="true" aria-label="Loading the replay">
      <Skeleton className="aspect-video w-full rounded-none" style={maxHeight ? { maxHeight } : undefined} />
      <div className="flex items-center gap-3 border-t px-3 py-2">
        <Skeleton className="size-8" />
        <Skeleton className="h-3 flex-1" />
      </div>
    </div>
  );
}
