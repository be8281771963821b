/**
 * Building blocks of the routes' search validators (DASHBOARD.md §1.1: a pasted or hand-edited URL
 * shows the page, never an error). TanStack Router merges the raw query string with what a
 * validator returns (`{...raw, ...validated}`), so a validator must return every key it owns —
 * `undefined` when the value is unusable — or the raw value slips through. The router also parses
 * values as JSON by default; this app keeps them as typed (`parseSearch` below), so number and flag
 * parameters read text, and a text parameter still takes a number or boolean back as text.
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

/**
 * A value the URL carries as JSON: a list or an object (`?filters=[…]`, `?open=[…]`), or a string
 * that would read as one (`?q="[1]"`). Anything else is text as typed.
 */
const STRUCTURED = /^["[{]/;

/**
 * The router's `parseSearch`: every value stays the text typed (`?q=12.50`, `?q=1e3`, `?q=null`
 * are those strings), only lists and objects are read as JSON. TanStack's default parses every
 * value as JSON (its query-string decoder even turns `12` into a number first), which turned a
 * search for "1e3" into "1000" and "12.50" into "12.5". Number and flag validators take text.
 */
export function parseSearch(searchStr: string): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, text] of new URLSearchParams(searchStr.startsWith('?') ? searchStr.slice(1) : searchStr)) {
    let value: unknown = text;
    if (STRUCTURED.test(text)) {
      try {
        value = JSON.parse(text);
      } catch {
        value = text;
      }
    }
    // A repeated key is a list, as TanStack's decoder makes it.
    const previous = query[key];
    query[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}

/** The router's `stringifySearch`, the inverse of `parseSearch`: text as is, unless it starts like JSON (then quoted). */
export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined) continue;
    params.set(
      key,
      typeof value === 'string'
        ? STRUCTURED.test(value)
          ? JSON.stringify(value)
          : value
        : value !== null && typeof value === 'object'
          ? JSON.stringify(value)
          : String(value),
    );
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
