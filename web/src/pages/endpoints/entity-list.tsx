/**
 * The list page of endpoints and of tasks: the stacked chart of where the time goes (top N + other)
 * and the ranked table. Search, root filter, grouping, sort and page live in the URL (`q`, `root`,
 * `group`, `sort`, `dir`, `page`); j/k move through the rows, Enter opens one, `/` focuses search.
 */
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ChartCard } from '@/components/charts/chart-card';
import { Card } from '@/components/ui/card';
import { SearchInput } from '@/components/ui/input';
import { PagedTable } from '@/components/ui/pagination';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { SortHeader, TBody, TD, THead, TR } from '@/components/ui/table';
import { useTelemetryScope } from '@/lib/telemetry';
import { useListKeyboard } from '@/lib/use-list-keyboard';
import { cn } from '@/lib/utils';
import { PageHeader } from '../page-header';
import type { ListSearch } from './search';
import { LIST_PAGE_SIZE, entityListQuery, entityListState, entitySeriesQuery, type EntityListSource } from './api';

export interface EntityColumn<T, Order extends string> {
  label: string;
  /** The API's orderBy for this column; absent when the column does not sort. */
  sortKey?: Order;
  numeric?: boolean;
  cell(item: T): ReactNode;
  className?: string;
}

/** A list page: its source (api.ts) and how it shows. */
export interface EntityListConfig<T extends { name: string }, Order extends string> extends EntityListSource<T, Order> {
  title: string;
  description: string;
  noun: string;
  columns: ReadonlyArray<EntityColumn<T, Order>>;
  /** The row's key (grouped endpoints share a name across methods). */
  rowKey?(item: T): string;
  empty: ReactNode;
}

/** A row of toggle buttons writing one URL parameter. */
function Segmented<V extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: V;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange(value: V): void;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex h-8 items-center rounded-md border bg-panel p-0.5">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          className={cn(
            'h-full rounded-[5px] px-2.5 text-xs text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
            value === option.value && 'bg-muted font-medium text-foreground',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

export function EntityListPage<T extends { name: string }, Order extends string>({
  config,
}: {
  config: EntityListConfig<T, Order>;
}) {
  const scope = useTelemetryScope();
  const search: ListSearch = useSearch({ strict: false });
  const navigate = useNavigate();
  const searchRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(search.q ?? '');

  const { orderBy, direction, page, grouped } = entityListState(config, search);

  const setSearch = (patch: Partial<ListSearch>, replace = false) =>
    void navigate({ to: '.', search: (prev) => ({ ...prev, page: undefined, ...patch }), replace });

  // The box writes the URL a moment after typing stops; the URL (back, reload) writes the box.
  useEffect(() => setText(search.q ?? ''), [search.q]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only typing schedules a URL write, not a URL change
  useEffect(() => {
    if (text === (search.q ?? '')) return;
    const timer = setTimeout(() => setSearch({ q: text === '' ? undefined : text }, true), 300);
    return () => clearTimeout(timer);
    // Only typing schedules a write.
  }, [text]);

  const list = useQuery(entityListQuery(config, scope, search));
  const series = useQuery(entitySeriesQuery(config, scope, search));

  const items = list.data?.items ?? [];
  const { rowProps } = useListKeyboard({
    count: items.length,
    onOpen: (index) => document.querySelector<HTMLAnchorElement>(`[data-list-row="${index}"] a`)?.click(),
    search: searchRef,
  });

  const chartSeries = series.data
    ? [
        ...series.data.series.map((s) => ({ name: s.name, values: s.totalMs })),
        ...(series.data.other.some((v) => v > 0)
          ? [{ name: 'Other', values: series.data.other, color: 8 as const }]
          : []),
      ]
    : [];

  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader title={config.title} description={config.description} />
      <ChartCard
        title={`Total time by ${config.noun}`}
        description={`The ${config.noun}s that take the most time, stacked; the rest as Other. Drag across the chart to zoom.`}
        error={series.error}
        kind="stacked"
        format="duration"
        syncKey={config.feature}
        height={180}
        loading={series.isPending}
        timestamps={series.data?.bucketStarts ?? []}
        series={chartSeries}
        emptyTitle={`No ${config.noun} time in this range`}
      />

      <div className="flex flex-wrap items-center gap-2">
        <SearchInput
          className="w-72"
          ref={searchRef}
          value={text}
          onValue={setText}
          placeholder={`Search ${config.noun}s  ( / )`}
          label={`Search ${config.noun}s`}
        />
        <Segmented
          label="Root or nested"
          value={search.root ?? 'all'}
          options={[
            { value: 'all', label: 'All' },
            { value: 'root', label: 'Root' },
            { value: 'nested', label: 'Nested' },
          ]}
          onChange={(value) => setSearch({ root: value === 'all' ? undefined : value })}
        />
        {config.grouping && (
          <Segmented
            label="Group"
            value={grouped ? 'route' : 'name'}
            options={[
              { value: 'name', label: 'By endpoint' },
              { value: 'route', label: 'By route' },
            ]}
            onChange={(value) => setSearch({ group: value === 'route' ? 'route' : undefined })}
          />
        )}
        {list.isFetching && !list.isPending && <span className="text-xs text-muted-foreground">Updating…</span>}
      </div>

      <Card className="overflow-hidden">
        {list.isError ? (
          <ErrorState error={list.error} className="m-4" />
        ) : list.isPending ? (
          <TableSkeleton columns={config.columns.length} />
        ) : items.length === 0 ? (
          search.q || search.root ? (
            <EmptyState title={`No ${config.noun}s match`}>
              Clear the search or the filter, or widen the time range.
            </EmptyState>
          ) : (
            config.empty
          )
        ) : (
          <PagedTable
            aria-label={config.title}
            paging={{
              page,
              pageSize: LIST_PAGE_SIZE,
              total: list.data?.total,
              onPage: (next) => setSearch({ page: next }),
            }}
          >
            <THead>
              <tr>
                {config.columns.map((column) =>
                  column.sortKey ? (
                    <SortHeader
                      key={column.label}
                      label={column.label}
                      column={column.sortKey}
                      sort={orderBy}
                      direction={direction}
                      numeric={column.numeric}
                      className={column.className}
                      onSort={(sort, dir) => setSearch({ sort, dir })}
                    />
                  ) : (
                    <th
                      key={column.label}
                      className={cn(
                        'h-8 border-b px-3 text-xs font-medium text-muted-foreground',
                        column.numeric ? 'text-right' : 'text-left',
                        column.className,
                      )}
                    >
                      {column.label}
                    </th>
                  ),
                )}
              </tr>
            </THead>
            <TBody>
              {items.map((item, index) => (
                <TR key={config.rowKey?.(item) ?? item.name} {...rowProps(index)}>
                  {config.columns.map((column) => (
                    <TD key={column.label} numeric={column.numeric} className={column.className}>
                      {column.cell(item)}
                    </TD>
                  ))}
                </TR>
              ))}
            </TBody>
          </PagedTable>
        )}
      </Card>
    </div>
  );
}
