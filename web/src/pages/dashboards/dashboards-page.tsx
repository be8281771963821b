/** /dashboards: the project's saved dashboards; create, import, rename and delete for members who may write. */
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { MoreHorizontal, Plus, Upload } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Menu, MenuContent, MenuItem, MenuTrigger } from '@/components/ui/menu';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { useCurrentProject } from '@/lib/current-project';
import { formatDateTime } from '@/lib/format';
import { useListKeyboard } from '@/lib/use-list-keyboard';
import { PageHeader } from '../page-header';
import { canWrite, dashboardsQuery, keepScope } from './api';
import { DashboardLink } from './dashboard-link';
import { parseDefinition } from './definition';
import {
  CreateDashboardDialog,
  DeleteDashboardDialog,
  ImportDashboardDialog,
  RenameDashboardDialog,
  downloadDashboard,
} from './manage';
import type { SavedDashboard } from './types';

type Open =
  | { kind: 'create' }
  | { kind: 'import' }
  | { kind: 'rename'; dashboard: SavedDashboard }
  | { kind: 'delete'; dashboard: SavedDashboard }
  | null;

export function DashboardsPage() {
  const { project } = useCurrentProject();
  if (!project) return null;
  return <DashboardList projectId={project.id} writable={canWrite(project.role)} />;
}

function DashboardList({ projectId, writable }: { projectId: string; writable: boolean }) {
  const dashboards = useQuery(dashboardsQuery(projectId));
  const navigate = useNavigate();
  const [open, setOpen] = useState<Open>(null);
  const rows = dashboards.data ?? [];
  const openRow = (index: number) => {
    const row = rows[index];
    if (row) void navigate({ to: '/dashboards/$id', params: { id: row.id }, search: keepScope });
  };
  const { rowProps } = useListKeyboard({ count: rows.length, onOpen: openRow });

  return (
    <div className="grid grid-cols-1 gap-4 px-6 py-5">
      <PageHeader
        title="Dashboards"
        description={
          writable
            ? 'Saved widgets of metric queries, shared by the project. Star a widget to show it on home.'
            : 'Saved widgets of metric queries, shared by the project. Your role can look, not change.'
        }
        actions={
          writable ? (
            <div className="flex gap-2">
              <Button onClick={() => setOpen({ kind: 'import' })}>
                <Upload aria-hidden />
                Import
              </Button>
              <Button variant="primary" onClick={() => setOpen({ kind: 'create' })}>
                <Plus aria-hidden />
                New dashboard
              </Button>
            </div>
          ) : undefined
        }
      />
      <Card>
        {dashboards.error ? (
          <ErrorState error={dashboards.error} className="m-4" />
        ) : dashboards.isLoading ? (
          <TableSkeleton rows={4} columns={4} />
        ) : rows.length === 0 ? (
          <EmptyState title="No dashboards yet">
            {writable ? (
              <>
                Create one and add widgets, or open{' '}
                <Link to="/metrics" className="text-accent underline underline-offset-2">
                  Metrics
                </Link>
                , build a query and choose <em>Add to dashboard</em>. A dashboard exported from another project imports
                here as JSON.
              </>
            ) : (
              'A member with the write role creates them; they appear here for everyone in the project.'
            )}
          </EmptyState>
        ) : (
          <Table aria-label="Dashboards">
            <THead>
              <tr>
                <TH>Name</TH>
                <TH numeric className="w-24">
                  Widgets
                </TH>
                <TH numeric className="w-24">
                  Starred
                </TH>
                <TH numeric className="w-48">
                  Updated
                </TH>
                <TH numeric className="w-48">
                  Created
                </TH>
                <TH className="w-10">
                  <span className="sr-only">Actions</span>
                </TH>
              </tr>
            </THead>
            <TBody>
              {rows.map((dashboard, index) => {
                const widgets = parseDefinition(dashboard.definition).definition?.widgets;
                return (
                  <TR key={dashboard.id} {...rowProps(index)}>
                    <TD>
                      <DashboardLink
                        dashboard={dashboard}
                        className="font-medium text-accent underline-offset-2 hover:underline"
                      />
                    </TD>
                    <TD numeric>
                      {widgets ? widgets.length : <span title="The saved definition cannot be read">?</span>}
                    </TD>
                    <TD numeric>{widgets ? widgets.filter((w) => w.starred).length : '—'}</TD>
                    <TD numeric className="text-muted-foreground">
                      {formatDateTime(dashboard.updatedAt)}
                    </TD>
                    <TD numeric className="text-muted-foreground">
                      {formatDateTime(dashboard.createdAt)}
                    </TD>
                    <TD className="px-1">
                      <Menu>
                        <MenuTrigger asChild>
                          <Button
                            size="icon"
                            variant="ghost"
                            aria-label={`Actions for ${dashboard.name}`}
                            className="size-7"
                          >
                            <MoreHorizontal aria-hidden />
                          </Button>
                        </MenuTrigger>
                        <MenuContent align="end">
                          <MenuItem onSelect={() => downloadDashboard(dashboard)}>Export JSON</MenuItem>
                          {writable && (
                            <MenuItem onSelect={() => setOpen({ kind: 'rename', dashboard })}>Rename…</MenuItem>
                          )}
                          {writable && (
                            <MenuItem className="text-danger" onSelect={() => setOpen({ kind: 'delete', dashboard })}>
                              Delete…
                            </MenuItem>
                          )}
                        </MenuContent>
                      </Menu>
                    </TD>
                  </TR>
                );
              })}
            </TBody>
          </Table>
        )}
      </Card>
      {open?.kind === 'create' && <CreateDashboardDialog projectId={projectId} onClose={() => setOpen(null)} />}
      {open?.kind === 'import' && <ImportDashboardDialog projectId={projectId} onClose={() => setOpen(null)} />}
      {open?.kind === 'rename' && (
        <RenameDashboardDialog projectId={projectId} dashboard={open.dashboard} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'delete' && (
        <DeleteDashboardDialog projectId={projectId} dashboard={open.dashboard} onClose={() => setOpen(null)} />
      )}
    </div>
  );
}
