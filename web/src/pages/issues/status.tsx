/**
 * The issue workflow on the issue pages: the status badge, the status filter, selection with bulk
 * Resolve / Ignore on /issues, and on /issues/:hash the status with its actions and the activity.
 * Changes need the write role: read-only members see the status and the activity only.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { paths } from '@sightline/api-client';
import { Check, ChevronDown, EyeOff, RotateCcw } from 'lucide-react';
import { useLayoutEffect, useRef, useState, type FocusEvent } from 'react';
import { toast } from '@/components/shell/toasts';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Menu, MenuContent, MenuItem, MenuTrigger } from '@/components/ui/menu';
import { RelativeTime } from '@/components/ui/relative-time';
import { Segmented } from '@/components/ui/segmented';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { api, read } from '@/lib/api';
import { useCurrentProject } from '@/lib/current-project';
import { formatCount, formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { IssueStatusFilter } from './search';
import type { IssueGroup } from './types';

type StatusBody =
  paths['/api/exception-stack-traces/{hash}/status']['put']['requestBody']['content']['application/json'];
type Activity =
  paths['/api/exception-stack-traces/{hash}/activity']['get']['responses'][200]['content']['application/json']['items'][number];
type IssueState = Pick<
  IssueGroup,
  'status' | 'regressedAt' | 'regressedVersion' | 'resolvedInVersion' | 'ignoredUntil' | 'ignoreOccurrences'
>;

/** Whether the person may change statuses in the current project. */
export function useCanChangeStatus(): boolean {
  const { project } = useCurrentProject();
  return project?.role === 'admin' || project?.role === 'write';
}

/** Open, resolved or ignored; an open issue that regressed says so in red. */
export function IssueStatusBadge({ issue, className }: { issue: IssueState; className?: string }) {
  const regressed = issue.status === 'open' && issue.regressedAt !== null;
  const label = regressed ? 'regressed' : issue.status;
  return (
    <span
      data-status={label}
      title={
        regressed
          ? `Came back${issue.regressedVersion ? ` in ${issue.regressedVersion}` : ''} ${formatDateTime(issue.regressedAt)}`
          : conditionOf(issue)
      }
      className={cn(
        'inline-flex shrink-0 items-center gap-1 rounded px-1 text-[11px] font-medium',
        regressed ? 'bg-danger text-white dark:text-background' : 'bg-muted text-foreground',
        className,
      )}
    >
      {!regressed && (
        <span
          className={cn(
            'size-1.5 rounded-full',
            issue.status === 'open' ? 'bg-warning' : issue.status === 'resolved' ? 'bg-success' : 'bg-muted-foreground',
          )}
          aria-hidden
        />
      )}
      {label}
    </span>
  );
}

function conditionOf(issue: IssueState): string | undefined {
  if (issue.status === 'resolved' && issue.resolvedInVersion)
    return `Resolved in versions after ${issue.resolvedInVersion}`;
  if (issue.status === 'ignored' && issue.ignoredUntil) return `Ignored until ${formatDateTime(issue.ignoredUntil)}`;
  if (issue.status === 'ignored' && issue.ignoreOccurrences !== null)
    return `Ignored for ${formatCount(issue.ignoreOccurrences)} more occurrences`;
  return undefined;
}

const FILTERS: ReadonlyArray<{ value: IssueStatusFilter; label: string }> = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'ignored', label: 'Ignored' },
  { value: 'all', label: 'All' },
];

export function StatusFilter({
  value,
  onChange,
}: {
  value: IssueStatusFilter;
  onChange: (value: IssueStatusFilter) => void;
}) {
  return <Segmented label="Status" options={FILTERS} value={value} onChange={onChange} />;
}

/** The selected hashes of the list; a new page or filter starts with none. */
export function useSelection(hashes: string[]) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const visible = hashes.filter((hash) => selected.has(hash));
  return {
    selected: visible,
    has: (hash: string) => selected.has(hash),
    toggle: (hash: string) =>
      setSelected((previous) => {
        const next = new Set(previous);
        if (!next.delete(hash)) next.add(hash);
        return next;
      }),
    toggleAll: () => setSelected(visible.length === hashes.length ? new Set() : new Set(hashes)),
    allSelected: hashes.length > 0 && visible.length === hashes.length,
    clear: () => setSelected(new Set()),
  };
}

