/**
 * The History section of /alerts: every delivery attempt and every acknowledge or manual resolve,
 * newest first, of every rule or of one (`rule` in the URL). The API pages by cursor
 * (`beforeId`), the URL by number: page N walks the cached pages before it to find its cursor.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Card, CardHeader } from '@/components/ui/card';
import { PagedTable } from '@/components/ui/pagination';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { formatPreciseTime } from '@/lib/format';
import { linkStyles } from '@/components/ui/link';
import { cn } from '@/lib/utils';
import { eventsKey, eventsQuery, rulesQuery } from './api';
import { ActionBadge, NoticeBadge, OutcomeBadge, RuleStateBadge } from './badges';
import type { AlertEvent } from './types';

export const HISTORY_PAGE_SIZE = 25;

export function HistorySection({
  projectId,
  ruleId,
  page,
  onPage,
}: {
  projectId: string;
  ruleId: string | undefined;
  page: number;
  onPage: (page: number | undefined) => void;
}) {
  const queryClient = useQueryClient();
  const rules = useQuery({ ...rulesQuery(projectId), enabled: ruleId !== undefined });
  const ruleName = rules.data?.find((rule) => rule.id === ruleId)?.name;
  const history = useQuery({
    queryKey: [...eventsKey(projectId), ruleId ?? null, 'page', page],
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<{ items: AlertEvent[]; hasMore: boolean }> => {
      let beforeId: number | undefined;
      // One more than a page tells whether a next page exists.
      for (let current = 1; ; current++) {
        const rows = await queryClient.fetchQuery(eventsQuery(projectId, ruleId, beforeId, HISTORY_PAGE_SIZE + 1));
        const items = rows.slice(0, HISTORY_PAGE_SIZE);
        const hasMore = rows.length > HISTORY_PAGE_SIZE;
        if (current === page || !hasMore)
          return { items: current === page ? items : [], hasMore: current === page && hasMore };
        beforeId = items[items.length - 1]!.id;
      }
    },
  });
  const items = history.data?.items ?? [];
  return (
    <Card aria-label="History">
      <CardHeader
        title={ruleId === undefined ? 'History' : `History of ${ruleName ?? 'one rule'}`}
        description={
          ruleId === undefined
            ? 'Every delivery attempt of every rule (reminders and acknowledgements told among them) and test send, and who acknowledged or resolved a rule, newest first.'
            : 'Its delivery attempts (reminders and acknowledgements told among them), and who acknowledged or resolved it, newest first.'
        }
        actions={
          ruleId !== undefined && (
            <Link
              to="/alerts"
              search={(prev) => ({ ...prev, rule: undefined, page: undefined })}
              className={cn(linkStyles.accent, 'text-sm')}
            >
              Every rule
            </Link>
          )
        }
      />
      {history.isPending ? (
        <TableSkeleton rows={6} columns={ruleId === undefined ? 8 : 7} />
      ) : history.isError ? (
        <ErrorState error={history.error} className="m-4" />
      ) : items.length === 0 ? (
        <EmptyState title={page > 1 ? 'Nothing on this page' : 'Nothing yet'}>
          Notifications of firing and resolved rules, test sends, and who acknowledged or resolved a rule appear here.
        </EmptyState>
      ) : (
        <PagedTable
          aria-label="Alert history"
          stale={history.isPlaceholderData}
          paging={{
            page,
            pageSize: HISTORY_PAGE_SIZE,
            total: undefined,
            hasMore: history.data?.hasMore ?? false,
            onPage,
          }}
        >
          <THead>
            <tr>
              <TH>Time</TH>
              {/* One rule's history names it in the title: no column repeating it on every row. */}
              {ruleId === undefined && <TH>Rule</TH>}
              <TH>State</TH>
              <TH>Channel or person</TH>
              <TH>Outcome</TH>
              <TH numeric>Attempt</TH>
              <TH numeric>Response</TH>
              <TH className="w-full">Error</TH>
            </tr>
          </THead>
          <TBody>
            {items.map((event) => (
              <TR key={event.id} data-event={event.id}>
                <TD className="whitespace-nowrap tabular">
                  <time dateTime={event.at}>{formatPreciseTime(event.at)}</time>
                </TD>
                {ruleId === undefined && (
                  <TD className="max-w-56 truncate whitespace-nowrap" title={event.ruleName ?? undefined}>
                    {event.ruleName ?? <span className="text-muted-foreground">Test notification</span>}
                  </TD>
                )}
                <TD>
                  <div className="flex items-center gap-1">
                    <RuleStateBadge state={event.state} />
                    {event.notice && <NoticeBadge notice={event.notice} />}
                  </div>
                </TD>
                {event.action ? (
                  <>
                    {/* A person's action: who, in the channel's place; no attempt or response. */}
                    <TD className="whitespace-nowrap" data-column="actor">
                      <span className="text-muted-foreground">by </span>
                      {event.actorName}
                    </TD>
                    <TD>
                      <ActionBadge action={event.action} />
                    </TD>
                    <TD numeric className="text-muted-foreground">
                      —
                    </TD>
                    <TD numeric data-column="response" className="text-muted-foreground">
                      —
                    </TD>
                  </>
                ) : (
                  <>
                    <TD className="whitespace-nowrap">{event.channelName}</TD>
                    <TD>
                      <OutcomeBadge outcome={event.outcome} />
                    </TD>
                    <TD numeric>{event.attempt}</TD>
                    <TD numeric data-column="response">
                      {event.responseStatus ?? '—'}
                    </TD>
                  </>
                )}
                {/* Wrapped, never cut: the reason a delivery failed is read in full. */}
                <TD className="min-w-64 py-1.5 text-xs wrap-anywhere" data-column="error">
                  {event.error ? (
                    <span className="text-danger">{event.error}</span>
                  ) : (
                    <span className="text-muted-foreground">—</span>
                  )}
                </TD>
              </TR>
            ))}
          </TBody>
        </PagedTable>
      )}
    </Card>
  );
}
