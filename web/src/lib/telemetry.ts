/**
 * The scope of every telemetry page: the project and the time range from the URL, turned into the
 * read API's `projectId`, `fromDate` and `toDate`. A preset ("last 24 h") is resolved when a query
 * runs, not when the page renders, so its cache key stays stable while the window slides.
 */
import { useSearch } from '@tanstack/react-router';
import { resolveRange, type RangeSearch } from './time-range';

export interface TelemetryScope {
  projectId: string;
  range: RangeSearch;
}

/** The scope a URL's search names, or undefined without a project (what route loaders read). */
export function scopeOf(search: RangeSearch & { projectId?: string }): TelemetryScope | undefined {
  const { projectId, range, from, to } = search;
  if (projectId === undefined) return undefined;
  return {
    projectId,
    range: from !== undefined && to !== undefined ? { from, to } : range !== undefined ? { range } : {},
  };
}

/** The page's scope, or undefined while the shell has not yet put a project into the URL. */
export function useTelemetryScope(): TelemetryScope | undefined {
  return scopeOf(useSearch({ strict: false }));
}

/** The part of a query key that names the scope (a preset by its name, a custom range by its ends). */
export function scopeKey(scope: TelemetryScope | undefined): readonly unknown[] {
  return [scope?.projectId, scope?.range.range ?? null, scope?.range.from ?? null, scope?.range.to ?? null];
}

/** `projectId`, `fromDate`, `toDate` for a read route, the window resolved now. */
export function scopeParams(
  scope: TelemetryScope,
  now: number = Date.now(),
): { projectId: string; fromDate: string; toDate: string } {
  const { from, to } = resolveRange(scope.range, now);
  return { projectId: scope.projectId, fromDate: from.toISOString(), toDate: to.toISOString() };
}

/** The window before this one, of the same length: the baseline of "change against the previous range". */
export function previousParams(
  scope: TelemetryScope,
  now: number = Date.now(),
): { projectId: string; fromDate: string; toDate: string } {
  const { from, to } = resolveRange(scope.range, now);
  const length = to.getTime() - from.getTime();
  return {
    projectId: scope.projectId,
    fromDate: new Date(from.getTime() - length).toISOString(),
    toDate: from.toISOString(),
  };
}
