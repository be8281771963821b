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
}

export const SECTIONS: ReadonlyArray<{ title: string | null; pages: Page[] }> = [
  {
    title: null,
    pages: [{ to: '/', label: 'Home', icon: Home }],
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
      { to: '/settings/organization', label: 'Organization', icon: Building2 },
      { to: '/settings/account', label: 'Account', icon: UserRound },
    ],
  },
];

export const PAGES: Page[] = SECTIONS.flatMap((section) => section.pages);
