/**
 * Adding or editing a widget: title, type, the explorer's query builder, and for a single value
 * its reducer and thresholds; a live preview over the page's range.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFormFooter, Form, FormError } from '@/components/ui/form';
import { SelectField, TextField } from '@/components/ui/input';
import type { TelemetryScope } from '@/lib/telemetry';
import { describeQuery, discoverQuery } from '../metrics/query';
import { QueryBuilder } from '../metrics/query-builder';
import type { MetricQuery } from '../metrics/types';
import { REDUCERS, WIDGET_TYPES, type Reducer, type Widget, type WidgetType } from './types';
import { WidgetBody } from './widget-view';

export type WidgetDraft = Pick<Widget, 'title' | 'type' | 'query' | 'reducer' | 'thresholds'>;

const EMPTY_QUERY: MetricQuery = { name: '', aggregation: 'avg', groupBy: [], filters: [] };

export function WidgetDialog({
  scope,
  initial,
  onSave,
  onClose,
  pending,
  error,
}: {
  scope: TelemetryScope;
  /** The widget being edited; undefined to add one. */
  initial: Widget | undefined;
  onSave: (draft: WidgetDraft) => void;
  onClose: () => void;
  pending: boolean;
  error: Error | null;
}) {
  const discover = useQuery(discoverQuery(scope));
  const [title, setTitle] = useState(initial?.title ?? '');
  const [type, setType] = useState<WidgetType>(initial?.type ?? 'line');
  const [query, setQuery] = useState<MetricQuery>(initial?.query ?? EMPTY_QUERY);
  const [reducer, setReducer] = useState<Reducer>(initial?.reducer ?? 'last');
  const [amber, setAmber] = useState(initial?.thresholds ? String(initial.thresholds.amber) : '');
  const [red, setRed] = useState(initial?.thresholds ? String(initial.thresholds.red) : '');

  const hasThresholds = amber.trim() !== '' && red.trim() !== '';
  const thresholdsValid =
    (amber.trim() === '' && red.trim() === '') ||
    (hasThresholds && Number.isFinite(Number(amber)) && Number.isFinite(Number(red)));
  const draft: WidgetDraft = {
    title: title.trim() || (query.name ? describeQuery(query) : 'Untitled'),
    type,
    query,
    ...(type === 'value' ? { reducer } : {}),
    ...(type === 'value' && hasThresholds && thresholdsValid
      ? { thresholds: { amber: Number(amber), red: Number(red) } }
      : {}),
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={initial ? 'Edit widget' : 'Add widget'}
        className="top-[6vh] max-h-[88vh] max-w-4xl overflow-y-auto"
      >
        <Form className="gap-4" onSubmit={() => query.name !== '' && thresholdsValid && onSave(draft)}>
          <div className="grid grid-cols-[1fr_12rem] gap-3">
            <TextField
              label="Title"
              id="widget-title"
              value={title}
              onValue={setTitle}
              maxLength={200}
              placeholder={query.name ? describeQuery(query) : 'Untitled'}
            />
            <SelectField label="Type" id="widget-type" value={type} onValue={setType} options={WIDGET_TYPES} />
          </div>
          <QueryBuilder
            value={query}
            onChange={setQuery}
            metrics={discover.data?.metrics}
            range={scope.range}
            idPrefix="widget"
          />
          {type === 'value' && (
            <fieldset className="grid grid-cols-3 gap-3 rounded-md border px-3 pt-1 pb-3">
              <legend className="px-1 text-xs font-medium text-muted-foreground">Single value</legend>
              <SelectField
                label="Value"
                id="widget-reducer"
                value={reducer}
                onValue={setReducer}
                options={REDUCERS.map((r) => ({ value: r, label: `${r} over the range` }))}
              />
              {[
                { label: 'Amber from', id: 'widget-amber', value: amber, onValue: setAmber },
                { label: 'Red from', id: 'widget-red', value: red, onValue: setRed },
              ].map((threshold) => (
                <TextField
                  key={threshold.id}
                  {...threshold}
                  inputMode="decimal"
                  aria-invalid={!thresholdsValid}
                  placeholder="none"
                />
              ))}
              <p className="col-span-3 text-xs text-muted-foreground">
                Green below amber; with red under amber, lower is worse. Leave both empty for no colour.
              </p>
            </fieldset>
          )}
          <section aria-label="Preview" className="grid gap-1.5 rounded-md border bg-background/40 p-3">
            <h3 className="text-xs font-medium text-muted-foreground">Preview · {draft.title}</h3>
            {query.name === '' ? (
              <p className="py-8 text-center text-sm text-muted-foreground">Pick a metric to see the widget.</p>
            ) : (
              <div className={type === 'table' ? 'max-h-64 overflow-auto' : ''}>
                <WidgetBody
                  widget={draft}
                  scope={scope}
                  syncKey="widget-preview"
                  height={type === 'value' ? 100 : 200}
                />
              </div>
            )}
          </section>
          <FormError message={thresholdsValid ? undefined : 'Give both thresholds as numbers, or neither.'} />
          <DialogFormFooter
            error={error}
            pending={pending}
            disabled={query.name === '' || !thresholdsValid}
            label={initial ? 'Save widget' : 'Add widget'}
            pendingLabel="Saving…"
            onCancel={onClose}
          />
        </Form>
      </DialogContent>
    </Dialog>
  );
}
