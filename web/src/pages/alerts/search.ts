/** The URL state of /alerts: the section shown and the page of the history. */
import { pageParam } from '../../lib/search-params';

export const ALERT_TABS = ['rules', 'channels', 'history'] as const;
export type AlertTab = (typeof ALERT_TABS)[number];

export interface AlertsSearch {
  tab?: AlertTab;
  page?: number;
}

/** Every key it owns is returned, undefined when unusable (lib/search-params.ts says why). */
export function validateAlertsSearch(search: Record<string, unknown>): AlertsSearch {
  const tab = ALERT_TABS.find((value) => value === search.tab);
  return { tab: tab && tab !== 'rules' ? tab : undefined, page: pageParam(search.page) };
}
