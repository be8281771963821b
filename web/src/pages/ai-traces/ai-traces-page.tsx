/**
 * /ai-traces: the range's AI calls ranked by cost (or time, latency, tokens), the totals of the
 * range on top, a breakdown by model, and model / provider / name filters — all in the URL.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { SearchInput, Select } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { BELOW_LG, SortHeader, Table, TBody, TD, TH, THead, TITLE_CELL, TR } from '@/components/ui/table';
import { api, read } from '@/lib/api';
import { formatCost, formatCount, formatDateTime, formatDuration } from '@/lib/format';
import { scopeKey, scopeParams, useTelemetryScope, type TelemetryScope } from '@/lib/telemetry';
import { useListKeyboard } from '@/lib/use-list-keyboard';
import { cn } from '@/lib/utils';
import { PageHeader } from '../page-header';
import type { AiModelTotal, AiTraceList, AiTraceListBody, AiTracesSearch } from './types';

const route = getRouteApi('/app/ai-traces');
const PAGE_SIZE = 50;

function listQuery(scope: TelemetryScope | undefined, body: Omit<AiTraceListBody, 'fromDate' | 'toDate'>) {
  return {
    queryKey: ['ai-traces', ...scopeKey(scope), body],
    enabled: scope !== undefined,
    queryFn: () => {
      const { projectId, ...window } = scopeParams(scope!);
      return read<AiTraceList>(
        api.POST('/api/ai-traces', { params: { query: { projectId } }, body: { ...body, ...window } }),
      );
    },
  };
}

export function AiTracesPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const router = useRouter();
  const scope = useTelemetryScope();
  const setSearch = (patch: Partial<AiTracesSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) });
  const page = search.page ?? 1;
  const filters = [
    ...(search.model ? [{ field: 'model', op: 'eq' as const, value: search.model }] : []),
    ...(search.provider ? [{ field: 'provider', op: 'eq' as const, value: search.provider }] : []),
  ];
  const list = useQuery({
    ...listQuery(scope, {
      ...(filters.length ? { filters } : {}),
      ...(search.q ? { search: search.q } : {}),
      orderBy: search.sort ?? 'totalCost',
      sortDirection: search.dir ?? 'desc',
      pagination: { page, pageSize: PAGE_SIZE },
    }),
    placeholderData: keepPreviousData,
  });
  // The filter menus list every model of the range, not only the one chosen.
  const unfiltered = useQuery({
    ...listQuery(scope, { pagination: { page: 1, pageSize: 1 } }),
    enabled: scope !== undefined && filters.length > 0,
  });
  const models = (filters.length > 0 ? unfiltered.data?.perModel : list.data?.perModel) ?? [];

  const items = list.data?.items ?? [];
  const openTrace = (index: number) => {
    const item = items[index];
    if (item) void router.navigate({ to: '/ai-traces/$id', params: { id: item.id } });
  };
  const searchField = useRef<HTMLInputElement>(null);
  const keyboard = useListKeyboard({ count: items.length, onOpen: openTrace, search: searchField });
  const sortBy = (column: string, direction: 'asc' | 'desc') =>
    setSearch({ sort: column as AiTracesSearch['sort'], dir: direction, page: undefined });
  // What every sortable column header shows and asks for.
  const sorting = { sort: search.sort ?? 'totalCost', direction: search.dir ?? 'desc', onSort: sortBy } as const;

  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title="AI traces"
        description="LLM calls of the time range, the most expensive first."
        actions={
          <NameSearch
            key={search.q}
            value={search.q}
            onSearch={(q) => setSearch({ q, page: undefined })}
            field={searchField}
          />
        }
      />
      <Totals perModel={list.data?.perModel} calls={list.data?.total} loading={list.isPending} />
      <div className="flex flex-wrap items-center gap-2">
        <ValueFilter
          label="Model"
          all="All models"
          className="w-56"
          values={models.map((m) => m.model)}
          value={search.model}
          onValue={(model) => setSearch({ model, page: undefined })}
        />
        <ValueFilter
          label="Provider"
          all="All providers"
          className="w-44"
          values={[...new Set(models.map((m) => m.provider))]}
          value={search.provider}
          onValue={(provider) => setSearch({ provider, page: undefined })}
        />
      </div>
      {list.error ? (
        <ErrorState error={list.error} />
      ) : (
        <>
          <ByModel
            perModel={list.data?.perModel}
            loading={list.isPending}
            onPick={(model) => setSearch({ model, page: undefined })}
          />
          <Card className="overflow-hidden">
            <CardHeader title="Calls" description="Each LLM call; open one for its conversation." />
            {list.isPending ? (
              <TableSkeleton columns={9} />
            ) : items.length === 0 ? (
              <NoCalls filtered={filters.length > 0 || Boolean(search.q)} />
            ) : (
              <Table aria-label="AI calls">
                <THead>
                  <tr>
                    {/* Below 1024 px the time, the provider, the tool calls, the finish reason and the status go (the
                        call's page shows them), so the call's name keeps its room. */}
                    <TH>Name</TH>
                    <TH>Model</TH>
                    <SortHeader label="When" column="recordedAt" {...sorting} className={BELOW_LG} />
                    <SortHeader label="Tokens in / out" column="totalTokens" numeric {...sorting} />
                    <SortHeader label="Cost" column="totalCost" numeric {...sorting} />
                    <SortHeader label="Latency" column="durationMs" numeric {...sorting} />
                    <TH numeric className={BELOW_LG}>
                      Tool calls
                    </TH>
                    <TH className={BELOW_LG}>Finish reason</TH>
                    <TH className={BELOW_LG}>Status</TH>
                  </tr>
                </THead>
                <TBody>
                  {items.map((item, index) => (
                    <TR key={item.id} {...keyboard.rowProps(index)}>
                      <TD className={cn(TITLE_CELL, 'truncate')}>
                        <Link to="/ai-traces/$id" params={{ id: item.id }} className="font-medium hover:underline">
                          {item.name || item.id}
                        </Link>
                      </TD>
                      <TD className="font-mono text-xs whitespace-nowrap">
                        {item.model || '—'}
                        {item.provider && (
                          <span className={cn('text-muted-foreground', BELOW_LG)}> · {item.provider}</span>
                        )}
                      </TD>
                      <TD className={cn('text-xs whitespace-nowrap text-muted-foreground tabular', BELOW_LG)}>
                        {formatDateTime(item.recordedAt)}
                      </TD>
                      <FigureCell>
                        {formatCount(item.inputTokens)} <span className="text-muted-foreground">/</span>{' '}
                        {formatCount(item.outputTokens)}
                      </FigureCell>
                      <FigureCell>{formatCost(item.totalCost)}</FigureCell>
                      <FigureCell>{formatDuration(item.durationMs)}</FigureCell>
                      <FigureCell className={BELOW_LG}>{formatCount(item.toolCalls)}</FigureCell>
                      {/* As the call's page shows them: the finish reason under its name, the status OK or Error. */}
                      <TD className={cn('text-xs whitespace-nowrap', BELOW_LG)}>
                        {item.finishReason ? (
                          <span className="font-mono">{item.finishReason}</span>
                        ) : (
                          <span className="text-muted-foreground">—</span>
                        )}
                      </TD>
                      <TD className={cn('text-xs', BELOW_LG)}>
                        {item.isError ? (
                          <span className="font-medium text-danger">Error</span>
                        ) : (
                          <span className="text-muted-foreground">OK</span>
                        )}
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            )}
            {items.length > 0 && (
              <Pagination
                page={page}
                pageSize={PAGE_SIZE}
                total={list.data?.total}
                onPage={(next) => setSearch({ page: next })}
              />
            )}
          </Card>
        </>
      )}
    </div>
  );
}

