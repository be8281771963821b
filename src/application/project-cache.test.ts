import { describe, expect, it } from 'vitest';
import type { IngestProject } from '../core/projects.js';
import { ProjectCache } from './project-cache.js';

const project: IngestProject = { id: 'p1', organizationId: 'o1', framework: 'go', suspended: false };
const TOKEN = '0123456789abcdef0123456789abcdef';

function cacheWith(lookups: string[], now: { t: number }) {
  return new ProjectCache(
    async (token) => {
      lookups.push(token);
      return token === TOKEN ? project : null;
    },
    { ttlMs: 1000, now: () => now.t },
  );
}

describe('project-token cache', () => {
  it('never looks up a token that is not exactly 32 lowercase hex', async () => {
    const lookups: string[] = [];
    const cache = cacheWith(lookups, { t: 0 });
    for (const token of [
      null,
      TOKEN.toUpperCase(),
      `${TOKEN.slice(0, 8)}-${TOKEN.slice(8)}`,
      `${TOKEN}0`,
      ` ${TOKEN}`,
    ]) {
      expect(await cache.resolve(token)).toBeNull();
    }
    expect(lookups).toEqual([]);
  });

  it('serves a token from the cache until its time is up, then looks it up again', async () => {
    const lookups: string[] = [];
    const now = { t: 0 };
    const cache = cacheWith(lookups, now);
    expect(await cache.resolve(TOKEN)).toEqual(project);
    now.t = 999;
    expect(await cache.resolve(TOKEN)).toEqual(project);
    expect(lookups).toHaveLength(1);
    now.t = 1000;
    await cache.resolve(TOKEN);
    expect(lookups).toHaveLength(2);
  });

  it('remembers unknown tokens too, and forgets a project at once when told', async () => {
    const lookups: string[] = [];
    const cache = cacheWith(lookups, { t: 0 });
    const unknown = 'f'.repeat(32);
    await cache.resolve(unknown);
    await cache.resolve(unknown);
    expect(lookups).toEqual([unknown]);
    await cache.resolve(TOKEN);
    cache.invalidateProject('p1');
    await cache.resolve(TOKEN);
    expect(lookups).toEqual([unknown, TOKEN, TOKEN]);
  });
});
