/**
 * Previous / next paging for a list whose page number lives in the URL (`page`), below the table
 * of a card. Lists that do not count their rows (`total` undefined) pass `hasMore`, the API's
 * "there is a next page". `onPage` gets the URL's value: undefined for the first page, which the
 * URL leaves out.
 */
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { ComponentProps } from 'react';
import { formatCount } from '@/lib/format';
import { cn } from '@/lib/utils';
import { Button } from './button';
import { Table } from './table';

export function Pagination({
  page,
  pageSize,
  total,
  hasMore,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number | undefined;
  hasMore?: boolean;
  onPage: (page: number | undefined) => void;
}) {
  const last = total === undefined ? undefined : Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  const go = (next: number) => onPage(next > 1 ? next : undefined);
  return (
    <nav
      aria-label="Pages"
      className="flex items-center justify-between gap-3 border-t px-3 py-2 text-xs text-muted-foreground"
    >
      <span className="tabular">
        {total === undefined || total === 0
          ? ''
          : `${formatCount(first)}–${formatCount(Math.min(total, page * pageSize))} of ${formatCount(total)}`}
      </span>
      <div className="flex items-center gap-1">
        <PageButton unavailable={page <= 1} onClick={() => go(page - 1)} label="Previous page">
          <ChevronLeft aria-hidden />
        </PageButton>
        <span className="tabular">
          Page {page}
          {last !== undefined && ` of ${last}`}
        </span>
        <PageButton
          unavailable={last !== undefined ? page >= last : hasMore === false}
          onClick={() => go(page + 1)}
          label="Next page"
        >
          <ChevronRight aria-hidden />
        </PageButton>
      </div>
    </nav>
  );
}

/**
 * Previous or next: where there is no such page it says so (aria-disabled, dimmed) but keeps the
 * focus. A disabled button drops it: Enter on Next that reaches the last page left the keyboard
 * at the top of the document.
 */
function PageButton({
  unavailable,
  onClick,
  label,
  children,
}: {
  unavailable: boolean;
  onClick: () => void;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-disabled={unavailable || undefined}
      onClick={() => {
        if (!unavailable) onClick();
      }}
      aria-label={label}
    >
      {children}
    </Button>
  );
}

/**
 * One page of a list: its table (`children` are the table's head and body), then the pager.
 * `stale`: the previous page still shows while the next one loads, dimmed.
 */
export function PagedTable({
  paging,
  stale = false,
  className,
  ...table
}: ComponentProps<typeof Table> & { paging: ComponentProps<typeof Pagination>; stale?: boolean }) {
  return (
    <>
      <Table className={cn(stale && 'opacity-60', className)} {...table} />
      <Pagination {...paging} />
    </>
  );
}
