/** The URL state of /alerts: the section shown and the page of the history. */
export const ALERT_TABS = ['rules', 'channels', 'history'] as const;
export type AlertTab = (typeof ALERT_TABS)[number];

export interface AlertsSearch {
  tab?: AlertTab;
  page?: number;
}

export function validateAlertsSearch(search: Record<string, unknown>): AlertsSearch {
  const tab = ALERT_TABS.find((value) => value === search.tab);
  const page =
    typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  return {
    ...(tab && tab !== 'rules' ? { tab } : {}),
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
  };
}
