/**
 * The pages of the sidebar and the palette (DASHBOARD.md §3). `ready: false` pages exist as a
 * "coming in this release" page until their part of the dashboard lands, so no link is dead.
 */
import {
  Activity,
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
  /** What the page will show, for its placeholder until it is built. */
  about: string;
}

export const SECTIONS: ReadonlyArray<{ title: string | null; pages: Page[] }> = [
  {
    title: null,
    pages: [{ to: '/', label: 'Home', icon: Home, about: 'Headline figures, request and error series, top endpoints and newest issues.' }],
  },
  {
    title: 'Monitor',
    pages: [
      { to: '/issues', label: 'Issues', icon: Bug, about: 'Grouped exceptions and messages with counts, users affected, first and last seen.' },
      { to: '/endpoints', label: 'Endpoints', icon: Gauge, about: 'Time spent by endpoint, P50, P95 and P99, error rate, Apdex and Impact.' },
      { to: '/tasks', label: 'Tasks', icon: ListChecks, about: 'Background tasks: runs, failures, typical and slow durations.' },
      { to: '/ai-traces', label: 'AI traces', icon: Bot, about: 'AI calls by cost: tokens in and out, latency, and each conversation.' },
      { to: '/sessions', label: 'Sessions', icon: MonitorPlay, about: 'Browser sessions with their replay, console logs and errors.' },
    ],
  },
  {
    title: 'Explore',
    pages: [
      { to: '/logs', label: 'Logs', icon: ScrollText, about: 'Search logs by body or attribute, filter by severity and service, live tail.' },
      { to: '/metrics', label: 'Metrics', icon: Activity, about: 'Pick a metric, aggregate, group by dimensions and filter.' },
      { to: '/dashboards', label: 'Dashboards', icon: LayoutDashboard, about: 'Saved dashboards of metric widgets; star widgets to home.' },
    ],
  },
  {
    title: 'Configure',
    pages: [
      { to: '/connection', label: 'Connection', icon: Cable, about: 'Everything the project needs to send data: token, connection string, OTLP variables, snippets.' },
      { to: '/settings/project', label: 'Project settings', icon: Settings, about: 'Name, framework, token rotation and deletion of the project.' },
      { to: '/settings/organization', label: 'Organization', icon: Building2, about: 'Members and roles, invitations, plan and usage.' },
      { to: '/settings/account', label: 'Account', icon: UserRound, about: 'Profile, password and personal access tokens.' },
    ],
  },
];

export const PAGES: Page[] = SECTIONS.flatMap((section) => section.pages);
