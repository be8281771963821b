/**
 * A profile's default project that is gone, against a real service: deleted, or in an organization
 * the person was removed from. The built CLI's read commands say so plainly with the next command
 * (exit 5, not found) instead of the service's bare refusal, never pick another project, and
 * `whoami` flags it. A refusal of a default project that is still the person's (a suspended
 * organization) stays the service's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suspendOrganization } from '../../src/store/meta/repositories/organizations.js';
import { joinByInvitation } from '../support/access.js';
import { callOk, listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';
import { builtCli, jsonOf, removeBuiltCli, signedInCli } from './helpers.js';

const NEXT_COMMANDS = '`sightline-cli projects list`, then `sightline-cli projects use <id|name>`';
const NEXT_COMMAND = `choose another: ${NEXT_COMMANDS} (or pass --project)`;

describe('sightline-cli with a dead default project', { timeout: 180_000 }, () => {
  let service: ListeningTestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;

  const signedIn = (sessionToken: string) => signedInCli(service, sessionToken);

  beforeAll(async () => {
    builtCli();
    service = await listeningTestService();
    owner = await registerUser(service.app);
  });
  afterAll(async () => {
    await service?.close();
    removeBuiltCli();
  });

  it('deleted: every read says which default is gone and what to run (exit 5), picks no other, and whoami flags it', async () => {
    const cli = await signedIn(owner.token);
    const doomed = await callOk<{ id: string }>(
      service.app,
      owner.token,
      'POST',
      `/api/projects?projectId=${owner.project.id}`,
      { name: 'Doomed', framework: 'nodejs' },
    );
    expect((await cli('projects', 'use', 'Doomed')).code).toBe(0);
    expect((await cli('issues', 'list', '-o', 'json')).code).toBe(0);
    await callOk(service.app, owner.token, 'DELETE', `/api/projects?projectId=${doomed.id}`);

    const line = `error: the default project "Doomed" (${doomed.id}) of profile default no longer exists or is not reachable — ${NEXT_COMMAND}\n`;
    for (const command of [
      ['issues', 'list'],
      ['endpoints', 'list'],
      ['logs', 'query'],
    ]) {
      const result = await cli(...command, '-o', 'table');
      expect([result.code, result.stderr, result.stdout], command.join(' ')).toEqual([5, line, '']);
    }
    const asJson = await cli('issues', 'list', '-o', 'json');
    expect(asJson.code).toBe(5);
    expect(JSON.parse(asJson.stderr)).toEqual({
      error: {
        message: `the default project "Doomed" (${doomed.id}) of profile default no longer exists or is not reachable`,
        hint: NEXT_COMMAND,
        exitCode: 5,
        status: 403,
      },
    });

    const whoami = await cli('whoami', '-o', 'json');
    expect(whoami.code).toBe(0);
    expect(jsonOf(whoami)).toMatchObject({ project: { id: doomed.id, name: 'Doomed', reachable: false } });
    const whoamiText = await cli('whoami', '-o', 'table');
    expect(whoamiText.stdout).toContain(
      `default project: Doomed ${doomed.id}\n  no longer exists or is not reachable; choose another:\n  ${NEXT_COMMANDS}\n`,
    );

    // Nothing was chosen in its place: the profile keeps the dead default until the person picks one.
    const projects = jsonOf<Array<{ id: string; default: boolean }>>(await cli('projects', 'list', '-o', 'json'));
    expect(projects.filter((project) => project.default)).toEqual([]);
    expect((await cli('issues', 'list', '--project', owner.project.id, '-o', 'json')).code).toBe(0);
    expect((await cli('projects', 'use', owner.project.id)).code).toBe(0);
    expect((await cli('issues', 'list', '-o', 'json')).code).toBe(0);
    expect(jsonOf(await cli('whoami', '-o', 'json'))).toMatchObject({
      project: { id: owner.project.id, reachable: true },
    });
    expect((await cli('whoami', '-o', 'table')).stdout).not.toContain('no longer exists');
  });

  it('access lost: a member removed from the organization is told the same', async () => {
    const joined = await joinByInvitation(service.app, owner, 'read-only', `removed-${process.pid}@example.com`);
    expect(joined.status, joined.raw).toBe(201);
    const member = joined.body as { token: string; user: { id: string } };
    const cli = await signedIn(member.token);
    expect((await cli('projects', 'use', owner.project.id)).code).toBe(0);
    expect((await cli('endpoints', 'list', '-o', 'json')).code).toBe(0);
    await callOk(
      service.app,
      owner.token,
      'DELETE',
      `/api/organizations/${owner.organization.id}/members/${member.user.id}`,
    );

    const result = await cli('endpoints', 'list', '-o', 'table');
    expect([result.code, result.stderr]).toEqual([
      5,
      `error: the default project "My first project" (${owner.project.id}) of profile default no longer exists or is not reachable — ${NEXT_COMMAND}\n`,
    ]);
    expect(jsonOf(await cli('whoami', '-o', 'json'))).toMatchObject({
      project: { id: owner.project.id, reachable: false },
    });
  });

  it("a refusal of a default project that is still the person's stays the service's (a suspended organization)", async () => {
    const other = await registerUser(service.app);
    const cli = await signedIn(other.token);
    expect((await cli('projects', 'use', other.project.id)).code).toBe(0);
    await suspendOrganization(service.services.meta, other.organization.id, 'test', new Date());
    const result = await cli('issues', 'list', '-o', 'json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({ message: 'the organization is suspended', status: 403 });
  });
});
