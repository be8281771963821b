/**
 * Building blocks of the routes' search validators (DASHBOARD.md §1.1: a pasted or hand-edited URL
 * shows the page, never an error). TanStack Router merges the raw query string with what a
 * validator returns (`{...raw, ...validated}`), so a validator must return every key it owns —
 * `undefined` when the value is unusable — or the raw value slips through. The router also parses
 * `?q=500` as the number 500 and `?q=true` as a boolean: text parameters take those back as text.
 */

/** The longest text the list routes accept in a search (their `search` maxLength). */
export const MAX_TEXT = 500;

/** A text parameter: a non-blank string (cut to `max`), a number or boolean as its text, else undefined. */
export function textParam(value: unknown, max: number = MAX_TEXT): string | undefined {
  const text =
    typeof value === 'string'
      ? value
      : (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean'
        ? String(value)
        : undefined;
  return text !== undefined && text.trim() !== '' ? text.slice(0, max) : undefined;
}

/** A number parameter given as a number or as its text; NaN for anything else. */
export function numberParam(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

/** A page number past the first (the first is the URL without one); undefined for 1 or anything malformed. */
export function pageParam(value: unknown): number | undefined {
  const page = numberParam(value);
  return Number.isSafeInteger(page) && page > 1 ? page : undefined;
}

/** `value` when it is one of `allowed`, else undefined. */
export function oneOf<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

/** A true flag (`?live=true`, `?live=1`); undefined otherwise. */
export function flagParam(value: unknown): true | undefined {
  return value === true || value === 'true' || value === 1 || value === '1' ? true : undefined;
}
