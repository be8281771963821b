/** The pages of the sidebar and the palette (DASHBOARD.md §3). */
import {
  Activity,
  Bell,
  Bot,
  Bug,
  Building2,
  Cable,
  Gauge,
  Home,
  LayoutDashboard,
  ListChecks,
  MonitorPlay,
  ScrollText,
  Settings,
  UserRound,
  type LucideIcon,
} from 'lucide-react';

export interface Page {
  to:
    | '/'
    | '/issues'
    | '/alerts'
    | '/endpoints'
    | '/tasks'
    | '/logs'
    | '/metrics'
    | '/dashboards'
    | '/ai-traces'
    | '/sessions'
    | '/connection'
    | '/settings/project'
    | '/settings/organization'
    | '/settings/account';
  label: string;
  icon: LucideIcon;
  /**
   * Shown to a person with no project too (`member`: when they belong to an organization): every
   * other page reads or configures one project.
   */
  withoutProject?: true | 'member';
}

export const SECTIONS: ReadonlyArray<{ title: string | null; pages: Page[] }> = [
  {
    title: null,
    pages: [{ to: '/', label: 'Home', icon: Home, withoutProject: true }],
  },
  {
    title: 'Monitor',
    pages: [
      { to: '/issues', label: 'Issues', icon: Bug },
      { to: '/endpoints', label: 'Endpoints', icon: Gauge },
      { to: '/tasks', label: 'Tasks', icon: ListChecks },
      { to: '/ai-traces', label: 'AI traces', icon: Bot },
      { to: '/sessions', label: 'Sessions', icon: MonitorPlay },
      { to: '/alerts', label: 'Alerts', icon: Bell },
    ],
  },
  {
    title: 'Explore',
    pages: [
      { to: '/logs', label: 'Logs', icon: ScrollText },
      { to: '/metrics', label: 'Metrics', icon: Activity },
      { to: '/dashboards', label: 'Dashboards', icon: LayoutDashboard },
    ],
  },
  {
    title: 'Configure',
    pages: [
      { to: '/connection', label: 'Connection', icon: Cable },
      { to: '/settings/project', label: 'Project settings', icon: Settings },
      { to: '/settings/organization', label: 'Organization', icon: Building2, withoutProject: 'member' },
      { to: '/settings/account', label: 'Account', icon: UserRound, withoutProject: true },
    ],
  },
];

/**
 * The sections a person can use: with no project only Home, which says what to do, Account, and —
 * in an organization (one without a project, say) — its Organization page; the project pages could
 * only fail or stay empty. While the projects load (`undefined`) every page stays listed: the shell
 * shows its skeleton then.
 */
export function sectionsFor(projects: readonly unknown[] | undefined, inOrganization: boolean) {
  if (projects === undefined || projects.length > 0) return SECTIONS;
  const shown = (page: Page) => page.withoutProject === true || (page.withoutProject === 'member' && inOrganization);
  return SECTIONS.map((section) => ({ ...section, pages: section.pages.filter(shown) })).filter(
    (section) => section.pages.length > 0,
  );
}
