/** The account queries the shell and several pages share (one cache entry each). */
import { queryOptions } from '@tanstack/react-query';
import { api, read } from './api';
import type { Answer, Connection, Me, Project, Providers } from './types';

export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: () => read<Me>(api.GET('/api/me')),
});

/**
 * The organizations where the person may create a project (write or admin, not suspended): the
 * shell offers "Create project" only when there is one, and the dialog picks among them.
 */
export const projectCreatingOrganizations = (me: Me | undefined) =>
  (me?.organizations ?? []).filter((o) => o.role !== 'read-only' && !o.suspended);

/**
 * Whether the person may start an organization (POST /api/organizations): anyone while registration
 * is open, otherwise an admin of some organization (src/application/auth/accounts.ts).
 */
export const mayCreateOrganization = (me: Me | undefined, providers: Providers | undefined) =>
  providers?.registrationOpen === true || (me?.organizations ?? []).some((o) => o.role === 'admin');

export const projectsQuery = queryOptions({
  queryKey: ['projects'],
  queryFn: async () => (await read<{ projects: Project[] }>(api.GET('/api/projects'))).projects,
});

export const providersQuery = queryOptions({
  queryKey: ['auth-providers'],
  queryFn: () => read<Providers>(api.GET('/api/auth/providers')),
  staleTime: 5 * 60_000,
});

/** The project's tokens, shared by /connection and /settings/project (rotation updates both). */
export const connectionQuery = (projectId: string | undefined) =>
  queryOptions({
    queryKey: ['connection', projectId],
    enabled: projectId !== undefined,
    queryFn: () =>
      read<Connection>(api.GET('/api/projects/connection', { params: { query: { projectId: projectId! } } })),
  });

/** What an invitation link offers (organization, address, role); an ApiError 404 when it is no longer open. */
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: ['invitation', token],
    queryFn: () => read<import('./types').InvitationPreview>(api.POST('/api/invitations/preview', { body: { token } })),
    retry: false,
    staleTime: Infinity,
  });

/**
 * An organization's name and time zone. The same cache entry as /settings/organization's (its key),
 * so saving the time zone there updates the shell's and every page's times at once.
 */
export const organizationSettingsQuery = (organizationId: string | undefined) =>
  queryOptions({
    queryKey: ['organization-settings', organizationId],
    enabled: organizationId !== undefined,
    queryFn: () =>
      read<Answer<'/api/organizations/{organizationId}/settings', 'get'>>(
        api.GET('/api/organizations/{organizationId}/settings', {
          params: { path: { organizationId: organizationId! } },
        }),
      ),
  });

export type Usage = Answer<'/api/billing/usage', 'get'>['usage'];

/** An organization's plan limits and this month's counters; /settings/organization and the data status share it. */
export const usageQuery = (organizationId: string | undefined) =>
  queryOptions({
    queryKey: ['billing-usage', organizationId],
    enabled: organizationId !== undefined,
    queryFn: async () =>
      (
        await read<{ usage: Usage }>(
          api.GET('/api/billing/usage', { params: { query: { organizationId: organizationId! } } }),
        )
      ).usage,
  });