export function SelectBox({
  checked,
  indeterminate = false,
  label,
  onChange,
}: {
  checked: boolean;
  indeterminate?: boolean;
  label: string;
  onChange: () => void;
}) {
  return (
    <input
      type="checkbox"
      className="size-4 cursor-pointer align-middle accent-accent"
      checked={checked}
      ref={(element) => {
        if (element) element.indeterminate = indeterminate;
      }}
      aria-label={label}
      onChange={onChange}
      onClick={(event) => event.stopPropagation()}
    />
  );
}

function useStatusChange(projectId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ hashes, body }: { hashes: string[]; body: StatusBody; message: string }) => {
      const query = { projectId: projectId! };
      if (hashes.length === 1)
        await read(
          api.PUT('/api/exception-stack-traces/{hash}/status', { params: { path: { hash: hashes[0]! }, query }, body }),
        );
      else await read(api.PUT('/api/exception-stack-traces/status', { params: { query }, body: { hashes, ...body } }));
    },
    onSuccess: async (_answer, { message }) => {
      toast.success(message);
      await Promise.all(
        ['issues', 'issue-group', 'issue-activity'].map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
      );
    },
    onError: (error) => toast.error(error.message),
  });
}

const plural = (count: number) => `${count} ${count === 1 ? 'issue' : 'issues'}`;

/** Resolve / Ignore the selected issues of the list. */
export function BulkActions({
  projectId,
  selected,
  onDone,
}: {
  projectId: string;
  selected: string[];
  onDone: () => void;
}) {
  const change = useStatusChange(projectId);
  const run = (body: StatusBody, verb: string) =>
    change.mutate({ hashes: selected, body, message: `${plural(selected.length)} ${verb}` }, { onSuccess: onDone });
  if (selected.length === 0) return null;
  return (
    <div
      role="toolbar"
      aria-label="Selected issues"
      className="flex h-8 items-center gap-2 rounded-md border bg-accent-soft pr-1 pl-3 text-sm"
    >
      <span className="font-medium" data-testid="selected-count">
        {plural(selected.length)} selected
      </span>
      <Button size="sm" disabled={change.isPending} onClick={() => run({ status: 'resolved' }, 'resolved')}>
        <Check aria-hidden /> Resolve
      </Button>
      <Button size="sm" disabled={change.isPending} onClick={() => run({ status: 'ignored' }, 'ignored')}>
        <EyeOff aria-hidden /> Ignore
      </Button>
      <Button size="sm" variant="ghost" onClick={onDone}>
        Clear
      </Button>
    </div>
  );
}

const DAY_MS = 24 * 3_600_000;

/**
 * Keeps the keyboard's place in a group of actions that replace each other: Ignore becomes Reopen
 * once the issue is ignored, and every action is disabled while the change runs. The focused one
 * going away dropped the focus at the top of the document; it moves to the group's first action
 * instead. A menu opened from the group counts as inside it.
 */
