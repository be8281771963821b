/**
 * A session older than what is kept, in the words every page uses for it (the issue page's replay
 * card and session column, the trace page, the session page reached from them): how long sessions
 * are kept and, when the plan is what bounds it, where a plan that keeps more is.
 */
import { Link } from '@tanstack/react-router';
import { linkStyles } from '@/components/ui/link';
import { daysText, type Kept } from '@/lib/retention';
import { cn } from '@/lib/utils';

/** "your plan keeps (14 days)", or the table's TTL where it, not the plan, is the bound. */
const keptText = (kept: Kept): string =>
  kept.byPlan ? `your plan keeps (${daysText(kept.days)})` : `sessions are kept (${daysText(kept.days)})`;

/** "Older than your plan keeps (14 days)": where a session's link would be. */
export const pastRetentionNote = (kept: Kept): string => `Older than ${keptText(kept)}`;

/**
 * "It may be older than your plan keeps (14 days)": a session whose event is within the longest
 * session's length of that edge, of which only its read would tell.
 */
export const mayBePastRetentionNote = (kept: Kept): string => `It may be older than ${keptText(kept)}`;

/** "This session is older than your plan keeps (14 days)": the heading where the session would be. */
export const pastRetentionTitle = (kept: Kept): string => `This session is older than ${keptText(kept)}`;

/** Why neither the session nor its replay can be shown, and what would keep the next ones longer. */
export function PastRetentionExplanation({ kept }: { kept: Kept }) {
  return (
    <>
      Sessions and their recordings are deleted once they are older than that, so neither can be shown.{' '}
      {kept.byPlan ? (
        <>
          A plan that keeps more is on the {/* Underlined: colour alone does not tell it from the text around it. */}
          <Link to="/settings/organization" className={cn(linkStyles.accent, 'underline underline-offset-2')}>
            Organization page
          </Link>
          .
        </>
      ) : (
        'No plan keeps sessions longer.'
      )}
    </>
  );
}

/**
 * Where a link to a session that cannot be opened would be: its id, not a link, and `why`: shown
 * under it where there is room (`showWhy`), else on hover and to a screen reader.
 */
export function UnopenableSessionId({
  id,
  why,
  showWhy = false,
  className,
}: {
  id: string;
  why: string;
  showWhy?: boolean;
  className?: string;
}) {
  return (
    <span
      className={cn('grid min-w-0', className)}
      title={`${why}: it cannot be opened`}
      data-testid="session-unopenable"
    >
      <span className="truncate font-mono text-xs text-muted-foreground">{id}</span>
      <span className={showWhy ? 'text-xs whitespace-normal text-muted-foreground' : 'sr-only'}>{why}</span>
    </span>
  );
}
