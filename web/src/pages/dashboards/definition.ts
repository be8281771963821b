/**
 * The dashboard definition as stored (opaque to the service) and as exported: reading it back
 * from untrusted JSON with every problem named by its path, placing new widgets, and reducing a
 * series to a single value.
 */
import { checkMetricQuery } from '../metrics/query';
import type { MetricQuery } from '../metrics/types';
import {
  REDUCERS,
  WIDGET_TYPES,
  type DashboardDefinition,
  type DashboardFile,
  type GridPosition,
  type Reducer,
  type Widget,
  type WidgetType,
} from './types';

export const GRID_COLUMNS = 12;
const MAX_WIDGETS = 100;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isWhole = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

export const defaultSize = (type: WidgetType): Pick<GridPosition, 'w' | 'h'> =>
  type === 'value' ? { w: 3, h: 3 } : type === 'table' ? { w: 6, h: 5 } : { w: 6, h: 6 };

function checkWidget(raw: unknown, at: string, errors: string[]): Widget | undefined {
  if (!isObject(raw)) {
    errors.push(`${at} must be an object`);
    return undefined;
  }
  const before = errors.length;
  if (typeof raw.id !== 'string' || raw.id === '' || raw.id.length > 100)
    errors.push(`${at}.id must be a text of 1 to 100 characters`);
  if (typeof raw.title !== 'string' || raw.title.length > 200)
    errors.push(`${at}.title must be a text of at most 200 characters`);
  if (!WIDGET_TYPES.some((t) => t.value === raw.type))
    errors.push(`${at}.type must be one of ${WIDGET_TYPES.map((t) => t.value).join(', ')}`);
  const { query, errors: queryErrors } = checkMetricQuery(raw.query, `${at}.query`);
  errors.push(...queryErrors);
  const layout = raw.layout;
  if (
    !isObject(layout) ||
    !isWhole(layout.x, 0, GRID_COLUMNS - 1) ||
    !isWhole(layout.y, 0, 10_000) ||
    !isWhole(layout.w, 1, GRID_COLUMNS) ||
    !isWhole(layout.h, 1, 100)
  ) {
    errors.push(
      `${at}.layout must be {x, y, w, h}: whole numbers, x from 0 to ${GRID_COLUMNS - 1}, w from 1 to ${GRID_COLUMNS}, h from 1 to 100`,
    );
  }
  if (raw.starred !== undefined && typeof raw.starred !== 'boolean') errors.push(`${at}.starred must be true or false`);
  if (raw.reducer !== undefined && !REDUCERS.includes(raw.reducer as Reducer))
    errors.push(`${at}.reducer must be one of ${REDUCERS.join(', ')}`);
  const thresholds = raw.thresholds;
  if (
    thresholds !== undefined &&
    (!isObject(thresholds) ||
      typeof thresholds.amber !== 'number' ||
      typeof thresholds.red !== 'number' ||
      !Number.isFinite(thresholds.amber) ||
      !Number.isFinite(thresholds.red))
  ) {
    errors.push(`${at}.thresholds must be {amber, red} with two numbers`);
  }
  if (errors.length > before || !query || !isObject(layout)) return undefined;
  const place = layout as unknown as GridPosition;
  return {
    id: raw.id as string,
    title: raw.title as string,
    type: raw.type as WidgetType,
    query,
    layout: { x: place.x, y: place.y, w: Math.min(place.w, GRID_COLUMNS - place.x), h: place.h },
    ...(raw.starred === true ? { starred: true } : {}),
    ...(raw.reducer !== undefined ? { reducer: raw.reducer as Reducer } : {}),
    ...(isObject(thresholds)
      ? { thresholds: { amber: thresholds.amber as number, red: thresholds.red as number } }
      : {}),
  };
}

/** A stored or imported definition; `{}` (a dashboard created elsewhere, empty) reads as no widgets. */
export function parseDefinition(
  raw: unknown,
  at = 'definition',
): { definition?: DashboardDefinition; errors: string[] } {
  if (!isObject(raw)) return { errors: [`${at} must be an object`] };
  if (raw.version !== undefined && raw.version !== 1)
    return { errors: [`${at}.version ${JSON.stringify(raw.version)} is not one this dashboard reads (1)`] };
  const list = raw.widgets ?? [];
  if (!Array.isArray(list)) return { errors: [`${at}.widgets must be a list`] };
  if (list.length > MAX_WIDGETS)
    return { errors: [`${at}.widgets holds ${list.length} widgets; at most ${MAX_WIDGETS}`] };
  const errors: string[] = [];
  const widgets = list.map((item, index) => checkWidget(item, `${at}.widgets[${index}]`, errors));
  const ids = new Set<string>();
  widgets.forEach((widget, index) => {
    if (!widget) return;
    if (ids.has(widget.id)) errors.push(`${at}.widgets[${index}].id ${JSON.stringify(widget.id)} is used twice`);
    ids.add(widget.id);
  });
  if (errors.length > 0) return { errors };
  return { definition: { version: 1, widgets: widgets as Widget[] }, errors };
}

/** An exported file, as text: what to create, or everything wrong with it. */
export function parseDashboardFile(text: string): { file?: DashboardFile; errors: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { errors: [`not JSON: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if (!isObject(raw)) return { errors: ['the file must hold a JSON object'] };
  if (raw.sightline !== 'dashboard')
    return { errors: ['not a Sightline dashboard export: "sightline": "dashboard" is missing'] };
  const errors: string[] = [];
  if (typeof raw.name !== 'string' || raw.name.trim() === '' || raw.name.length > 200)
    errors.push('name must be a text of 1 to 200 characters');
  const { definition, errors: definitionErrors } = parseDefinition(raw.definition);
  errors.push(...definitionErrors);
  if (errors.length > 0 || !definition) return { errors };
  return { file: { sightline: 'dashboard', name: (raw.name as string).trim(), definition }, errors };
}

export const exportFile = (name: string, definition: DashboardDefinition): DashboardFile => ({
  sightline: 'dashboard',
  name,
  definition,
});

/** A new widget under the existing ones, full rows first. */
export function newWidget(
  existing: readonly Widget[],
  init: { title: string; type: WidgetType; query: MetricQuery; reducer?: Reducer; thresholds?: Widget['thresholds'] },
): Widget {
  const bottom = existing.reduce((max, w) => Math.max(max, w.layout.y + w.layout.h), 0);
  return { id: crypto.randomUUID(), ...init, layout: { x: 0, y: bottom, ...defaultSize(init.type) } };
}

export function reduceValues(values: readonly (number | null)[], reducer: Reducer): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  if (reducer === 'last') return present[present.length - 1]!;
  if (reducer === 'min') return Math.min(...present);
  if (reducer === 'max') return Math.max(...present);
  const sum = present.reduce((total, v) => total + v, 0);
  return reducer === 'sum' ? sum : sum / present.length;
}

export type Level = 'success' | 'warning' | 'danger';

export function levelOf(value: number, thresholds: { amber: number; red: number }): Level {
  const higherIsWorse = thresholds.red >= thresholds.amber;
  const reached = (limit: number) => (higherIsWorse ? value >= limit : value <= limit);
  return reached(thresholds.red) ? 'danger' : reached(thresholds.amber) ? 'warning' : 'success';
}