function useFocusKept(key: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  const within = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` (status and pending) is the trigger: the actions it renders replace the focused one
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (within.current && (active === null || active === document.body))
      ref.current?.querySelector<HTMLElement>('button:not(:disabled)')?.focus();
  }, [key]);
  return {
    ref,
    onFocus: () => {
      within.current = true;
    },
    onBlur: (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (next instanceof Element && !ref.current?.contains(next) && !next.closest('[role="menu"]'))
        within.current = false;
    },
  };
}

/** The status of one issue with what can be done to it. */
export function IssueStatusActions({ hash, issue }: { hash: string; issue: IssueState | null | undefined }) {
  const { project } = useCurrentProject();
  const writable = useCanChangeStatus();
  const change = useStatusChange(project?.id);
  const set = (body: StatusBody, message: string) => change.mutate({ hashes: [hash], body, message });
  const status = issue?.status ?? 'open';
  const kept = useFocusKept(`${status} ${change.isPending}`);
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="issue-status" {...kept}>
      {issue && <IssueStatusBadge issue={issue} className="px-1.5 py-0.5 text-xs" />}
      {issue && conditionOf(issue) && <span className="text-xs text-muted-foreground">{conditionOf(issue)}</span>}
      {writable &&
        issue !== undefined &&
        (status === 'open' ? (
          <>
            <div className="inline-flex">
              <Button
                size="sm"
                className="rounded-r-none"
                disabled={change.isPending}
                onClick={() => set({ status: 'resolved' }, 'Issue resolved')}
              >
                <Check aria-hidden /> Resolve
              </Button>
              <Menu>
                <MenuTrigger asChild>
                  <Button
                    size="sm"
                    className="-ml-px rounded-l-none px-1.5"
                    aria-label="More ways to resolve"
                    disabled={change.isPending}
                  >
                    <ChevronDown aria-hidden />
                  </Button>
                </MenuTrigger>
                <MenuContent align="end">
                  <MenuItem
                    onSelect={() =>
                      set({ status: 'resolved', inNextVersion: true }, 'Issue resolved in the next version')
                    }
                  >
                    Resolve in next version
                  </MenuItem>
                </MenuContent>
              </Menu>
            </div>
            <Menu>
              <MenuTrigger asChild>
                <Button size="sm" disabled={change.isPending}>
                  <EyeOff aria-hidden /> Ignore <ChevronDown aria-hidden />
                </Button>
              </MenuTrigger>
              <MenuContent align="end">
                <MenuItem onSelect={() => set({ status: 'ignored' }, 'Issue ignored')}>Forever</MenuItem>
                <MenuItem
                  onSelect={() =>
                    set(
                      { status: 'ignored', until: new Date(Date.now() + DAY_MS).toISOString() },
                      'Issue ignored for 24 hours',
                    )
                  }
                >
                  For 24 hours
                </MenuItem>
                <MenuItem
                  onSelect={() =>
                    set({ status: 'ignored', occurrences: 100 }, 'Issue ignored for 100 more occurrences')
                  }
                >
                  Until 100 more occurrences
                </MenuItem>
              </MenuContent>
            </Menu>
          </>
        ) : (
          <Button size="sm" disabled={change.isPending} onClick={() => set({ status: 'open' }, 'Issue reopened')}>
            <RotateCcw aria-hidden /> Reopen
          </Button>
        ))}
    </div>
  );
}

/** Who did what to the issue, and when, newest first. */
export function IssueActivity({ hash }: { hash: string }) {
  const { project } = useCurrentProject();
  const activity = useQuery({
    queryKey: ['issue-activity', project?.id, hash],
    enabled: project !== undefined,
    queryFn: async () =>
      (
        await read<{ items: Activity[] }>(
          api.GET('/api/exception-stack-traces/{hash}/activity', {
            params: { path: { hash }, query: { projectId: project!.id, limit: 50 } },
          }),
        )
      ).items,
  });
  return (
    <Card aria-label="Activity" className="min-w-0">
      <CardHeader title="Activity" description="Status changes, regressions and reopenings, newest first." />
      {activity.isPending ? (
        <TableSkeleton rows={3} columns={2} />
      ) : activity.isError ? (
        <ErrorState error={activity.error} className="m-4" />
      ) : activity.data.length === 0 ? (
        <EmptyState title="No activity yet" />
      ) : (
        <ol className="grid divide-y text-sm" aria-label="Issue activity">
          {activity.data.map((entry) => (
            <li
              key={entry.id}
              className="flex items-baseline justify-between gap-3 px-4 py-2"
              data-activity={entry.kind}
            >
              <span className="min-w-0">
                <span className="font-medium">{entry.user ? entry.user.name || 'A member' : 'Sightline'}</span>{' '}
                <span className="text-muted-foreground">{describe(entry)}</span>
              </span>
              <RelativeTime value={entry.at} className="shrink-0 text-xs text-muted-foreground tabular" />
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function describe(entry: Activity): string {
  const detail = entry.detail as {
    version?: string;
    reason?: string;
    resolvedInVersion?: string;
    ignoredUntil?: string;
    ignoreOccurrences?: number;
  };
  if (entry.kind === 'new') return 'saw it first';
  if (entry.kind === 'regressed') return `marked it regressed${detail.version ? ` in ${detail.version}` : ''}`;
  if (entry.kind === 'reopened') return `reopened it${detail.reason ? ` (${detail.reason})` : ''}`;
  if (entry.toStatus === 'open') return 'reopened it';
  if (entry.toStatus === 'resolved')
    return detail.resolvedInVersion ? `resolved it in the version after ${detail.resolvedInVersion}` : 'resolved it';
  if (detail.ignoredUntil) return `ignored it until ${formatDateTime(detail.ignoredUntil)}`;
  if (detail.ignoreOccurrences !== undefined)
    return `ignored it for ${formatCount(detail.ignoreOccurrences)} more occurrences`;
  return 'ignored it';
}
