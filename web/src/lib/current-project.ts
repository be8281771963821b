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
