/**
 * Saved dashboards (src/api/telemetry/dashboards.ts; metadata repository dashboards.ts). The
 * service keeps `definition` as opaque JSON; this file is the dashboard's own shape of it.
 */
import type { paths } from '@sightline/api-client';
import type { ChartType, MetricQuery } from '../metrics/types';

type Saved = paths['/api/dashboards/{id}']['get']['responses'][200]['content']['application/json'];

/** A dashboard as the API answers it, its definition read through `parseDefinition`. */
export type SavedDashboard = Omit<Saved, 'definition'> & { definition: Record<string, unknown> };

export type WidgetType = ChartType | 'value' | 'table';

export const WIDGET_TYPES: ReadonlyArray<{ value: WidgetType; label: string }> = [
  { value: 'line', label: 'Line' },
  { value: 'area', label: 'Area' },
  { value: 'stacked', label: 'Stacked area' },
  { value: 'bar', label: 'Bar' },
  { value: 'value', label: 'Single value' },
  { value: 'table', label: 'Table' },
];

/** How a single value reduces its series' buckets to one figure. */
export type Reducer = 'last' | 'avg' | 'min' | 'max' | 'sum';
export const REDUCERS: readonly Reducer[] = ['last', 'avg', 'min', 'max', 'sum'];

/**
 * Single-value colours: green under `amber`, amber from it, red from `red`. When `red` is below
 * `amber`, lower is worse (free disk, Apdex) and the comparisons turn round.
 */
export interface Thresholds {
  amber: number;
  red: number;
}

export interface GridPosition {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Widget {
  id: string;
  title: string;
  type: WidgetType;
  query: MetricQuery;
  layout: GridPosition;
  /** Shown on home (StarredWidgets). */
  starred?: boolean;
  reducer?: Reducer;
  thresholds?: Thresholds;
}

export interface DashboardDefinition {
  version: 1;
  widgets: Widget[];
}

/** The file export writes and import reads. */
export interface DashboardFile {
  sightline: 'dashboard';
  name: string;
  definition: DashboardDefinition;
}
