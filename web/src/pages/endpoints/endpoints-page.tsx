/** `/endpoints`: inbound HTTP endpoints ranked by Impact (DASHBOARD.md §3). */
import { Link } from '@tanstack/react-router';
import { linkStyles } from '@/components/ui/link';
import { EmptyState } from '@/components/ui/states';
import { BELOW_LG, TITLE_CELL } from '@/components/ui/table';
import { formatCount } from '@/lib/format';
import { cn } from '@/lib/utils';
import { ApdexValue, DurationCell, EntityNameLink, ErrorRateValue, ImpactBadge } from './entity-parts';
import { EntityListPage, type EntityListConfig } from './entity-list';
import { ENDPOINT_SOURCE, type EndpointOrder } from './api';
import type { EndpointItem } from './types';

export const ENDPOINTS: EntityListConfig<EndpointItem, EndpointOrder> = {
  ...ENDPOINT_SOURCE,
  title: 'Endpoints',
  description:
    'Inbound HTTP endpoints, worst first by Impact: slow answers, server errors and client errors weighted by traffic.',
  noun: 'endpoint',
  rowKey: (item) => `${item.method} ${item.name}`,
  columns: [
    {
      label: 'Endpoint',
      sortKey: 'name',
      className: TITLE_CELL,
      cell: (item) =>
        // A route group has no detail of its own: it opens the endpoints of that route.
        item.method.includes(',') || item.name === item.route ? (
          <Link
            to="/endpoints"
            search={(prev) => ({ ...prev, group: undefined, q: item.route, page: undefined })}
            className={cn(linkStyles.id, 'block truncate text-xs')}
            title={`${item.method} ${item.route}`}
          >
            <span className="text-muted-foreground">{item.method}</span> {item.route}
          </Link>
        ) : (
          <EntityNameLink to="/endpoints/detail" name={item.name} />
        ),
    },
    { label: 'Calls', sortKey: 'requests', numeric: true, cell: (item) => formatCount(item.requests) },
    { label: 'Typical (P50)', sortKey: 'p50', numeric: true, cell: (item) => <DurationCell ms={item.p50Ms} /> },
    { label: 'Slow (P95)', sortKey: 'p95', numeric: true, cell: (item) => <DurationCell ms={item.p95Ms} /> },
    // Below 1024 px the tail figures go, so the endpoint's name keeps its room.
    {
      label: 'P99',
      sortKey: 'p99',
      numeric: true,
      className: BELOW_LG,
      cell: (item) => <DurationCell ms={item.p99Ms} />,
    },
    { label: 'Errors', sortKey: 'errorRate', numeric: true, cell: (item) => <ErrorRateValue value={item.errorRate} /> },
    {
      label: 'Apdex',
      sortKey: 'apdex',
      numeric: true,
      className: BELOW_LG,
      cell: (item) => <ApdexValue value={item.apdex} />,
    },
    { label: 'Impact', sortKey: 'impact', numeric: true, cell: (item) => <ImpactBadge item={item} /> },
  ],
  empty: (
    <EmptyState title="No endpoint calls in this range">
      Calls appear here once an instrumented service handles HTTP requests.{' '}
      <Link to="/connection" className={linkStyles.inText}>
        Connect a service
      </Link>
      , or widen the time range.
    </EmptyState>
  ),
};

export function EndpointsPage() {
  return <EntityListPage config={ENDPOINTS} />;
}
