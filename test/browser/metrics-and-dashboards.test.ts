/**
 * /metrics and /dashboards in Chromium against a real service on embedded engines. Metrics of
 * every instrument kind (counter, up-down counter, gauge, histogram, exponential histogram) are
 * sent by the real OpenTelemetry SDK through its OTLP/protobuf exporter; the pages are checked
 * against what the read API answers for the same query and range. Every page is screenshotted
 * light and dark (axe-checked); any console error or failed request fails the test that caused it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  AggregationType,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../support/service.js';
import { openSignedInDashboard, type SignedInDashboard } from '../support/signed-in-dashboard.js';

interface MetricAnswer {
  bucketSeconds: number;
  bucketStarts: number[];
  series: Array<{ group: Record<string, string>; values: Array<number | null> }>;
}
interface Layout {
  x: number;
  y: number;
  w: number;
  h: number;
}
interface SavedWidget {
  id: string;
  title: string;
  type: string;
  query: { name: string; aggregation: string; groupBy: string[]; filters: unknown[] };
  layout: Layout;
  starred?: boolean;
  thresholds?: { amber: number; red: number };
}
interface SavedDashboard {
  id: string;
  name: string;
  definition: { version: number; widgets: SavedWidget[] };
}

// The grid's geometry (web/src/pages/dashboards/dashboard-page.tsx).
const COLUMNS = 12;
const ROW_HEIGHT = 40;
const MARGIN = 12;

const exportErrors: string[] = [];
diag.setLogger(
  {
    error: (...args: unknown[]) => exportErrors.push(args.map(String).join(' ')),
    warn: () => {},
    info: () => {},
    debug: () => {},
    verbose: () => {},
  },
  DiagLogLevel.ERROR,
);

/** Polls for longer than vitest's default second: a query runs on the embedded engine first. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

/** A figure as the page writes it ("1,234.5") as a number. */
const numberOf = (text: string | null) => Number((text ?? '').replace(/[,\s\u202f]/g, ''));

