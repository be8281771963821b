/**
 * ISO 8601 instants as the API takes them (`fromDate`, `until`, `snoozedUntil`): a calendar date
 * first, then whatever Date.parse reads (time, fraction, offset). Date.parse alone rolls an
 * impossible date over (`2024-02-30` is March 1, `T24:00` the next day), so the date and time
 * fields are checked to be real first.
 */
const FIELDS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;

/** The instant in epoch milliseconds, or null when the text is not an ISO 8601 instant. */
export function parseIsoInstant(text: string): number | null {
  const fields = FIELDS.exec(text);
  if (fields === null) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = fields.slice(1).map((field) => Number(field ?? 0));
  const calendar = new Date(Date.UTC(year!, month! - 1, day!));
  if (calendar.getUTCMonth() !== month! - 1 || calendar.getUTCDate() !== day!) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}
