/**
 * OpenTelemetry log severity levels: each covers four numbers (ERROR is 17–20), the first of which
 * is the level itself; the API stores and filters by the number. The logs page and the alert
 * rule dialog both offer them from here.
 */
export const SEVERITY_LEVELS = [
  { value: 1, name: 'TRACE', label: 'Trace' },
  { value: 5, name: 'DEBUG', label: 'Debug' },
  { value: 9, name: 'INFO', label: 'Info' },
  { value: 13, name: 'WARN', label: 'Warn' },
  { value: 17, name: 'ERROR', label: 'Error' },
  { value: 21, name: 'FATAL', label: 'Fatal' },
] as const;

/** The level a severity number falls in (TRACE for 1–4), or undefined below 1 (unset). */
export const severityLevelOf = (severity: number) =>
  [...SEVERITY_LEVELS].reverse().find((level) => level.value <= severity);
