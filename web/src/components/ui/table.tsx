/**
 * Dense tables (DASHBOARD.md §1.8: tables before cards, figures right-aligned in tabular digits).
 * `SortHeader` makes a column sortable through the URL: the page owns the state, the header only
 * says which column and direction it shows (aria-sort) and asks for the next one.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { type ComponentProps, type ReactNode, useEffect, useRef, useState } from 'react';
import { cn } from '@/lib/utils';
import { RowDangerButton } from './button';
import { QueryBody } from './states';

/**
 * Columns a list drops on narrower windows (the header cell and each row's cell take the same
 * class), so the column that names a row stays readable down to a tablet (DASHBOARD.md §1.8):
 * the lower-priority ones below 1280 px, the next below 1024 px.
 */
export const BELOW_XL = 'max-xl:hidden';
export const BELOW_LG = 'max-lg:hidden';
/** Columns a list drops on a phone (below 640 px) because the cell that names a row shows them under its name. */
export const BELOW_SM = 'max-sm:hidden';

/**
 * The cell that names a row: it takes the width the other columns leave and cuts its text, but
 * keeps 10rem on a phone, where the figures would otherwise squeeze it to nothing (the table then
 * scrolls inside its card).
 */
export const TITLE_CELL = 'w-full max-w-0 min-w-40';

export function Table({ className, ...props }: ComponentProps<'table'>) {
  const scroller = useRef<HTMLDivElement>(null);
  // A table wider than its card (on a phone) scrolls inside it, and a keyboard user must be able
  // to focus it to scroll (its rows may hold nothing to focus); a table that fits is no tab stop.
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    // Positioned, so a column's screen-reader-only header (absolute) scrolls with the table instead
    // of widening the page past a phone's screen.
    <div ref={scroller} className="relative overflow-x-auto" tabIndex={scrolls ? 0 : undefined}>
      <table className={cn('w-full border-collapse text-sm', className)} {...props} />
    </div>
  );
}

export function THead(props: ComponentProps<'thead'>) {
  return <thead {...props} />;
}

export function TBody(props: ComponentProps<'tbody'>) {
  return <tbody {...props} />;
}

/** A row; `active` marks the keyboard cursor of j/k (see useListKeyboard). */
export function TR({ className, active, ...props }: ComponentProps<'tr'> & { active?: boolean }) {
  return (
    <tr
      data-active={active ? '' : undefined}
      className={cn(
        // The j/k cursor: a tint alone is about 1.1:1 against the rows around it; the bar on the
        // first cell (a row draws no box-shadow) says where it is. The neutral tint, not the
        // accent's: the red "exception" label on the accent tint fell below 4.5:1.
        'border-b last:border-b-0 hover:bg-muted/60 data-[active]:bg-muted data-[active]:[&>td:first-child]:shadow-[inset_2px_0_0_var(--ring)]',
        className,
      )}
      {...props}
    />
  );
}

export function TH({ className, numeric, ...props }: ComponentProps<'th'> & { numeric?: boolean }) {
  return (
    <th
      scope="col"
      className={cn(
        'h-8 border-b px-3 text-left text-xs font-medium whitespace-nowrap text-muted-foreground',
        numeric && 'text-right',
        className,
      )}
      {...props}
    />
  );
}

export function TD({ className, numeric, ...props }: ComponentProps<'td'> & { numeric?: boolean }) {
  return (
    <td
      className={cn('h-9 px-3 align-middle', numeric && 'text-right whitespace-nowrap tabular', className)}
      {...props}
    />
  );
}

/** The header of a row-actions column: no visible title, one for screen readers. */
export function ActionsHead() {
  return (
    <TH>
      <span className="sr-only">Actions</span>
    </TH>
  );
}

export type ColumnHead = string | { label: string; numeric?: boolean; className?: string };

/** The head of a column of figures (right-aligned, like its cells). */
export const numericColumn = (label: string): ColumnHead => ({ label, numeric: true });

/** `items` as a table under a header of `columns` (and of the row actions, when `actions`): one row each, drawn by `row`. */
export function DataTable<T>({
  label,
  columns,
  actions = false,
  items,
  row,
  className,
}: {
  label: string;
  columns: ReadonlyArray<ColumnHead>;
  actions?: boolean;
  items: readonly T[] | undefined;
  row: (item: T) => ReactNode;
  className?: string;
}) {
  return (
    <Table aria-label={label} className={className}>
      <THead>
        <tr>
          {columns.map((column) =>
            typeof column === 'string' ? (
              <TH key={column}>{column}</TH>
            ) : (
              <TH key={column.label} numeric={column.numeric} className={column.className}>
                {column.label}
              </TH>
            ),
          )}
          {actions && <ActionsHead />}
        </tr>
      </THead>
      <TBody>{items?.map((item) => row(item))}</TBody>
    </Table>
  );
}

/**
 * A card's list read by `query` as a `DataTable`, behind `QueryBody`'s skeleton (as wide as the
 * columns), error and `empty` (a sentence shows as a quiet line, anything else as it is).
 */
export function QueryTable<T>({
  query,
  skeletonRows,
  empty,
  ...table
}: Omit<Parameters<typeof DataTable<T>>[0], 'items'> & {
  query: UseQueryResult<readonly T[] | undefined>;
  skeletonRows?: number;
  empty: ReactNode;
}) {
  return (
    <QueryBody
      query={query}
      rows={skeletonRows}
      columns={table.columns.length}
      empty={typeof empty === 'string' ? <p className="px-4 py-6 text-sm text-muted-foreground">{empty}</p> : empty}
    >
      <DataTable {...table} items={query.data} />
    </QueryBody>
  );
}

/** The last cell of a row whose one action is destructive (revoke, remove): empty where the row cannot take it. */
export function DangerActionCell<T>({
  available = true,
  ...button
}: ComponentProps<typeof RowDangerButton<T>> & { available?: boolean }) {
  return <TD className="text-right">{available && <RowDangerButton {...button} />}</TD>;
}

export type SortDirection = 'asc' | 'desc';

export function SortHeader({
  label,
  column,
  sort,
  direction,
  onSort,
  numeric,
  className,
}: {
  label: string;
  column: string;
  sort: string | undefined;
  direction: SortDirection | undefined;
  /** Called with the column and the direction it should show next (numbers start descending). */
  onSort: (column: string, direction: SortDirection) => void;
  numeric?: boolean;
  className?: string;
}) {
  const current = sort === column ? direction : undefined;
  const next: SortDirection = current === undefined ? (numeric ? 'desc' : 'asc') : current === 'desc' ? 'asc' : 'desc';
  const Icon = current === 'asc' ? ArrowUp : current === 'desc' ? ArrowDown : ArrowUpDown;
  return (
    <TH
      numeric={numeric}
      aria-sort={current === undefined ? 'none' : current === 'asc' ? 'ascending' : 'descending'}
      className={className}
    >
      <button
        type="button"
        onClick={() => onSort(column, next)}
        className={cn(
          'inline-flex items-center gap-1 rounded-sm outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
          current !== undefined && 'text-foreground',
        )}
      >
        {label}
        <Icon className={cn('size-3', current === undefined && 'opacity-40')} aria-hidden />
      </button>
    </TH>
  );
}