/** The options of a filter menu, keeping the chosen value even when the range no longer has it. */
/** A filter of the list by one field: "All …", then each value seen, and the URL's even where none was seen. */
function ValueFilter({
  label,
  all,
  className,
  values,
  value,
  onValue,
}: {
  label: string;
  all: string;
  className: string;
  values: string[];
  value: string | undefined;
  onValue: (value: string | undefined) => void;
}) {
  const seen = values.filter(Boolean);
  const choices = value && !seen.includes(value) ? [value, ...seen] : seen;
  return (
    <Select
      aria-label={label}
      className={className}
      value={value ?? ''}
      onChange={(event) => onValue(event.target.value || undefined)}
      options={choices.map((choice) => ({ value: choice, label: choice }))}
    >
      <option value="">{all}</option>
    </Select>
  );
}

function NameSearch({
  value,
  onSearch,
  field,
}: {
  value: string | undefined;
  onSearch: (q: string | undefined) => void;
  field: React.RefObject<HTMLInputElement | null>;
}) {
  const [text, setText] = useState(value ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim() || undefined);
  };
  return (
    <form onSubmit={submit} role="search">
      <SearchInput
        ref={field}
        value={text}
        onValue={setText}
        placeholder="Search names…  ( / )"
        label="Search AI traces by name"
        className="w-64"
      />
    </form>
  );
}

