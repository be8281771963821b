/**
 * Instants written for people in an organization's time zone (its `timezone` setting, IANA name,
 * UTC by default), as the dashboard writes them (DASHBOARD.md §1.6, web/src/lib/time-zone.ts):
 * month and day, a 24-hour clock. Text that leaves the dashboard — alert mail, Slack, a webhook's
 * title and lines — is read later and elsewhere, so it always has the year and names the zone
 * with its offset ("Nov 28, 2026, 21:13 (Europe/Berlin, UTC+01:00)"; "Nov 28, 2026, 20:13 UTC"):
 * the offset tells a reader in another zone, and the repeated hour when the clocks go back.
 * Machine-readable instants stay ISO 8601 UTC.
 */

/** The dashboard's fields (web/src/lib/time-zone.ts dateFormat) with the year and the zone's offset always. */
const WRITTEN: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'longOffset',
};
const formats = new Map<string, Intl.DateTimeFormat>();

/** The format of a known zone (timeZoneOrUtc) and precision, made once. */
function formatOf(zone: string, precision: InstantPrecision): Intl.DateTimeFormat {
  const key = `${zone}|${precision}`;
  const made =
    formats.get(key) ??
    new Intl.DateTimeFormat('en-US', {
      ...WRITTEN,
      timeZone: zone,
      ...(precision === 'second' ? { second: '2-digit' } : {}),
    });
  formats.set(key, made);
  return made;
}

export type InstantPrecision = 'minute' | 'second';

/** True for a zone name the runtime can format in (IANA names, "UTC"). */
export function isTimeZone(name: string): boolean {
  try {
    // Not through the cache: the settings route checks any text with it.
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone name as written in the time zone database when `name` differs from it only in case
 * ("europe/berlin" → "Europe/Berlin", "utc" → "UTC"), so that every page and notification writes
 * it one way; any other name as given (the runtime resolves Asia/Kolkata to its older name
 * Asia/Calcutta, which a person in Kolkata would not choose).
 */
export function canonicalTimeZone(name: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

/** The zone of an organization's stored `timezone` setting: the setting when it names a known zone, else UTC. */
export const timeZoneOrUtc = (setting: unknown): string =>
  typeof setting === 'string' && setting !== '' && isTimeZone(setting) ? setting : 'UTC';

/**
 * An instant in the zone, to the minute or the second, the zone named: "Nov 28, 2026, 21:13
 * (Europe/Berlin, UTC+01:00)", or "Nov 28, 2026, 20:13 UTC" for UTC (and its aliases). A zone the
 * runtime does not know is written as UTC.
 */
export function formatInstantInZone(at: Date, zone: string, precision: InstantPrecision = 'minute'): string {
  const known = timeZoneOrUtc(zone);
  const format = formatOf(known, precision);
  const parts = format.formatToParts(at);
  const offset = parts.find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const wallClock = parts
    .filter((part) => part.type !== 'timeZoneName')
    .map((part) => part.value)
    .join('')
    .trim();
  if (format.resolvedOptions().timeZone === 'UTC') return `${wallClock} UTC`;
  // "GMT+05:30", or "GMT" alone where the zone runs at UTC's time (London in winter).
  return `${wallClock} (${known}, ${offset === 'GMT' ? 'UTC+00:00' : offset.replace(/^GMT/, 'UTC')})`;
}
