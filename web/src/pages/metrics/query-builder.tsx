/**
 * The metric query builder of /metrics and of the dashboard widget dialog (one component, so a
 * widget is edited exactly as it was explored): metric (searchable, with what is known of its
 * kind and unit), aggregation, step, group-by keys and `key = value` filter chips, all from
 * GET /api/metrics/discover over the page's range.
 */
import { Command } from 'cmdk';
import { Check, ChevronsUpDown, Plus, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label, Select } from '@/components/ui/input';
import { currentItemBar, Popover, PopoverContent, PopoverTrigger } from '@/components/ui/menu';
import { formatCount } from '@/lib/format';
import type { RangeSearch } from '@/lib/time-range';
import { cn } from '@/lib/utils';
import { FILTER_OPS, SERVER_NAME, STEPS, describeMetric, filterField, filterKey, keyLabel, stepAllowed } from './query';
import { AGGREGATIONS, type Aggregation, type DiscoveredMetric, type FilterOp, type MetricQuery } from './types';

export interface QueryBuilderProps {
  value: MetricQuery;
  onChange: (query: MetricQuery) => void;
  /** The discovered metrics; undefined while they load. */
  metrics: readonly DiscoveredMetric[] | undefined;
  range: RangeSearch;
  /** Prefix of the controls' ids (two builders may share a page: the explorer and a dialog). */
  idPrefix: string;
}

export function QueryBuilder({ value, onChange, metrics, range, idPrefix }: QueryBuilderProps) {
  const selected = metrics?.find((m) => m.name === value.name);
  const keys = useMemo(() => [...(selected?.dimensions.map((d) => d.key) ?? []), SERVER_NAME], [selected]);
  const set = (patch: Partial<MetricQuery>) => onChange({ ...value, ...patch });

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid w-full max-w-sm min-w-64 flex-1 gap-1.5">
          <Label id={`${idPrefix}-metric-label`}>Metric</Label>
          <MetricPicker
            value={value.name}
            metrics={metrics}
            labelledBy={`${idPrefix}-metric-label`}
            onPick={(name) => set({ name, groupBy: [], filters: [] })}
          />
        </div>
        <div className="grid w-40 gap-1.5">
          <Label htmlFor={`${idPrefix}-aggregation`}>Aggregation</Label>
          <Select
            id={`${idPrefix}-aggregation`}
            value={value.aggregation}
            onChange={(e) => set({ aggregation: e.target.value as Aggregation })}
            options={AGGREGATIONS}
          />
        </div>
        <div className="grid w-32 gap-1.5">
          <Label htmlFor={`${idPrefix}-step`}>Step</Label>
          <Select
            id={`${idPrefix}-step`}
            value={value.bucketSeconds === undefined ? 'auto' : String(value.bucketSeconds)}
            onChange={(e) => {
              const { bucketSeconds: _dropped, ...rest } = value;
              onChange(e.target.value === 'auto' ? rest : { ...rest, bucketSeconds: Number(e.target.value) });
            }}
          >
            <option value="auto">auto</option>
            {STEPS.map((step) => (
              <option key={step.seconds} value={step.seconds} disabled={!stepAllowed(step.seconds, range)}>
                {step.label}
              </option>
            ))}
          </Select>
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Group by">
          <span className="text-xs font-medium text-muted-foreground">Group by</span>
          {value.groupBy.map((key) => (
            <Chip
              key={key}
              label={keyLabel(key)}
              onRemove={() => set({ groupBy: value.groupBy.filter((k) => k !== key) })}
              removeLabel={`Stop grouping by ${keyLabel(key)}`}
            />
          ))}
          {value.groupBy.length < 5 && (
            <Select
              aria-label="Add a group-by key"
              className="h-7 w-auto text-xs"
              value=""
              disabled={value.name === ''}
              onChange={(e) => e.target.value !== '' && set({ groupBy: [...value.groupBy, e.target.value] })}
            >
              <option value="">{value.groupBy.length === 0 ? 'nothing: add a key…' : 'add a key…'}</option>
              {keys
                .filter((key) => !value.groupBy.includes(key))
                .map((key) => (
                  <option key={key} value={key}>
                    {keyLabel(key)}
                  </option>
                ))}
            </Select>
          )}
        </div>

        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Filters">
          <span className="text-xs font-medium text-muted-foreground">Where</span>
          {value.filters.map((filter, index) => {
            const text = `${keyLabel(filterKey(filter.field))} ${FILTER_OPS.find((o) => o.value === filter.op)?.label ?? filter.op} ${String(filter.value)}`;
            return (
              <Chip
                key={`${filter.field}-${index}`}
                label={text}
                mono
                onRemove={() => set({ filters: value.filters.filter((_, i) => i !== index) })}
                removeLabel={`Remove filter ${text}`}
              />
            );
          })}
          <FilterAdder
            idPrefix={idPrefix}
            disabled={value.name === ''}
            keys={keys}
            valuesOf={(key) => selected?.dimensions.find((d) => d.key === key)?.values ?? []}
            onAdd={(key, op, v) => set({ filters: [...value.filters, { field: filterField(key), op, value: v }] })}
          />
        </div>
      </div>
    </div>
  );
}

