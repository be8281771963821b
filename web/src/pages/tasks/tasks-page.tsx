/** `/tasks`: background tasks ranked by runs × (P95 − P50), the list of endpoints reused. */
import { Link } from '@tanstack/react-router';
import { linkStyles } from '@/components/ui/link';
import { EmptyState } from '@/components/ui/states';
import { BELOW_LG, TITLE_CELL } from '@/components/ui/table';
import { formatCount, formatDuration } from '@/lib/format';
import { cn } from '@/lib/utils';
import { EntityListPage, type EntityListConfig } from '../endpoints/entity-list';
import { DurationCell, EntityNameLink } from '../endpoints/entity-parts';
import type { TaskItem } from '../endpoints/types';
import { TASK_SOURCE, type TaskOrder } from './api';

const TASKS: EntityListConfig<TaskItem, TaskOrder> = {
  ...TASK_SOURCE,
  title: 'Tasks',
  description: 'Background jobs and scheduled work, ranked by the time their slow runs cost: runs × (P95 − P50).',
  noun: 'task',
  columns: [
    {
      label: 'Task',
      sortKey: 'name',
      className: TITLE_CELL,
      cell: (item) => <EntityNameLink to="/tasks/detail" name={item.name} />,
    },
    { label: 'Runs', sortKey: 'count', numeric: true, cell: (item) => formatCount(item.count) },
    {
      label: 'Failures',
      sortKey: 'failures',
      numeric: true,
      cell: (item) => (
        <span className={cn(item.failures > 0 ? 'text-danger' : 'text-muted-foreground')}>
          {formatCount(item.failures)}
        </span>
      ),
    },
    { label: 'Typical (P50)', sortKey: 'p50', numeric: true, cell: (item) => <DurationCell ms={item.p50Ms} /> },
    { label: 'Slow (P95)', sortKey: 'p95', numeric: true, cell: (item) => <DurationCell ms={item.p95Ms} /> },
    // Below 1024 px the tail figure goes, so the task's name keeps its room.
    {
      label: 'P99',
      sortKey: 'p99',
      numeric: true,
      className: BELOW_LG,
      cell: (item) => <DurationCell ms={item.p99Ms} />,
    },
    {
      label: 'Rank',
      sortKey: 'rank',
      numeric: true,
      cell: (item) => (
        <span
          className="font-mono text-xs"
          title={`${formatCount(item.count)} runs × (P95 − P50): time lost to runs slower than typical`}
        >
          {formatDuration(item.rank)}
        </span>
      ),
    },
  ],
  empty: (
    <EmptyState title="No task runs in this range">
      Background jobs appear here once a service reports them (a trace marked as a task, or an OpenTelemetry span of
      kind consumer).{' '}
      <Link to="/connection" className={linkStyles.inText}>
        Connect a service
      </Link>
      , or widen the time range.
    </EmptyState>
  ),
};

export function TasksPage() {
  return <EntityListPage config={TASKS} />;
}
