/** login, logout, whoami, profiles. */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import open from 'open';
import { listProjects, type Context } from '../context.js';
import { CHOOSE_ANOTHER_PROJECT, CliError, EXIT, notSignedIn, usageError } from '../errors.js';
import { pollDeviceToken, revokeLogin, startDeviceAuthorization } from '../oauth.js';
import { printDetail, printRows } from '../output.js';
import { Session, deviceCredentialsFrom } from '../session.js';
import { readStore, updateStore, type Credentials } from '../store.js';
import { action, commandGroup, withExamples } from './shared.js';

/** The caller as the CLI shows them: who, and their organizations with their role in each. */
async function whoAmI(session: Session) {
  const { user, organizations } = await session.call((api) => api.GET('/api/me'));
  return {
    user: { id: user.id, email: user.email, name: user.name },
    organizations: organizations.map(({ id, name, role }) => ({ id, name, role })),
  };
}
type Me = Awaited<ReturnType<typeof whoAmI>>;

/** RFC 8628 §3.5: a slow_down adds 5 s to the interval. */
const SLOW_DOWN_STEP_S = 5;

export function authCommands(program: Command): void {
  withExamples(
    program
      .command('login')
      .description('sign in: device login in the browser (default), or a personal access token')
      .option('--no-browser', 'print the URL and code without opening a browser')
      .option('--token <token>', 'sign in with a personal access token (tpp_...)')
      .option('--token-stdin', 'read a personal access token from standard input')
      .action(action<{ browser: boolean; token?: string; tokenStdin?: boolean }>(login)),
    'sightline-cli login --url https://sightline.example.com',
    'echo "$SIGHTLINE_TOKEN" | sightline-cli login --url https://sightline.example.com --token-stdin',
  );

  withExamples(
    program
      .command('logout')
      .description(
        'sign out: ends the device login on the service and forgets the credentials (nothing to do, exit 0, when signed out)',
      )
      .action(action(logout)),
    'sightline-cli logout --profile staging',
  );

  withExamples(
    program
      .command('whoami')
      .description('show the signed-in user, service and default project')
      .action(action(whoami)),
    'sightline-cli whoami -o json',
  );

  const profiles = commandGroup(
    program,
    'profiles',
    'named sign-ins, e.g. one per service',
    'sightline-cli profiles list',
  );
  withExamples(
    profiles.command('list').description('list the profiles').action(action(listProfiles)),
    'sightline-cli profiles list',
  );
  withExamples(
    profiles
      .command('use')
      .argument('<name>', 'profile to make the default')
      .description('make a profile the default')
      .action(action(useProfile)),
    'sightline-cli profiles use staging',
  );
}

async function login(
  context: Context,
  options: { browser: boolean; token?: string; tokenStdin?: boolean },
): Promise<void> {
  const url = context.baseUrl();
  if (options.token !== undefined && options.tokenStdin) throw usageError('use either --token or --token-stdin');
  const token = options.tokenStdin ? fs.readFileSync(0, 'utf8').trim() : options.token?.trim();
  if (token !== undefined && token === '') throw usageError('the token is empty');
  let credentials: Credentials;
  let me: Me;
  try {
    credentials = token !== undefined ? { kind: 'token', token } : await deviceLogin(url, options.browser);
    me = await whoAmI(new Session(context.profileName, url, credentials));
  } catch (error) {
    if (error instanceof CliError && error.exitCode === EXIT.notSignedIn && token !== undefined) {
      throw notSignedIn('the service refused the token (401): it is unknown, expired or revoked', undefined, 401);
    }
    throw notSightlineAt(url, error);
  }
  const session = new Session(context.profileName, url, credentials);
  const projects = await listProjects(session);
  const { project, replaced } = await updateStore((store) => {
    const previous = store.profiles[context.profileName];
    const sameService = previous?.url === url;
    // One project: it is the obvious default. Otherwise keep the one chosen before on this service.
    const only = projects.length === 1 ? projects[0] : undefined;
    const kept =
      sameService && previous?.projectId && projects.some((p) => p.id === previous.projectId) ? previous : undefined;
    const projectId = only?.id ?? kept?.projectId;
    const projectName = only?.name ?? kept?.projectName;
    store.profiles[context.profileName] = { url, credentials, ...(projectId ? { projectId, projectName } : {}) };
    if (Object.keys(store.profiles).length === 1) store.currentProfile = context.profileName;
    return {
      project: projectId ? { id: projectId, name: projectName ?? null } : null,
      replaced: previous?.credentials?.kind === 'device' ? { url: previous.url, ...previous.credentials } : null,
    };
  });
  // The device login this one replaces would otherwise stay listed, and valid, on its service.
  // Best effort: it may have been revoked or may have expired already.
  if (replaced) await revokeLogin(replaced.url, replaced.refreshToken).catch(() => undefined);
  printDetail(
    {
      json: { profile: context.profileName, url, auth: credentials.kind, user: me.user, project },
      text: `Signed in to ${url} as ${me.user.email} (profile ${context.profileName}${project?.name ? `, project ${project.name}` : ''}).`,
    },
    context.output,
  );
}

