/** sightline-cli: the command line client of Sightline (DASHBOARD.md §5). */
import { Command, CommanderError } from 'commander';
import { authCommands } from './commands/auth.js';
import { organizationCommands } from './commands/organizations.js';
import { readCommands } from './commands/read.js';
import { action, withExamples } from './commands/shared.js';
import { uploadCommands } from './commands/uploads.js';
import { CliError, EXIT } from './errors.js';

/**
 * Commander's own usage errors (unknown option, missing argument, bad choice) as the CLI's other
 * errors are: one line, or one JSON object with -o json.
 */
function usageErrorOutput(json: boolean) {
  return (text: string, write: (text: string) => void) => {
    const message = text.trim().replace(/^error: /, '');
    const hint = 'add --help for usage';
    write(
      json
        ? `${JSON.stringify({ error: { message, hint, exitCode: EXIT.usage, status: null } })}\n`
        : `error: ${message} — ${hint}\n`,
    );
  };
}

function program(json: boolean): Command {
  const root = new Command('sightline-cli')
    .description(
      'Command line client of Sightline: sign in, query issues, endpoints, traces, logs and metrics, upload debug symbols, serve MCP.',
    )
    .version(SIGHTLINE_CLI_VERSION, '-v, --version')
    .option('--url <url>', "service URL (else SIGHTLINE_URL, else the profile's)")
    .option('--profile <name>', 'named sign-in to use (else SIGHTLINE_PROFILE, else the default profile)')
    .option('--project <project>', "project id or name (else SIGHTLINE_PROJECT, else the profile's default)")
    .option('-o, --output <format>', 'table or json (default: table on a terminal, json when piped)')
    .option('--fields <fields>', 'comma-separated fields to show, in order')
    .configureOutput({ outputError: usageErrorOutput(json) })
    .exitOverride();
  withExamples(
    root,
    'sightline-cli login --url https://sightline.example.com',
    'sightline-cli issues list --since 24h',
    'sightline-cli symbols upload build/ --upload-token "$SIGHTLINE_UPLOAD_TOKEN"',
  );
  authCommands(root);
  organizationCommands(root);
  readCommands(root);
  uploadCommands(root);
  withExamples(
    root
      .command('mcp')
      .description('serve the read commands as Model Context Protocol tools on stdio, for coding agents')
      .action(action(async (context) => (await import('./mcp.js')).serveMcp(context))),
    'sightline-cli mcp --profile default',
  );
  // Every subcommand exits through the same handler (help, version and usage errors included).
  const exitThroughHandler = (command: Command) => {
    for (const sub of command.commands) {
      sub.exitOverride();
      exitThroughHandler(sub);
    }
  };
  exitThroughHandler(root);
  return root;
}

function wantsJson(argv: string[]): boolean {
  const at = argv.findIndex((arg) => arg === '-o' || arg === '--output');
  return (at >= 0 && argv[at + 1] === 'json') || argv.includes('--output=json') || argv.includes('-ojson');
}

async function main(argv: string[]): Promise<void> {
  try {
    await program(wantsJson(argv)).parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander printed the help, the version or the usage error already.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    const failure =
      error instanceof CliError
        ? error
        : new CliError(error instanceof Error ? error.message : String(error), EXIT.apiError);
    if (wantsJson(argv)) {
      process.stderr.write(
        `${JSON.stringify({ error: { message: failure.message, hint: failure.hint ?? null, exitCode: failure.exitCode, status: failure.status ?? null } })}\n`,
      );
    } else {
      process.stderr.write(`error: ${failure.message}${failure.hint ? ` — ${failure.hint}` : ''}\n`);
    }
    process.exitCode = failure.exitCode;
  }
}

// A reader that stops early (`| head`) closes the pipe: the output is done, not failed.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.ok);
  throw error;
});

await main(process.argv.slice(2));