function Totals({
  perModel,
  calls,
  loading,
}: {
  perModel: AiModelTotal[] | undefined;
  calls: number | undefined;
  loading: boolean;
}) {
  const sum = (pick: (m: AiModelTotal) => number) => (perModel ?? []).reduce((total, m) => total + pick(m), 0);
  const figures = [
    { label: 'Calls', value: formatCount(calls) },
    { label: 'Input tokens', value: formatCount(sum((m) => m.inputTokens)) },
    { label: 'Output tokens', value: formatCount(sum((m) => m.outputTokens)) },
    { label: 'Cost', value: formatCost(sum((m) => m.totalCost)) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-label="Totals of the range">
      {figures.map((figure) => (
        <div key={figure.label} className="grid gap-1 rounded-lg border bg-panel px-4 py-3">
          <dt className="text-xs text-muted-foreground">{figure.label}</dt>
          <dd className="text-xl font-semibold tabular">
            {loading ? <Skeleton className="h-7 w-24" /> : figure.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ByModel({
  perModel,
  loading,
  onPick,
}: {
  perModel: AiModelTotal[] | undefined;
  loading: boolean;
  onPick: (model: string) => void;
}) {
  if (!loading && (perModel ?? []).length === 0) return null;
  return (
    <Card className="overflow-hidden">
      <CardHeader title="By model" />
      {loading ? (
        <TableSkeleton rows={3} columns={6} />
      ) : (
        <Table aria-label="Totals by model">
          <THead>
            <tr>
              <TH>Model</TH>
              <TH>Provider</TH>
              <TH numeric>Calls</TH>
              <TH numeric>Tokens in</TH>
              <TH numeric>Tokens out</TH>
              <TH numeric>Cost</TH>
            </tr>
          </THead>
          <TBody>
            {(perModel ?? []).map((m) => (
              <TR key={`${m.model}|${m.provider}`}>
                {/* One line, as in the calls below: a model name broke at its hyphens ("claude-3-5-" over three lines on a phone). */}
                <TD className="font-mono text-xs whitespace-nowrap">
                  <button
                    type="button"
                    className={cn('text-accent hover:underline', !m.model && 'text-muted-foreground')}
                    onClick={() => onPick(m.model)}
                    disabled={!m.model}
                    title="Show only this model's calls"
                  >
                    {m.model || '(no model)'}
                  </button>
                </TD>
                <TD className="text-xs">{m.provider || '—'}</TD>
                <FigureCell>{formatCount(m.count)}</FigureCell>
                <FigureCell>{formatCount(m.inputTokens)}</FigureCell>
                <FigureCell>{formatCount(m.outputTokens)}</FigureCell>
                <FigureCell>{formatCost(m.totalCost)}</FigureCell>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </Card>
  );
}

function NoCalls({ filtered }: { filtered: boolean }) {
  if (filtered) return <EmptyState title="No AI calls match these filters" />;
  return (
    <EmptyState title="No AI calls in this time range">
      <p>
        Spans with <code className="font-mono text-xs">gen_ai.*</code> attributes (OpenTelemetry GenAI conventions:
        model, provider, token usage, and the messages) become AI traces here, with their cost and conversation.{' '}
        <Link to="/connection" className="text-accent underline underline-offset-2">
          Connect an OpenTelemetry SDK
        </Link>
      </p>
    </EmptyState>
  );
}

/** A right-aligned figure in the monospace face. */
function FigureCell({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <TD numeric className={cn('font-mono text-xs', className)}>
      {children}
    </TD>
  );
}
