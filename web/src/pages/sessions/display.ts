/** The URL without its scheme: the host and path are what tell sessions apart. */
export function displayUrl(url: string | null): string {
  if (!url) return '—';
  return url.replace(/^https?:\/\//, '');
}
