/**
 * The shell's dialogs, opened from any page: creating a project (in a chosen organization, or the
 * dialog's own pick) and starting an organization. Each is absent when the person may not.
 */
import { createContext, useContext } from 'react';

export interface ShellActions {
  /** Absent when the person may create no project (read-only or suspended everywhere). */
  createProject: ((organizationId?: string) => void) | undefined;
  /** Absent when the person may start no organization (registration closed and admin nowhere). */
  createOrganization: (() => void) | undefined;
}

export const ShellActionsContext = createContext<ShellActions>({
  createProject: undefined,
  createOrganization: undefined,
});

export const useShellActions = (): ShellActions => useContext(ShellActionsContext);