describe('metrics and dashboards in Chromium', () => {
  let d: SignedInDashboard;
  let page: Page;
  let meters: MeterProvider;
  // One fixed window for the page and the API, so both ask for the same buckets.
  const now = Date.now();
  const window = { from: new Date(now - 3600_000).toISOString(), to: new Date(now + 600_000).toISOString() };

  const query = async (body: Record<string, unknown>) => {
    const response = await d.service.app.inject({
      method: 'POST',
      url: `/api/metrics/query?projectId=${d.projectId}`,
      headers: { authorization: `Bearer ${d.session}` },
      payload: { fromDate: window.from, toDate: window.to, ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as MetricAnswer;
  };
  const search = () => new URL(page.url()).searchParams;
  const dashboards = async () =>
    (await d.api<{ dashboards: SavedDashboard[] }>(`/api/dashboards?projectId=${d.projectId}`)).dashboards;

  beforeAll(async () => {
    d = await openSignedInDashboard();
    page = d.page;
    meters = new MeterProvider({
      resource: resourceFromAttributes({ 'service.name': 'shop-web', 'deployment.environment.name': 'test' }),
      views: [{ instrumentName: 'shop.payload.size', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }],
      readers: [
        new PeriodicExportingMetricReader({
          exporter: new OTLPMetricExporter({
            url: `${d.base}/api/otel/v1/metrics`,
            headers: { Authorization: `Bearer ${d.projectToken}` },
            temporalityPreference: AggregationTemporality.DELTA,
          }),
          exportIntervalMillis: 3_600_000,
        }),
      ],
    });
    const meter = meters.getMeter('shop-web');
    const orders = meter.createCounter('shop.orders');
    orders.add(3, { region: 'eu' });
    orders.add(2, { region: 'eu' });
    orders.add(4, { region: 'us' });
    const depth = meter.createUpDownCounter('shop.queue.depth');
    depth.add(5);
    depth.add(-2);
    const temperature = meter.createGauge('shop.cpu.temperature', { unit: 'Cel' });
    temperature.record(61.5, { core: '0' });
    temperature.record(58, { core: '1' });
    const checkout = meter.createHistogram('shop.checkout.duration', { unit: 'ms' });
    checkout.record(10);
    checkout.record(30);
    const payload = meter.createHistogram('shop.payload.size', { unit: 'By' });
    payload.record(100);
    payload.record(300);
    // Resolves once the service answered the export; an answered export is stored.
    await meters.forceFlush();
    expect(exportErrors).toEqual([]);
  });

  afterEach(() => {
    expect(d.watch.problems).toEqual([]);
  });

  afterAll(async () => {
    await meters?.shutdown().catch(() => {});
    await d?.close();
  });

  it('lists every metric of the range with what is known of its kind', async () => {
    await d.open('/metrics', window);
    const list = page.getByRole('table', { name: 'Metrics in this time range' });
    await list.waitFor();
    const kinds = Object.fromEntries(
      await Promise.all(
        (await list.getByRole('row').all()).slice(1).map(async (row) => {
          const cells = await row.getByRole('cell').allTextContents();
          return [cells[0], cells[1]] as const;
        }),
      ),
    );
    expect(kinds).toEqual({
      'shop.checkout.duration.avg': 'histogram mean',
      'shop.checkout.duration.count': 'histogram count · count',
      'shop.cpu.temperature': 'gauge',
      'shop.orders': 'sum · delta',
      // The exponential histogram is stored as .avg and .count like the explicit one.
      'shop.payload.size.avg': 'histogram mean',
      'shop.payload.size.count': 'histogram count · count',
      'shop.queue.depth': 'sum · cumulative',
    });
    await d.capture('metrics-list');

    // Before any data: the empty states say what would fill them.
    await d.open('/metrics', {
      from: new Date(now - 3 * 86400_000).toISOString(),
      to: new Date(now - 2 * 86400_000).toISOString(),
    });
    await page.getByText('No metrics in this time range').waitFor();
    await page.getByRole('link', { name: 'Set up the connection' }).waitFor();
    await d.capture('metrics-empty');
    await d.open('/dashboards', window);
    await page.getByText('No dashboards yet').waitFor();
    await d.capture('dashboards-empty');
    await d.open('/metrics', window);
  });

  it('picks a metric, aggregates and groups it, shows what the API answers, and keeps the query in the URL', async () => {
    await page.getByRole('combobox', { name: 'Metric' }).click();
    await page.getByPlaceholder('Search metrics…').fill('orders');
    await page.getByRole('option', { name: /^shop\.orders/ }).click();
    await page.getByLabel('Aggregation').selectOption('sum');
    await page.getByLabel('Add a group-by key').selectOption('region');
    await eventually(() => search().get('groupBy')).toBe('["region"]');
    expect(search().get('metric')).toBe('shop.orders');
    expect(search().get('aggregation')).toBe('sum');

    const expected = await query({ name: 'shop.orders', aggregation: 'sum', groupBy: ['region'] });
    expect(expected.series.map((s) => s.group.region).sort()).toEqual(['eu', 'us']);
    const summaries = () => summaryRows(page);
    const wanted = expected.series
      .map((s) => {
        const present = s.values.filter((v): v is number => v !== null);
        return {
          series: `region=${s.group.region}`,
          last: present.at(-1)!,
          avg: present.reduce((a, b) => a + b, 0) / present.length,
          min: Math.min(...present),
          max: Math.max(...present),
          buckets: present.length,
        };
      })
      .sort((a, b) => a.series.localeCompare(b.series));
    // The figures the service stored: 3 + 2 in eu, 4 in us.
    expect(wanted.map((w) => w.last)).toEqual([5, 4]);
    await eventually(summaries).toEqual(wanted);
    const chart = page.getByRole('figure', { name: 'sum(shop.orders) by region' });
    await chart.waitFor();
    expect(await chart.getByRole('button').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('region=eu'), expect.stringContaining('region=us')]),
    );
    await d.capture('metrics-grouped');

    // The legend toggles a series.
    await chart.getByRole('button', { name: /region=us/ }).click();
    expect(await chart.getByRole('button', { name: /region=us/ }).getAttribute('aria-pressed')).toBe('false');

    // A reload draws the same query.
    await page.reload();
    await eventually(summaries).toEqual(wanted);
    await page.getByRole('figure', { name: 'sum(shop.orders) by region' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Metric' }).textContent()).toContain('shop.orders');
    expect(await page.getByLabel('Aggregation').inputValue()).toBe('sum');

    // A filter chip narrows to one series, as the API does.
    await page.getByLabel('Filter key').selectOption('region');
    await page.getByLabel('Filter value').fill('eu');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await eventually(() => search().get('filters')).toBe(
      JSON.stringify([{ field: 'dimensions.region', op: 'eq', value: 'eu' }]),
    );
    const filtered = await query({
      name: 'shop.orders',
      aggregation: 'sum',
      groupBy: ['region'],
      filters: [{ field: 'dimensions.region', op: 'eq', value: 'eu' }],
    });
    expect(filtered.series).toHaveLength(1);
    await eventually(async () => (await summaries()).map((row) => row.series)).toEqual(['region=eu']);
    await d.capture('metrics-filtered');
    await page.getByRole('button', { name: 'Remove filter region = eu' }).click();
    await eventually(async () => (await summaries()).length).toBe(2);
  });

  it('adds the query to a new dashboard', async () => {
    await page.getByRole('button', { name: 'Add to dashboard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to dashboard' });
    await dialog.getByLabel('New dashboard name').fill('Shop');
    await d.capture('metrics-add-to-dashboard');
    await dialog.getByRole('button', { name: 'Add widget' }).click();
    await page.getByText('Added to Shop').waitFor();
    const [shop] = await dashboards();
    expect(shop?.name).toBe('Shop');
    expect(shop?.definition.widgets).toEqual([
      expect.objectContaining({
        title: 'sum(shop.orders) by region',
        type: 'line',
        query: { name: 'shop.orders', aggregation: 'sum', groupBy: ['region'], filters: [] },
        layout: { x: 0, y: 0, w: 6, h: 6 },
      }),
    ]);
  });

  it('lists dashboards, adds a single value with thresholds, moves and resizes widgets, and keeps them after a reload', async () => {
    await d.open('/dashboards', window);
    await page.getByRole('table', { name: 'Dashboards' }).getByRole('row', { name: /Shop/ }).waitFor();
    await d.capture('dashboards-list');
    await page.getByRole('link', { name: 'Shop' }).click();
    await page.waitForURL(/\/dashboards\/[0-9a-f-]+\?/);
    expect(search().get('from')).toBe(window.from);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    // One widget so far: said in the singular.
    await page.getByText(/ · 1 widget · updated /).waitFor();

    // A single value: the hottest core, amber from 60, red from 80.
    await page.getByRole('button', { name: 'Add widget' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add widget' });
    await dialog.getByLabel('Type').selectOption('value');
    await dialog.getByRole('combobox', { name: 'Metric' }).click();
    await page.getByRole('option', { name: /^shop\.cpu\.temperature/ }).click();
    await dialog.getByLabel('Aggregation').selectOption('max');
    await dialog.getByLabel('Title').fill('Hottest core');
    await dialog.getByLabel('Value', { exact: true }).selectOption('max');
    await dialog.getByLabel('Amber from').fill('60');
    await dialog.getByLabel('Red from').fill('80');
    await dialog.getByLabel('Hottest core: 61.5, over the amber threshold').waitFor();
    await d.capture('dashboard-widget-dialog');
    await dialog.getByRole('button', { name: 'Add widget' }).click();
    await dialog.waitFor({ state: 'detached' });

    const hottest = await query({ name: 'shop.cpu.temperature', aggregation: 'max' });
    const shown = page.getByLabel(/^Hottest core: /).first();
    await eventually(async () => numberOf(await shown.textContent())).toBe(
      Math.max(...hottest.series[0]!.values.filter((v): v is number => v !== null)),
    );
    expect(await shown.getAttribute('data-level')).toBe('warning');
    const chart = page.getByRole('figure', { name: 'sum(shop.orders) by region' });
    await chart.waitFor();
    await d.capture('dashboard');

    let saved = (await d.api<SavedDashboard>(`/api/dashboards/${id}?projectId=${d.projectId}`)).definition.widgets;
    const chartWidget = saved.find((w) => w.type === 'line')!;
    const valueWidget = saved.find((w) => w.type === 'value')!;
    expect(valueWidget).toMatchObject({
      title: 'Hottest core',
      query: { name: 'shop.cpu.temperature', aggregation: 'max' },
      thresholds: { amber: 60, red: 80 },
      layout: { x: 0, y: 6, w: 3, h: 3 },
    });

    // Move the single value to the right of the chart (by its title bar), then make the chart two rows taller.
    const grid = page.locator('.react-grid-layout');
    const gridBox = (await grid.boundingBox())!;
    const column = (gridBox.width - 2 * MARGIN - (COLUMNS - 1) * MARGIN) / COLUMNS;
    const handle = page.locator(`[data-widget-id="${valueWidget.id}"] .widget-handle`);
    const from = (await handle.boundingBox())!;
    const saves = () =>
      page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(`/api/dashboards/${id}`));
    let put = saves();
    await page.mouse.move(from.x + 40, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 40 + 3 * (column + MARGIN), from.y - 2 * (ROW_HEIGHT + MARGIN), { steps: 5 });
    await page.mouse.move(from.x + 40 + 7 * (column + MARGIN), from.y - 7 * (ROW_HEIGHT + MARGIN), { steps: 10 });
    await page.mouse.up();
    expect((await put).status()).toBe(200);

    put = saves();
    const resize = page.locator(`[data-widget-id="${chartWidget.id}"] .react-resizable-handle-se`);
    const corner = (await resize.boundingBox())!;
    await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await page.mouse.down();
    await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2 + 2 * (ROW_HEIGHT + MARGIN), {
      steps: 8,
    });
    await page.mouse.up();
    expect((await put).status()).toBe(200);

    saved = (await d.api<SavedDashboard>(`/api/dashboards/${id}?projectId=${d.projectId}`)).definition.widgets;
    const moved = saved.find((w) => w.id === valueWidget.id)!.layout;
    const resized = saved.find((w) => w.id === chartWidget.id)!.layout;
    expect(moved.x).toBeGreaterThanOrEqual(6);
    expect(moved.y).toBe(0);
    expect(resized).toEqual({ x: 0, y: 0, w: 6, h: 8 });

    // After a reload every widget sits where the saved layout says, in pixels.
    await page.reload();
    await page.getByRole('figure', { name: 'sum(shop.orders) by region' }).waitFor();
    const reloadedGrid = (await grid.boundingBox())!;
    for (const widget of saved) {
      const want = expectedBox(reloadedGrid, widget.layout);
      // Within a pixel: the grid rounds each item's position itself.
      await expect
        .poll(async () => offBy(await boxOf(page, widget.id), want), {
          timeout: 20_000,
          message: `${widget.title} at ${JSON.stringify(widget.layout)}`,
        })
        .toBeLessThanOrEqual(1);
    }
    await d.capture('dashboard-moved');
  });

  it('edits a widget in the dialog, stars one for home, exports the dashboard as JSON and imports it back', async () => {
    // Red from 61: the hottest core (61.5) turns red; the saved widget keeps its place.
    const before = (await dashboards())[0]!.definition.widgets.find((w) => w.type === 'value')!;
    await page.getByRole('button', { name: 'Edit Hottest core' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit widget' });
    expect(await edit.getByLabel('Amber from').inputValue()).toBe('60');
    await edit.getByLabel('Amber from').fill('55');
    await edit.getByLabel('Red from').fill('61');
    await edit.getByRole('button', { name: 'Save widget' }).click();
    await edit.waitFor({ state: 'detached' });
    await eventually(() =>
      page
        .getByLabel(/^Hottest core: /)
        .first()
        .getAttribute('data-level'),
    ).toBe('danger');
    const after = (await dashboards())[0]!.definition.widgets.find((w) => w.id === before.id)!;
    expect(after).toEqual({ ...before, thresholds: { amber: 55, red: 61 } });

    const [shop] = await dashboards();
    const chartWidget = shop!.definition.widgets.find((w) => w.type === 'line')!;
    await page.getByRole('button', { name: `Star ${chartWidget.title} (show on home)` }).click();
    await eventually(
      async () => (await dashboards())[0]!.definition.widgets.find((w) => w.id === chartWidget.id)?.starred,
    ).toBe(true);
    await page.getByRole('button', { name: `Unstar ${chartWidget.title} (remove from home)` }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Shop.dashboard.json');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-export-')), 'Shop.dashboard.json');
    await download.saveAs(file);
    const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      sightline: string;
      name: string;
      definition: SavedDashboard['definition'];
    };
    const current = (await dashboards()).find((x) => x.id === shop!.id)!;
    expect(exported).toEqual({ sightline: 'dashboard', name: 'Shop', definition: current.definition });

    await d.open('/dashboards', window);
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a dashboard' });
    // A broken file first: every problem is named by its path, and nothing is created.
    await dialog.getByLabel('Or paste the JSON').fill(
      JSON.stringify({
        sightline: 'dashboard',
        name: 'Broken',
        definition: {
          widgets: [{ id: 'a', title: 'x', type: 'pie', query: { name: '' }, layout: { x: 20, y: 0, w: 1, h: 1 } }],
        },
      }),
    );
    await dialog.getByRole('button', { name: 'Import' }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText('This file cannot be imported:').waitFor();
    expect(await alert.getByRole('listitem').allTextContents()).toEqual([
      'definition.widgets[0].type must be one of line, area, stacked, bar, value, table',
      'definition.widgets[0].query.name must be a metric name (1 to 500 characters)',
      'definition.widgets[0].layout must be {x, y, w, h}: whole numbers, x from 0 to 11, w from 1 to 12, h from 1 to 100',
    ]);
    await d.capture('dashboards-import-errors');
    expect(await dashboards()).toHaveLength(1);

    await dialog.getByLabel('File').setInputFiles(file);
    await eventually(() => dialog.getByLabel(/Contents of Shop\.dashboard\.json/).inputValue()).toContain(
      '"sightline": "dashboard"',
    );
    await dialog.getByRole('button', { name: 'Import' }).click();
    await page.getByText('Dashboard Shop imported').waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/dashboards/') && !url.pathname.endsWith(shop!.id));
    const importedId = new URL(page.url()).pathname.split('/').pop()!;
    const imported = await d.api<SavedDashboard>(`/api/dashboards/${importedId}?projectId=${d.projectId}`);
    expect(imported).toMatchObject({ name: 'Shop', definition: exported.definition });
    await page.getByRole('figure', { name: 'sum(shop.orders) by region' }).waitFor();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('home shows the widgets starred on the dashboards, each linked to its dashboard', async () => {
    // The Shop dashboard and its imported copy both star the line widget.
    const starred = (await dashboards()).flatMap((dashboard) =>
      dashboard.definition.widgets.filter((w) => w.starred).map((widget) => ({ dashboard, widget })),
    );
    expect(starred).toHaveLength(2);
    await d.open('/', window);
    const card = page.getByRole('heading', { name: 'Starred widgets' });
    await card.waitFor();
    const sections = page.getByRole('region', { name: starred[0]!.widget.title });
    await eventually(() => sections.count()).toBe(2);
    const links = await sections
      .getByRole('link')
      .evaluateAll((anchors) => anchors.map((a) => new URL((a as unknown as { href: string }).href).pathname));
    expect(links.sort()).toEqual(starred.map(({ dashboard }) => `/dashboards/${dashboard.id}`).sort());
    // Each draws the widget's metric over home's range (the chart's canvas), not a placeholder.
    await eventually(() => sections.locator('canvas').count()).toBeGreaterThanOrEqual(2);
    await d.capture('home-starred-widgets');
  });

  it('creates an empty dashboard, renames and deletes it after its name is typed', async () => {
    await d.open('/dashboards', window);
    await page.getByRole('button', { name: 'New dashboard' }).click();
    await page.getByRole('dialog', { name: 'New dashboard' }).getByLabel('Dashboard name').fill('Scratch');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await page.getByRole('heading', { name: 'Scratch', level: 1 }).waitFor();
    await page.getByText('No widgets yet').waitFor();
    expect(search().get('from')).toBe(window.from);
    await d.capture('dashboard-empty');

    await page.getByRole('button', { name: 'Dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    await page.getByLabel('Dashboard name').fill('Scratch pad');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'Scratch pad', level: 1 }).waitFor();
    expect((await dashboards()).map((x) => x.name).sort()).toEqual(['Scratch pad', 'Shop', 'Shop']);

    await page.getByRole('button', { name: 'Dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Scratch pad?' });
    await dialog.getByLabel('Type Scratch pad to confirm').fill('Scratch');
    expect(await dialog.getByRole('button', { name: 'Delete dashboard' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Type Scratch pad to confirm').fill('Scratch pad');
    await d.capture('dashboard-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete dashboard' }).click();
    await page.waitForURL(/\/dashboards\?/);
    expect((await dashboards()).map((x) => x.name)).toEqual(['Shop', 'Shop']);
  });

  it('loads the chart code only on pages with charts', async () => {
    const assets = path.resolve('web/dist/assets');
    const chartChunks = fs
      .readdirSync(assets)
      .filter(
        (name) => name.endsWith('.js') && fs.readFileSync(path.join(assets, name), 'utf8').includes('u-cursor-x'),
      );
    expect(chartChunks).toHaveLength(1);
    const loaded: string[] = [];
    const record = (request: { url(): string }) => void loaded.push(new URL(request.url()).pathname);
    page.on('request', record);
    await d.open('/settings/account');
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(loaded.filter((p) => p.endsWith('.js')).length).toBeGreaterThan(0);
    expect(loaded).not.toContain(`/assets/${chartChunks[0]}`);
    loaded.length = 0;
    await d.open('/metrics', { ...window, metric: 'shop.queue.depth' });
    await page.getByRole('figure', { name: 'avg(shop.queue.depth)' }).waitFor();
    expect(loaded).toContain(`/assets/${chartChunks[0]}`);
    page.off('request', record);
  });

  it('shows a read-only member the dashboards without write controls', async () => {
    const reader = await registerUser(d.service.app);
    const organizationId = (await d.api<{ organizations: Array<{ id: string }> }>('/api/me')).organizations[0]!.id;
    const invite = await d.service.app.inject({
      method: 'POST',
      url: `/api/organizations/${organizationId}/invitations`,
      headers: { authorization: `Bearer ${d.session}` },
      payload: { email: reader.user.email, role: 'read-only' },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const accepted = await d.service.app.inject({
      method: 'POST',
      url: '/api/invitations/accept',
      headers: { authorization: `Bearer ${reader.token}` },
      payload: { token: (invite.json() as { token: string }).token },
    });
    expect(accepted.statusCode, accepted.body).toBeLessThan(300);
    // From here on the browser is the reader (init scripts run in order; this one sets the session last).
    await d.browser.context.addInitScript(`localStorage.setItem('sightline.session', ${JSON.stringify(reader.token)})`);
    await d.open('/dashboards', window);
    await page.getByRole('link', { name: 'Shop' }).first().waitFor();
    expect(await page.getByRole('button', { name: 'New dashboard' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Import' }).count()).toBe(0);
    await d.capture('dashboards-list-read-only');
    await page.getByRole('link', { name: 'Shop' }).first().click();
    await page.getByRole('figure', { name: 'sum(shop.orders) by region' }).waitFor();
    expect(await page.getByRole('button', { name: 'Add widget' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Remove|Star|Unstar) / }).count()).toBe(0);
    // No drag handle, and the grid's resize handles stay hidden.
    expect(await page.locator('.widget-handle').count()).toBe(0);
    expect(await page.locator('.react-resizable-handle:visible').count()).toBe(0);
    await page.getByRole('button', { name: 'Export JSON' }).waitFor();
    await d.capture('dashboard-read-only');
    await d.open('/metrics', { ...window, metric: 'shop.orders' });
    await page.getByRole('figure', { name: 'avg(shop.orders)' }).waitFor();
    expect(await page.getByRole('button', { name: 'Add to dashboard' }).count()).toBe(0);
  });
});

/** The series table under the explorer's chart, as numbers. */
async function summaryRows(page: Page) {
  const rows = await page.getByRole('table', { name: 'Series summary' }).getByRole('row').all();
  const out = [];
  for (const row of rows.slice(1)) {
    const [series, last, avg, min, max, buckets] = await row.getByRole('cell').allTextContents();
    out.push({
      series,
      last: numberOf(last!),
      avg: numberOf(avg!),
      min: numberOf(min!),
      max: numberOf(max!),
      buckets: numberOf(buckets!),
    });
  }
  return out.sort((a, b) => a.series!.localeCompare(b.series!));
}

async function boxOf(page: Page, widgetId: string) {
  const box = (await page.locator(`[data-widget-id="${widgetId}"]`).boundingBox())!;
  return { x: box.x, y: box.y, width: box.width, height: box.height };
}

function offBy(
  a: Record<'x' | 'y' | 'width' | 'height', number>,
  b: Record<'x' | 'y' | 'width' | 'height', number>,
): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.width - b.width), Math.abs(a.height - b.height));
}

/** Where react-grid-layout puts a widget of `layout` in a grid whose box is `grid` (padding: MARGIN left and right, none above). */
function expectedBox(grid: { x: number; y: number; width: number }, layout: Layout) {
  const column = (grid.width - 2 * MARGIN - (COLUMNS - 1) * MARGIN) / COLUMNS;
  return {
    x: grid.x + MARGIN + layout.x * (column + MARGIN),
    y: grid.y + layout.y * (ROW_HEIGHT + MARGIN),
    width: layout.w * column + (layout.w - 1) * MARGIN,
    height: layout.h * ROW_HEIGHT + (layout.h - 1) * MARGIN,
  };
}
