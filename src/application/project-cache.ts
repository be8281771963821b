/**
 * Project-token cache for the ingest surface. Tokens are looked up by their SHA-256, never
 * compared as strings, and only after the exact format check (32 lowercase hex). Entries live
 * `ttlMs`, which bounds how long a rotated or deleted token keeps working on other processes;
 * the process that rotates a token invalidates it at once, and tells the others through the
 * coordination store.
 */
import { createHash } from 'node:crypto';
import type { IngestProject } from '../core/projects.js';

export type ProjectLoader = (token: string) => Promise<IngestProject | null>;

export const PROJECT_TOKEN_PATTERN = /^[0-9a-f]{32}$/;

interface Entry {
  project: IngestProject | null;
  expiresAt: number;
}

export class ProjectCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly load: ProjectLoader,
    private readonly options: { ttlMs: number; maxEntries?: number; now?: () => number },
  ) {}

  async resolve(token: string | null): Promise<IngestProject | null> {
    if (token === null || !PROJECT_TOKEN_PATTERN.test(token)) return null;
    const key = digest(token);
    const now = this.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.project;
    const project = await this.load(token);
    this.remember(key, project, now);
    return project;
  }

  /** Forgets a token (rotated or deleted project) on this process at once. */
  invalidateToken(token: string): void {
    this.entries.delete(digest(token));
  }

  /** Forgets every token of a project (suspension, deletion) on this process at once. */
  invalidateProject(projectId: string): void {
    for (const [key, entry] of this.entries) if (entry.project?.id === projectId) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  private remember(key: string, project: IngestProject | null, now: number): void {
    const maxEntries = this.options.maxEntries ?? 10_000;
    if (this.entries.size >= maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { project, expiresAt: now + this.options.ttlMs });
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
