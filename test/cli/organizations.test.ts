/**
 * `organizations list` and `organizations create` of the built CLI against a real service whose
 * registration is closed after the first account (REGISTRATION=first-user): the admin lists and
 * starts organizations; a member who joined through an invitation and administers none is
 * refused with the service's reason (exit 1); a bad name or a missing one is a usage error (exit 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';
import { jsonOf, newConfigDir, personalAccessToken, removeBuiltCli, runCli, builtCli } from './helpers.js';

interface Listed {
  id: string;
  name: string;
  role: string;
  plan: string;
  suspended: boolean;
}

describe('sightline-cli organizations', { timeout: 180_000 }, () => {
  let service: ListeningTestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  const ownerConfig = newConfigDir();
  const memberConfig = newConfigDir();
  const asOwner = (...args: string[]) => runCli(args, { configDir: ownerConfig });
  const asMember = (...args: string[]) => runCli(args, { configDir: memberConfig });

  const signIn = async (configDir: string, session: string) => {
    const token = await personalAccessToken(service, session);
    const login = await runCli(['login', '--url', service.url, '--token', token], { configDir });
    expect(login.code, login.stderr).toBe(0);
  };

  beforeAll(async () => {
    builtCli();
    service = await listeningTestService({ REGISTRATION: 'first-user' });
    owner = await registerUser(service.app, { name: 'Owner' });
    // The member comes in through an invitation (the way in while registration is closed), with the write role.
    const invitation = await callOk<{ token: string }>(
      service.app,
      owner.token,
      'POST',
      `/api/organizations/${owner.organization.id}/invitations`,
      { email: `member-${process.pid}@example.com`, role: 'write' },
    );
    const registered = await service.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '10.99.0.1',
      payload: {
        email: `member-${process.pid}@example.com`,
        password: 'correct horse battery',
        name: 'Member',
        invitationToken: invitation.token,
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    await signIn(ownerConfig, owner.token);
    await signIn(memberConfig, (registered.json() as { token: string }).token);
  });
  afterAll(async () => {
    await service?.close();
    removeBuiltCli();
  });

  it('list: id, name, your role and the plan, as a table and as JSON', async () => {
    const listed = await asOwner('organizations', 'list', '-o', 'json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(jsonOf<Listed[]>(listed)).toEqual([
      { id: owner.organization.id, name: expect.any(String), role: 'admin', plan: 'self-hosted', suspended: false },
    ]);
    const table = await asOwner('organizations', 'list', '-o', 'table');
    expect(table.code, table.stderr).toBe(0);
    const [header, row] = table.stdout.split('\n');
    expect(header).toMatch(/^id\s+name\s+role\s+plan$/);
    expect(row).toMatch(new RegExp(`^${owner.organization.id}\\s.*\\sadmin\\s+self-hosted$`));
    // The member sees the organization they joined, with their role.
    const members = jsonOf<Listed[]>(await asMember('organizations', 'list', '-o', 'json'));
    expect(members.map((o) => [o.id, o.role])).toEqual([[owner.organization.id, 'write']]);
  });

  it('create: an admin starts another organization while registration is closed, and it is listed', async () => {
    const created = await asOwner('organizations', 'create', 'Second shop', '-o', 'json');
    expect(created.code, created.stderr).toBe(0);
    const answer = jsonOf<{ id: string; name: string; role: string }>(created);
    expect(answer).toEqual({ id: expect.any(String), name: 'Second shop', role: 'admin' });
    const listed = jsonOf<Listed[]>(await asOwner('organizations', 'list', '-o', 'json'));
    expect(listed.find((o) => o.id === answer.id)).toMatchObject({ name: 'Second shop', role: 'admin' });

    const text = await asOwner('organizations', 'create', 'Third shop', '-o', 'table');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Created organization Third shop \([0-9a-f-]{36}\); you are its admin\./);
  });

  it('create: a member who administers no organization is refused while registration is closed (exit 1, the reason)', async () => {
    const refused = await asMember('organizations', 'create', 'My own');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'error: registration is closed, so only an admin of an organization may create another one: ask an admin of this server\n',
    );
    const asJson = await asMember('organizations', 'create', 'My own', '-o', 'json');
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stderr)).toEqual({
      error: { message: expect.stringMatching(/^registration is closed/), hint: null, exitCode: 1, status: 403 },
    });
    const listed = jsonOf<Listed[]>(await asMember('organizations', 'list', '-o', 'json'));
    expect(listed).toHaveLength(1);
  });

  it('create: a missing or refused name and --fields are usage errors (exit 2), one line each', async () => {
    const bare = await asOwner('organizations', 'create');
    expect([bare.code, bare.stderr]).toEqual([2, expect.stringContaining("missing required argument 'name'")]);
    const long = await asOwner('organizations', 'create', 'x'.repeat(101));
    expect(long.code).toBe(2);
    // The typed name is cut in the line: 101 characters of it filled the terminal.
    expect(long.stderr).toBe(
      `error: organization name "${'x'.repeat(39)}…" refused: name must be 1 to 100 characters\n`,
    );
    const fields = await asOwner('organizations', 'create', 'Fields', '--fields', 'id');
    expect([fields.code, fields.stderr]).toEqual([
      2,
      expect.stringMatching(/^error: organizations create does not take --fields/),
    ]);
    const help = await asOwner('organizations', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$ sightline-cli organizations create "Acme Labs"');
    const names = jsonOf<Listed[]>(await asOwner('organizations', 'list', '-o', 'json')).map((o) => o.name);
    expect(names).not.toContain('Fields');
  });
});
