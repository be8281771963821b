/**
 * /alerts: the project's alert rules with their state, the channels notifications go to, and the
 * history of deliveries. The section and the history page are in the URL. Members with the
 * read-only role see everything and change nothing.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useCurrentProject } from '@/lib/current-project';
import { Segmented } from '@/components/ui/segmented';
import { PageHeader } from '../page-header';
import { ChannelsSection } from './channels';
import { HistorySection } from './history';
import { RulesSection } from './rules';
import { ALERT_TABS, type AlertTab } from './search';
import { canWrite } from './types';

const route = getRouteApi('/app/alerts');
const TAB_LABELS: Record<AlertTab, string> = { rules: 'Rules', channels: 'Channels', history: 'History' };

export function AlertsPage() {
  const { project } = useCurrentProject();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const tab: AlertTab = search.tab ?? 'rules';
  if (!project) return null;
  const writable = canWrite(project.role);
  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title="Alerts"
        description={
          writable
            ? 'Rules that watch this project, where their notifications go, and what was sent.'
            : 'Rules, channels and deliveries of this project. Changes need the write role.'
        }
      />
      <Segmented
        kind="tab"
        label="Alert sections"
        idPrefix="alerts-tab"
        options={ALERT_TABS.map((value) => ({ value, label: TAB_LABELS[value] }))}
        value={tab}
        onChange={(value) =>
          void navigate({
            search: (prev) => ({
              ...prev,
              tab: value === 'rules' ? undefined : value,
              rule: value === 'history' ? prev.rule : undefined,
              page: undefined,
            }),
          })
        }
      />
      <div role="tabpanel" id="alerts-panel" aria-labelledby={`alerts-tab-${tab}`}>
        {tab === 'rules' ? (
          <RulesSection key={project.id} projectId={project.id} writable={writable} />
        ) : tab === 'channels' ? (
          <ChannelsSection key={project.id} projectId={project.id} writable={writable} />
        ) : (
          <HistorySection
            key={project.id}
            projectId={project.id}
            ruleId={search.rule}
            page={search.page ?? 1}
            onPage={(next) => void navigate({ search: (prev) => ({ ...prev, page: next }) })}
          />
        )}
      </div>
    </div>
  );
}
