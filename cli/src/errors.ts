/** Exit codes of DASHBOARD.md §5; scripts branch on them, so they never change meaning. */
export const EXIT = {
  ok: 0,
  apiError: 1,
  usage: 2,
  cannotConnect: 3,
  notSignedIn: 4,
  notFound: 5,
  rateLimited: 6,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI reports as one line with a hint and exits with its code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
    /** The HTTP status behind it, when there was one. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export const usageError = (message: string, hint?: string): CliError => new CliError(message, EXIT.usage, hint);

/** A value the person typed, quoted in an error line: cut to 40 characters so the line stays one line. */
export const quoted = (value: string): string => `"${value.length > 40 ? `${value.slice(0, 39)}…` : value}"`;

export const notSignedIn = (
  message = 'not signed in',
  hint = 'run `sightline-cli login` (or `login --token` with a personal access token)',
  status?: number,
): CliError => new CliError(message, EXIT.notSignedIn, hint, status);

/** What to run when a profile's default project is gone. */
export const CHOOSE_ANOTHER_PROJECT = '`sightline-cli projects list`, then `sightline-cli projects use <id|name>`';

/**
 * The profile's default project is deleted or no longer the caller's: said plainly (not found, exit 5)
 * instead of the service's bare refusal, and never silently replaced by another project.
 */
export const deadDefaultProject = (profileName: string, project: { id: string; name?: string }, status?: number) =>
  new CliError(
    `the default project ${project.name ? `${quoted(project.name)} (${project.id})` : project.id} of profile ${profileName} no longer exists or is not reachable`,
    EXIT.notFound,
    `choose another: ${CHOOSE_ANOTHER_PROJECT} (or pass --project)`,
    status,
  );
