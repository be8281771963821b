/**
 * Announces that projects' ingest standing changed (deleted, organization suspended or
 * reinstated): this process's project cache forgets them at once, the other processes through
 * the coordination store's project-changed channel.
 */
import { PROJECT_CHANGED_CHANNEL, type Services } from './services.js';

export async function announceProjectChanges(services: Services, projectIds: readonly string[]): Promise<void> {
  for (const projectId of projectIds) {
    services.projects.invalidateProject(projectId);
    await services.coord.publish(PROJECT_CHANGED_CHANNEL, projectId);
  }
}
