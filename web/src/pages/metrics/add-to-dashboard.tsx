/**
 * "Add to dashboard" from the explorer: the query as a new widget on an existing dashboard (read
 * fresh, appended under its widgets) or on a new one.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from '@/components/shell/toasts';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogFormFooter, Form } from '@/components/ui/form';
import { Field, Input, Select } from '@/components/ui/input';
import type { TelemetryScope } from '@/lib/telemetry';
import {
  createDashboard,
  dashboardKey,
  dashboardQuery,
  dashboardsKey,
  dashboardsQuery,
  keepScope,
  updateDashboard,
} from '../dashboards/api';
import { newWidget, parseDefinition } from '../dashboards/definition';
import type { WidgetType } from '../dashboards/types';
import { WidgetTypeSelect } from '../dashboards/widget-type-select';
import { describeQuery } from './query';
import type { ChartType, MetricQuery } from './types';

const NEW = 'new';

export function AddToDashboardDialog({
  scope,
  query,
  chart,
  onClose,
}: {
  scope: TelemetryScope;
  query: MetricQuery;
  chart: ChartType;
  onClose: () => void;
}) {
  const { projectId } = scope;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const dashboards = useQuery(dashboardsQuery(projectId));
  const [target, setTarget] = useState<string | undefined>(undefined);
  const [name, setName] = useState('');
  const [title, setTitle] = useState(describeQuery(query));
  const [type, setType] = useState<WidgetType>(chart);
  const chosen = target ?? dashboards.data?.[0]?.id ?? NEW;

  const add = useMutation({
    mutationFn: async () => {
      const init = { title: title.trim() || describeQuery(query), type, query };
      if (chosen === NEW)
        return createDashboard(projectId, name.trim(), { version: 1, widgets: [newWidget([], init)] });
      // The dashboard as saved now, not as cached: another tab may have added widgets since.
      const current = await queryClient.fetchQuery({ ...dashboardQuery(projectId, chosen), staleTime: 0 });
      const { definition, errors } = parseDefinition(current.definition);
      if (!definition) throw new Error(`This dashboard's saved definition cannot be read: ${errors[0]}`);
      return updateDashboard(projectId, chosen, {
        definition: { ...definition, widgets: [...definition.widgets, newWidget(definition.widgets, init)] },
      });
    },
    onSuccess: async (saved) => {
      queryClient.setQueryData(dashboardKey(projectId, saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(projectId), exact: true });
      onClose();
      toast.success(`Added to ${saved.name}`, {
        action: {
          label: 'Open',
          onClick: () => void navigate({ to: '/dashboards/$id', params: { id: saved.id }, search: keepScope }),
        },
      });
    },
  });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title="Add to dashboard"
        description={`A widget showing ${describeQuery(query)}; the dashboard's time range applies to it.`}
      >
        <Form onSubmit={() => add.mutate()}>
          <Field label="Dashboard" htmlFor="add-dashboard">
            <Select
              id="add-dashboard"
              value={chosen}
              onChange={(e) => setTarget(e.target.value)}
              disabled={dashboards.isLoading}
            >
              {dashboards.data?.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
              <option value={NEW}>New dashboard…</option>
            </Select>
          </Field>
          {chosen === NEW && (
            <Field label="New dashboard name" htmlFor="add-dashboard-name">
              <Input
                id="add-dashboard-name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                maxLength={200}
                autoFocus
              />
            </Field>
          )}
          <Field label="Widget title" htmlFor="add-widget-title">
            <Input id="add-widget-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
          </Field>
          <Field label="Widget type" htmlFor="add-widget-type">
            <WidgetTypeSelect id="add-widget-type" value={type} onChange={setType} />
          </Field>
          <DialogFormFooter
            error={add.error ?? dashboards.error}
            pending={add.isPending}
            disabled={chosen === NEW && name.trim() === ''}
            label="Add widget"
            pendingLabel="Adding…"
            onCancel={onClose}
          />
        </Form>
      </DialogContent>
    </Dialog>
  );
}
