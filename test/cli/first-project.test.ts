/**
 * `projects create` of the built CLI for people with no project at all, against a real service
 * (REGISTRATION=open): a member who joined an organization without projects creates its first one;
 * a person with no project who writes to several organizations must name one (exit 2) and the command
 * `organizations create` prints works as printed; a read-only member is refused with the service's
 * reason (exit 1). People with projects: read.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';
import { builtCli, jsonOf, removeBuiltCli, signedInCli } from './helpers.js';

interface Created {
  id: string;
  name: string;
  framework: string;
  organizationId: string;
}
interface Listed {
  id: string;
  name: string;
  organizationId: string;
  default: boolean;
}

describe('sightline-cli projects create without a project', { timeout: 180_000 }, () => {
  let service: ListeningTestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let acme: { id: string; name: string };

  const signedIn = (sessionToken: string) => signedInCli(service, sessionToken);

  /** Someone who registers through an invitation to Acme (an organization without projects), with this role. */
  const invitedToAcme = async (role: 'write' | 'read-only') => {
    const email = `${role}-${process.pid}@example.com`;
    const invitation = await callOk<{ token: string }>(
      service.app,
      owner.token,
      'POST',
      `/api/organizations/${acme.id}/invitations`,
      { email, role },
    );
    const registered = await service.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: role === 'write' ? '10.98.0.1' : '10.98.0.2',
      payload: { email, password: 'correct horse battery', name: role, invitationToken: invitation.token },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    return signedIn((registered.json() as { token: string }).token);
  };

  beforeAll(async () => {
    builtCli();
    service = await listeningTestService({ REGISTRATION: 'open' });
    owner = await registerUser(service.app, { name: 'Owner' });
    acme = await callOk(service.app, owner.token, 'POST', '/api/organizations', { name: 'Acme Labs' });
  });
  afterAll(async () => {
    await service?.close();
    removeBuiltCli();
  });

  it('a member whose only organization has no project creates its first one, and it becomes the default', async () => {
    const asWriter = await invitedToAcme('write');
    expect(jsonOf<Listed[]>(await asWriter('projects', 'list', '-o', 'json'))).toEqual([]);

    // No --use: a person's first project becomes the profile's default, as login makes an only project the default.
    const created = await asWriter('projects', 'create', 'Checkout', '--framework', 'nodejs', '-o', 'json');
    expect(created.code, created.stderr).toBe(0);
    expect(jsonOf<Created>(created)).toEqual({
      id: expect.any(String),
      name: 'Checkout',
      framework: 'nodejs',
      organizationId: acme.id,
    });
    const listed = jsonOf<Listed[]>(await asWriter('projects', 'list', '-o', 'json'));
    expect(listed).toEqual([expect.objectContaining({ name: 'Checkout', organizationId: acme.id, default: true })]);
  });

  it('with no project and several organizations: exit 2 naming --organization; the printed command works', async () => {
    // A person who registered and deleted the starter project before signing in to the CLI.
    const solo = await registerUser(service.app, { name: 'Solo' });
    await callOk(service.app, solo.token, 'DELETE', `/api/projects?projectId=${solo.project.id}`);
    const asSolo = await signedIn(solo.token);

    const started = await asSolo('organizations', 'create', 'Side Business', '-o', 'table');
    expect(started.code, started.stderr).toBe(0);
    const lines = started.stdout.split('\n');
    expect(lines[0]).toMatch(/^Created organization Side Business \(([0-9a-f-]{36})\); you are its admin\.$/);
    const side = lines[0]!.match(/\(([0-9a-f-]{36})\)/)![1]!;
    expect(lines.slice(1)).toEqual([
      'Create its first project (`projects create --help` lists the frameworks):',
      `  sightline-cli projects create <name> --framework <framework> --organization ${side} --use`,
      '',
    ]);

    const ambiguous = await asSolo('projects', 'create', 'Shop', '--framework', 'nodejs');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr.split('\n')).toEqual([
      expect.stringMatching(/^error: you write to several organizations — pass --organization <id\|name>: /),
      '',
    ]);
    expect(ambiguous.stderr).toContain(`${side} (Side Business)`);
    expect(ambiguous.stderr).toContain(solo.organization.id);

    // The printed command, its placeholders filled in.
    const printed = lines[2]!.trim().replace('<name>', 'Shop').replace('<framework>', 'nodejs').split(' ').slice(1);
    const created = await asSolo(...printed, '-o', 'json');
    expect(created.code, created.stderr).toBe(0);
    expect(jsonOf<Created>(created)).toMatchObject({ name: 'Shop', organizationId: side });
    // --organization by name, in any case; a name that is none of the person's is not found (exit 5).
    const blogIn = (organization: string, ...output: string[]) =>
      asSolo('projects', 'create', 'Blog', '--framework', 'javascript', '--organization', organization, ...output);
    const byName = await blogIn('side business', '-o', 'json');
    expect(byName.code, byName.stderr).toBe(0);
    expect(jsonOf<Created>(byName)).toMatchObject({ name: 'Blog', organizationId: side });
    const unknown = await blogIn('Acme Labs');
    expect([unknown.code, unknown.stderr]).toEqual([
      5,
      'error: no organization "Acme Labs" among yours — see `sightline-cli organizations list`\n',
    ]);
    const listed = jsonOf<Listed[]>(await asSolo('projects', 'list', '-o', 'json'));
    expect(listed.map((project) => [project.name, project.organizationId, project.default]).sort()).toEqual([
      ['Blog', side, false],
      ['Shop', side, true],
    ]);
  });

  it("a read-only member is refused with the service's reason (exit 1), with or without --organization", async () => {
    const asReader = await invitedToAcme('read-only');
    for (const args of [[], ['--organization', 'Acme Labs']]) {
      const refused = await asReader('projects', 'create', 'Mine', '--framework', 'nodejs', ...args);
      expect([refused.code, refused.stdout, refused.stderr]).toEqual([
        1,
        '',
        'error: creating a project needs the write role in the organization\n',
      ]);
    }
    const asJson = await asReader('projects', 'create', 'Mine', '--framework', 'nodejs', '-o', 'json');
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stderr)).toEqual({
      error: {
        message: 'creating a project needs the write role in the organization',
        hint: null,
        exitCode: 1,
        status: 403,
      },
    });
    const names = (await callOk<{ projects: Listed[] }>(service.app, owner.token, 'GET', '/api/projects')).projects;
    expect(names.map((project) => project.name)).not.toContain('Mine');
  });
});
