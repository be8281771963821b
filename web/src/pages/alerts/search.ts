/** The URL state of /alerts: the section shown, the rule whose history is shown, and the page of the history. */
import { pageParam } from '../../lib/search-params';

export const ALERT_TABS = ['rules', 'channels', 'history'] as const;
export type AlertTab = (typeof ALERT_TABS)[number];

export interface AlertsSearch {
  tab?: AlertTab;
  /** The history of this rule only. */
  rule?: string;
  page?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every key it owns is returned, undefined when unusable (lib/search-params.ts says why). */
export function validateAlertsSearch(search: Record<string, unknown>): AlertsSearch {
  const tab = ALERT_TABS.find((value) => value === search.tab);
  const rule = typeof search.rule === 'string' && UUID.test(search.rule) ? search.rule.toLowerCase() : undefined;
  return { tab: tab && tab !== 'rules' ? tab : undefined, rule, page: pageParam(search.page) };
}
