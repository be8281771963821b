/**
 * Classes of the dashboard's links (TanStack's typed `Link`), so an id links the same way on every
 * page: accent colour, a focus ring for the keyboard, underline on hover.
 */
const BASE = 'rounded-sm outline-none focus-visible:ring-2 focus-visible:ring-ring';

export const linkStyles = {
  /** Text that already reads as a link where it stands (a title in a table, a heading). */
  plain: `${BASE} hover:underline`,
  /** A name or an action in a table, a header or a detail grid. */
  accent: `${BASE} text-accent hover:underline`,
  /** An id: the accent link in monospace. */
  id: `${BASE} font-mono text-accent hover:underline`,
  /** Among words: colour alone does not set a link apart from its sentence (axe link-in-text-block). */
  inText: `${BASE} text-accent underline underline-offset-2`,
} as const;
