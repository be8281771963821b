/** Spellings of the ids pages pass between each other. */

/** A trace id as the entity routes take it: 32 hex digits (OTLP's spelling, as logs carry it) become the UUID spelling. */
export function traceUuid(id: string): string {
  const hex = id.replace(/-/g, '').toLowerCase();
  return hex.length === 32
    ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    : id;
}
