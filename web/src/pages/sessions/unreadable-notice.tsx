/**
 * Told wherever a replay plays: part of the recording was stored but cannot be read any more
 * (a damaged or expired segment), so the replay has a gap rather than silently jumping.
 */
import { TriangleAlert } from 'lucide-react';

export function UnreadableSegmentsNotice({ count, total }: { count: number; total: number }) {
  if (count === 0) return null;
  return (
    <p
      role="status"
      className="mx-4 my-3 flex items-start gap-2 rounded-md border bg-muted/60 px-3 py-2 text-xs"
      data-testid="unreadable-segments"
    >
      <TriangleAlert className="mt-px size-3.5 shrink-0 text-muted-foreground" aria-hidden />
      {count === total
        ? 'The stored recording of this session could not be read (damaged or expired).'
        : `${count} of the recording's ${total} segments could not be read (damaged or expired): the replay skips them.`}
    </p>
  );
}
