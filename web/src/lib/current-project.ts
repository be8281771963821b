/**
 * The project every page shows, from `?projectId=`. When the URL names none (or one the person
 * cannot see), the shell puts the last used project — or the first — into the URL.
 */
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { projectsQuery } from './queries';
import type { Project } from './types';

const LAST = 'sightline.lastProject';

export function rememberProject(id: string): void {
  try {
    localStorage.setItem(LAST, id);
  } catch {
    /* a private window without storage: only the URL remembers */
  }
}

/** Projects this page deleted or left, and so knows to be gone: no "no access" notice for them. */
const gone = new Set<string>();

/**
 * The person deleted these projects or left their organization: they are no longer the last used,
 * and the shell moves from them to another project without saying it was refused access.
 */
export function forgetProjects(ids: string[]): void {
  for (const id of ids) gone.add(id);
  try {
    if (ids.includes(localStorage.getItem(LAST) ?? '')) localStorage.removeItem(LAST);
  } catch {
    /* no storage: nothing remembered */
  }
}

export const isForgottenProject = (id: string) => gone.has(id);

export function preferredProject(projects: Project[]): Project | undefined {
  let last: string | null = null;
  try {
    last = localStorage.getItem(LAST);
  } catch {
    last = null;
  }
  return projects.find((p) => p.id === last) ?? projects[0];
}

export function useCurrentProject(): {
  project: Project | undefined;
  projects: Project[] | undefined;
  isLoading: boolean;
} {
  const { projectId } = useSearch({ strict: false });
  const { data: projects, isLoading } = useQuery(projectsQuery);
  return { project: projects?.find((p) => p.id === projectId), projects, isLoading };
}

/**
 * The organization a page is about: the one the URL names (`?organization=`, the Organization
 * page's) when it is the person's, else the current project's, else the person's first. The shell
 * takes its time zone from it, so the Organization page's times are on the shown organization's clock.
 */
export function shownOrganization<T extends { id: string }>(
  organizations: readonly T[],
  asked: string | undefined,
  projectOrganizationId: string | undefined,
): T | undefined {
  return (
    organizations.find((o) => o.id === asked) ??
    organizations.find((o) => o.id === projectOrganizationId) ??
    organizations[0]
  );
}