/**
 * The first answers of a login come from whatever the URL names: a route that is not there (404,
 * 405, 501) means it is not a Sightline service, or the URL carries a path such as /api.
 */
function notSightlineAt(url: string, error: unknown): unknown {
  if (!(error instanceof CliError) || ![404, 405, 501].includes(error.status ?? 0)) return error;
  return new CliError(
    `no Sightline service at ${url} (it answered ${error.status})`,
    EXIT.cannotConnect,
    'check --url: the address the dashboard opens at, without a path such as /api',
    error.status,
  );
}

async function deviceLogin(url: string, browser: boolean): Promise<Credentials> {
  const started = await startDeviceAuthorization(url);
  const link = started.verification_uri_complete ?? started.verification_uri;
  // The instructions go to stderr: stdout carries only the result, for scripts.
  process.stderr.write(`To sign in, open ${started.verification_uri} and enter the code ${started.user_code}\n`);
  if (browser) {
    process.stderr.write(`Opening ${link} in your browser...\n`);
    await open(link).catch(() => process.stderr.write('Could not open a browser: open the address above yourself.\n'));
  } else {
    process.stderr.write(`Or open ${link}\n`);
  }
  process.stderr.write('Waiting for approval...\n');
  let intervalSeconds = started.interval ?? 5;
  const deadline = Date.now() + started.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(intervalSeconds * 1000);
    const outcome = await pollDeviceToken(url, started.device_code);
    if (outcome.state === 'approved') return deviceCredentialsFrom(outcome.tokens);
    if (outcome.state === 'slow_down') intervalSeconds += SLOW_DOWN_STEP_S;
  }
  throw new CliError('the code expired before it was approved', EXIT.notSignedIn, 'run `sightline-cli login` again');
}

async function logout(context: Context): Promise<void> {
  const profile = context.profile();
  const credentials = profile?.credentials;
  // Signed out already (or never signed in): there is nothing to end, which is what was asked.
  if (!profile || !credentials) {
    printDetail(
      {
        json: { profile: context.profileName, url: profile?.url ?? null, signedOut: false },
        text: `Not signed in (profile ${context.profileName}): nothing to do.`,
      },
      context.output,
    );
    return;
  }
  if (credentials.kind === 'device') await revokeLogin(profile.url, credentials.refreshToken);
  await updateStore((store) => {
    const stored = store.profiles[context.profileName];
    if (stored) delete stored.credentials;
  });
  const note =
    credentials.kind === 'token'
      ? ' The personal access token itself stays valid: revoke it in the dashboard (Settings → Account) if it should stop.'
      : '';
  printDetail(
    {
      json: { profile: context.profileName, url: profile.url, signedOut: true },
      text: `Signed out of ${profile.url} (profile ${context.profileName}).${note}`,
    },
    context.output,
  );
}

async function whoami(context: Context): Promise<void> {
  const session = context.session();
  const me = await whoAmI(session);
  const profile = context.profile();
  // Whether the default project is still among the person's: one deleted, or in an organization
  // they left, would fail every read command (which say so too, see Session).
  const project = profile?.projectId
    ? {
        id: profile.projectId,
        name: profile.projectName ?? null,
        reachable: (await listProjects(session)).some((listed) => listed.id === profile.projectId),
      }
    : null;
  const auth = session.kind === 'device' ? 'device login' : 'personal access token';
  printDetail(
    {
      json: {
        profile: context.profileName,
        url: session.baseUrl,
        auth: session.kind,
        user: me.user,
        organizations: me.organizations,
        project,
      },
      text: [
        `${me.user.name} <${me.user.email}> on ${session.baseUrl}`,
        `profile ${context.profileName}, ${auth}`,
        `organizations: ${me.organizations.map((o) => `${o.name} (${o.role})`).join(', ') || '-'}`,
        `default project: ${project ? `${project.name ?? ''} ${project.id}`.trim() : '- (run `sightline-cli projects use <id|name>`)'}`,
        ...(project && !project.reachable
          ? ['  no longer exists or is not reachable; choose another:', `  ${CHOOSE_ANOTHER_PROJECT}`]
          : []),
      ].join('\n'),
    },
    context.output,
  );
}

async function listProfiles(context: Context): Promise<void> {
  const store = readStore();
  const rows = Object.entries(store.profiles).map(([name, profile]) => ({
    name,
    current: name === context.profileName,
    url: profile.url,
    auth: profile.credentials?.kind ?? 'signed out',
    project: profile.projectName ?? profile.projectId ?? null,
  }));
  printRows({ rows, columns: ['name', 'current', 'url', 'auth', 'project'] }, context.output);
}

async function useProfile(context: Context, _options: object, args: unknown[]): Promise<void> {
  const name = String(args[0]);
  await updateStore((store) => {
    if (!store.profiles[name])
      throw new CliError(
        `no profile named "${name}"`,
        EXIT.notFound,
        'see `sightline-cli profiles list`; `login --profile <name>` creates one',
      );
    store.currentProfile = name;
  });
  printDetail({ json: { currentProfile: name }, text: `Profile ${name} is now the default.` }, context.output);
}
