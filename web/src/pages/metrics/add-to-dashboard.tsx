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
import { SelectField, TextField } from '@/components/ui/input';
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
import { WIDGET_TYPES, type WidgetType } from '../dashboards/types';
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
          <SelectField
            label="Dashboard"
            id="add-dashboard"
            value={chosen}
            onValue={setTarget}
            disabled={dashboards.isLoading}
            options={[
              ...(dashboards.data ?? []).map((d) => ({ value: d.id, label: d.name })),
              { value: NEW, label: 'New dashboard…' },
            ]}
          />
          {chosen === NEW && (
            <TextField
              label="New dashboard name"
              id="add-dashboard-name"
              value={name}
              onValue={setName}
              required
              maxLength={200}
              autoFocus
            />
          )}
          <TextField label="Widget title" id="add-widget-title" value={title} onValue={setTitle} maxLength={200} />
          <SelectField label="Widget type" id="add-widget-type" value={type} onValue={setType} options={WIDGET_TYPES} />
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
