/** What every command resolves first: the profile, the service URL, the session, the project. */
import type { paths } from '@sightline/api-client';
import { CliError, EXIT, notSignedIn, usageError } from './errors.js';
import { formatFrom, tableWidth, type OutputOptions } from './output.js';
import { Session } from './session.js';
import { DEFAULT_PROFILE, readStore, type Profile } from './store.js';

export interface GlobalOptions {
  url?: string;
  profile?: string;
  output?: string;
  fields?: string;
  project?: string;
}

type Project = paths['/api/projects']['get']['responses'][200]['content']['application/json']['projects'][number];
/** What the CLI shows and keeps of a project: never its secrets (the ingest token). */
export type ProjectSummary = Pick<Project, 'id' | 'name' | 'framework' | 'organizationId' | 'role'>;
const projectSummary = ({ id, name, framework, organizationId, role }: ProjectSummary): ProjectSummary => ({
  id,
  name,
  framework,
  organizationId,
  role,
});

/** A UUID in its 8-4-4-4-12 form, either case (project and trace ids). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A trace id as the API's entity routes take it, the UUID spelling in lower case, from either
 * spelling a person copies: the UUID (the dashboard, `endpoints show`) or 32 hex digits (OTLP's,
 * as `logs query` prints it), in either case. The dashboard converts the same way (web/src/lib/ids.ts).
 */
export function traceIdOf(text: string): string {
  const hex = UUID.test(text) ? text.replace(/-/g, '') : /^[0-9a-f]{32}$/i.test(text) ? text : null;
  if (hex === null)
    throw usageError(
      `"${text}" is not a trace id`,
      'a trace id is a UUID (8-4-4-4-12) or 32 hex digits: the id column of `sightline-cli endpoints show`, the traceId of `logs query`, or the id on a trace page of the dashboard',
    );
  const lower = hex.toLowerCase();
  return `${lower.slice(0, 8)}-${lower.slice(8, 12)}-${lower.slice(12, 16)}-${lower.slice(16, 20)}-${lower.slice(20)}`;
}

export class Context {
  readonly profileName: string;
  readonly output: OutputOptions;

  constructor(readonly options: GlobalOptions) {
    this.profileName =
      options.profile ?? process.env.SIGHTLINE_PROFILE ?? readStore().currentProfile ?? DEFAULT_PROFILE;
    const fields = options.fields
      ?.split(',')
      .map((field) => field.trim())
      .filter((field) => field !== '');
    const format = formatFrom(options.output, process.stdout.isTTY === true);
    this.output = {
      format,
      fields: fields && fields.length > 0 ? fields : undefined,
      width: format === 'table' ? tableWidth() : undefined,
    };
  }

  profile(): Profile | undefined {
    return readStore().profiles[this.profileName];
  }

  /** --url, else SIGHTLINE_URL, else the profile's. */
  baseUrl(): string {
    const url = this.options.url ?? process.env.SIGHTLINE_URL ?? this.profile()?.url;
    if (!url)
      throw usageError(
        'no service URL',
        'pass --url https://sightline.example.com (or set SIGHTLINE_URL), or sign in with `login --url`',
      );
    return normalizeUrl(url);
  }

  /**
   * The profile's sign-in, against the service it was made on. A --url or SIGHTLINE_URL naming
   * another service is refused rather than followed: the profile's token (or refresh token) would
   * go to that host, and a refused refresh there would sign the profile out.
   */
  session(): Session {
    const profile = this.profile();
    // Naming a profile that is not there is a typo more often than a sign-out.
    if (!profile && Object.keys(readStore().profiles).length > 0)
      throw notSignedIn(
        `no profile named "${this.profileName}"`,
        `\`sightline-cli login --profile ${this.profileName}\` creates it; \`sightline-cli profiles list\` shows yours`,
      );
    if (!profile?.credentials) throw notSignedIn(`not signed in (profile ${this.profileName})`);
    const asked = this.options.url ?? process.env.SIGHTLINE_URL;
    const signedInTo = normalizeUrl(profile.url);
    if (asked !== undefined && normalizeUrl(asked) !== signedInTo) {
      const source = this.options.url !== undefined ? '--url' : 'SIGHTLINE_URL';
      throw usageError(
        `profile ${this.profileName} is signed in to ${signedInTo}, not ${normalizeUrl(asked)} (${source})`,
        `sign in there with \`sightline-cli login --url ${normalizeUrl(asked)} --profile <name>\`, or leave out ${source}`,
      );
    }
    const defaultProject = profile.projectId ? { id: profile.projectId, name: profile.projectName } : undefined;
    return new Session(this.profileName, signedInTo, profile.credentials, defaultProject);
  }

  /** --project (id or name), else SIGHTLINE_PROJECT, else the profile's default project. */
  async projectId(session: Session, explicit = this.options.project): Promise<string> {
    const wanted = explicit ?? process.env.SIGHTLINE_PROJECT ?? this.profile()?.projectId;
    if (!wanted)
      throw usageError('no project chosen', 'pass --project <id|name> or run `sightline-cli projects use <id|name>`');
    // The profile's own default was checked when it was chosen; a named one is looked up, so an id
    // that is not among the caller's projects reads "not found" (exit 5), not the service's 403.
    if (UUID.test(wanted) && wanted === this.profile()?.projectId) return wanted.toLowerCase();
    return (await findProject(session, wanted)).id;
  }
}

export async function listProjects(session: Session): Promise<ProjectSummary[]> {
  return (await session.call((api) => api.GET('/api/projects'))).projects.map(projectSummary);
}

/** A project by id or by name (case-insensitive). */
export async function findProject(session: Session, idOrName: string): Promise<ProjectSummary> {
  return byIdOrName(await listProjects(session), idOrName, 'project');
}

export type Organization =
  paths['/api/me']['get']['responses'][200]['content']['application/json']['organizations'][number];

/** The caller's organizations (with their role in each), as /api/me lists them. */
export async function listOrganizations(session: Session): Promise<Organization[]> {
  return (await session.call((api) => api.GET('/api/me'))).organizations;
}

/** One of the caller's projects or organizations by id or by name (case-insensitive); anything else reads "not found". */
export function byIdOrName<Item extends { id: string; name: string }>(
  items: Item[],
  idOrName: string,
  kind: 'project' | 'organization',
): Item {
  const wanted = idOrName.toLowerCase();
  const found = items.find((item) => item.id === wanted) ?? items.filter((item) => item.name.toLowerCase() === wanted);
  if (!Array.isArray(found)) return found;
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    throw usageError(
      `${found.length} ${kind}s are named "${idOrName}"`,
      `use its id (see \`sightline-cli ${kind}s list\`)`,
    );
  throw new CliError(`no ${kind} "${idOrName}" among yours`, EXIT.notFound, `see \`sightline-cli ${kind}s list\``);
}

export function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError(`"${url}" is not a URL`, 'e.g. --url https://sightline.example.com');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw usageError(`"${url}" is not an http(s) URL`);
  return parsed.origin + parsed.pathname.replace(/\/+$/, '');
}
