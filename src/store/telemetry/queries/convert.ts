/**
 * What every converter from telemetry rows to domain items shares: one timestamp conversion and
 * one reading of the nil UUID. Each resource's converters sit beside its queries
 * (`<resource>.convert.ts`), so a query module returns camelCase domain items only.
 */
import { NIL_UUID } from '../../../core/records.js';

/** `YYYY-MM-DD hh:mm:ss[.f...]` (UTC, ClickHouse's JSON form of DateTime64) as RFC 3339. */
export function isoOf(value: string | null): string | null {
  if (!value) return null;
  return `${value.replace(' ', 'T')}Z`;
}

export const nullIfNil = (value: string): string | null => (value === NIL_UUID || value === '' ? null : value);