function Chip({
  label,
  onRemove,
  removeLabel,
  mono = false,
}: {
  label: string;
  onRemove: () => void;
  removeLabel: string;
  mono?: boolean;
}) {
  return (
    <span
      className={cn(
        'inline-flex h-7 items-center gap-1 rounded-md border bg-muted/60 pr-1 pl-2 text-xs',
        mono && 'font-mono',
      )}
    >
      {label}
      <button
        type="button"
        onClick={onRemove}
        aria-label={removeLabel}
        className="rounded-sm p-0.5 text-muted-foreground outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <X className="size-3" aria-hidden />
      </button>
    </span>
  );
}

function FilterAdder({
  idPrefix,
  disabled,
  keys,
  valuesOf,
  onAdd,
}: {
  idPrefix: string;
  disabled: boolean;
  keys: readonly string[];
  valuesOf: (key: string) => readonly string[];
  onAdd: (key: string, op: FilterOp, value: string) => void;
}) {
  const [key, setKey] = useState('');
  const [op, setOp] = useState<FilterOp>('eq');
  const [text, setText] = useState('');
  const chosen = key !== '' && keys.includes(key) ? key : '';
  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (chosen === '' || text === '') return;
    onAdd(chosen, op, text);
    setText('');
  };
  // A form of its own would nest inside a widget dialog's form: the button submits by click, the value field by Enter.
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Select
        aria-label="Filter key"
        className="h-7 w-auto max-w-44 text-xs"
        value={chosen}
        disabled={disabled}
        onChange={(e) => setKey(e.target.value)}
      >
        <option value="">key…</option>
        {keys.map((k) => (
          <option key={k} value={k}>
            {keyLabel(k)}
          </option>
        ))}
      </Select>
      <Select
        aria-label="Filter operator"
        className="h-7 w-auto text-xs"
        value={op}
        disabled={disabled}
        onChange={(e) => setOp(e.target.value as FilterOp)}
        options={FILTER_OPS}
      />
      <Input
        aria-label="Filter value"
        className="h-7 w-36 text-xs"
        list={`${idPrefix}-filter-values`}
        placeholder="value"
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && submit(e)}
      />
      <datalist id={`${idPrefix}-filter-values`}>
        {valuesOf(chosen).map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      <Button
        type="button"
        size="sm"
        variant="ghost"
        disabled={disabled || chosen === '' || text === ''}
        onClick={submit}
        aria-label="Add filter"
      >
        <Plus aria-hidden />
      </Button>
    </span>
  );
}

/** A combobox over the discovered names: type to narrow, arrows and Enter to pick. */
function MetricPicker({
  value,
  metrics,
  labelledBy,
  onPick,
}: {
  value: string;
  metrics: readonly DiscoveredMetric[] | undefined;
  labelledBy: string;
  onPick: (name: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const names = useMemo(() => new Set(metrics?.map((m) => m.name) ?? []), [metrics]);
  const current = metrics?.find((m) => m.name === value);
  const about = current ? describeMetric(current, names) : undefined;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <button
          type="button"
          role="combobox"
          aria-expanded={open}
          aria-labelledby={labelledBy}
          className="flex h-8 w-full items-center gap-2 rounded-md border border-input bg-panel px-2.5 text-left text-sm outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30"
        >
          <span className={cn('min-w-0 flex-1 truncate font-mono', value === '' && 'font-sans text-muted-foreground')}>
            {value === '' ? 'Pick a metric…' : value}
          </span>
          {about && (
            <span className="shrink-0 text-xs text-muted-foreground">
              {[about.kind, about.unit].filter(Boolean).join(' · ')}
            </span>
          )}
          <ChevronsUpDown className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
        </button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-[28rem] max-w-[calc(100vw-2rem)]">
        <Command label="Metrics" className="flex max-h-80 flex-col">
          <Command.Input
            placeholder="Search metrics…"
            className="h-9 w-full border-b bg-transparent px-3 text-sm outline-none placeholder:text-muted-foreground"
          />
          <Command.List className="overflow-y-auto p-1">
            <Command.Empty className="px-3 py-5 text-center text-sm text-muted-foreground">
              {metrics === undefined ? 'Loading metrics…' : 'No metric matches.'}
            </Command.Empty>
            {metrics?.map((metric) => {
              const info = describeMetric(metric, names);
              return (
                <Command.Item
                  key={metric.name}
                  value={metric.name}
                  onSelect={() => {
                    onPick(metric.name);
                    setOpen(false);
                  }}
                  className={cn(
                    'flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none data-[selected=true]:bg-muted',
                    currentItemBar.selected,
                  )}
                >
                  <Check
                    className={cn('size-3.5 shrink-0', metric.name === value ? 'opacity-100' : 'opacity-0')}
                    aria-hidden
                  />
                  <span className="min-w-0 flex-1 truncate font-mono text-xs">{metric.name}</span>
                  <span className="shrink-0 text-xs text-muted-foreground">
                    {[info.kind, info.unit].filter(Boolean).join(' · ')}
                  </span>
                  <span
                    className="w-16 shrink-0 text-right text-xs text-muted-foreground tabular"
                    title="points in the range"
                  >
                    {formatCount(metric.points, true)}
                  </span>
                </Command.Item>
              );
            })}
          </Command.List>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
