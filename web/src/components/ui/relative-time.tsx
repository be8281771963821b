import { formatDateTime, formatRelative } from '@/lib/format';

/** A moment as its age ("5 min ago"), the full date and time on hover; a dash when there is none. */
export function RelativeTime({ value, className }: { value: string | null | undefined; className?: string }) {
  return (
    <time dateTime={value ?? undefined} title={formatDateTime(value)} className={className}>
      {formatRelative(value)}
    </time>
  );
}
