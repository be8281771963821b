import { useSyncExternalStore } from 'react';
import { displayTimeZone, subscribeTimeZone } from './time-zone';

/** The display zone (lib/time-zone.ts), re-rendering the caller when it changes. */
export function useDisplayTimeZone(): string {
  return useSyncExternalStore(subscribeTimeZone, displayTimeZone, displayTimeZone);
}
