/**
 * The words an API failure is shown with (DASHBOARD.md §1.7): the server's own message when it
 * sent one, else what the status means to the person looking at the page.
 */
export function errorMessage(status: number, body: unknown): string {
  if (body !== null && typeof body === 'object' && 'error' in body && typeof body.error === 'string') return body.error;
  if (status === 401) return 'Wrong e-mail address or password.';
  if (status === 403) return 'You do not have access to this.';
  if (status === 429) return 'Too many attempts; wait a minute and try again.';
  // Without a message of Sightline's own, these come from what stands in front of it (a reverse
  // proxy, or the dashboard's dev server) when the service is down or not answering.
  if (status === 502 || status === 503 || status === 504)
    return `The Sightline service cannot be reached (${status}); check that it is running, then try again.`;
  if (status >= 500) return 'The service had a problem; try again shortly.';
  return `The request failed (${status}).`;
}
