/**
 * `sightline` command line: `serve` runs the service, `demo` fills a running one with demo data
 * (src/demo/, over HTTP), `move` copies an embedded installation onto server engines, `backup`
 * and `restore` archive an embedded one and bring it back. The client commands (login, queries, uploads) are the separate
 * `sightline-cli` (cli/).
 */
import { ConfigError, loadConfig, type Config } from './config.js';
import { serve } from './server/serve.js';
import { StartError } from './server/start-error.js';
import { packageVersion } from './server/version.js';

const USAGE = `usage: sightline <command>

commands:
  serve     run the service (configuration from environment variables: see README.md)
  demo      send a demo shop's telemetry to a running service (sightline demo --help)
  move      copy this data folder's data onto the servers that DATABASE_URL, CLICKHOUSE_URL
            and S3_BUCKET name (service stopped, targets empty; docs/OPERATIONS.md §7)
  backup    write an archive of this data folder, while the service runs or not
            (sightline backup <archive.tar.gz>; docs/OPERATIONS.md §4)
  restore   unpack such an archive into an empty data folder, service stopped
            (sightline restore <archive.tar.gz>)
  version   print the version (for bug reports and upgrades)
  help      show this text
`;

/** `serve` and `move` take no options, but `--help` is what an operator tries first. */
const COMMAND_USAGE = {
  serve: `usage: sightline serve

Runs the service: the dashboard, the application API and the ingest routes on PORT (8080).
Every setting is an environment variable (README.md "Configuration"); with none set, the
embedded engines keep their data under DATA_DIR (./data). Stop it with Ctrl-C or SIGTERM.
`,
  move: `usage: sightline move

Copies this data folder's data (DATA_DIR) onto the servers that DATABASE_URL, CLICKHOUSE_URL
and S3_BUCKET name, each store only when its variable is set. The service must be stopped and
every target empty, or holding a move that did not finish (the move is redone there); the
data folder is left as it was (docs/OPERATIONS.md §7).
`,
};

/** `backup` and `restore` take the archive's path. */
const ARCHIVE_COMMAND_USAGE = {
  backup: `usage: sightline backup <archive.tar.gz>

Writes an archive of the data folder (DATA_DIR): the telemetry (chDB's BACKUP), the metadata
(PGlite's dump), the objects with their modification times, session-secret and a manifest.
A service running on DATA_DIR takes it while it keeps serving (over DATA_DIR/control.sock, so
run it as the service's user); otherwise the folder is opened directly. The archive appears
only when whole (it is written as <archive>.partial first). Embedded engines only
(docs/OPERATIONS.md §4).
`,
  restore: `usage: sightline restore <archive.tar.gz>

Unpacks an archive of \`sightline backup\` into the data folder (DATA_DIR), which must be
empty, with no service running on it, and checks every telemetry table's rows against the
archive's manifest. Start the service on it afterwards (docs/OPERATIONS.md §4).
`,
};

/** The configuration, or the exit code (78, EX_CONFIG) after saying what is wrong with it. */
function configFromEnvironment(): Config | number {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`sightline: ${error.message}\n`);
      return 78; // EX_CONFIG
    }
    throw error;
  }
}

/** 0 when `run` succeeds; a StartError is its one line on stderr and its exit code, never a stack trace. */
async function exitCodeOf(run: () => Promise<void>): Promise<number> {
  try {
    await run();
    return 0;
  } catch (error) {
    if (error instanceof StartError) {
      process.stderr.write(`sightline: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

async function main(argv: string[]): Promise<number> {
  const command = argv[0] ?? 'help';
  switch (command) {
    case 'serve':
    case 'move': {
      if (argv.length === 2 && ['--help', '-h', 'help'].includes(argv[1]!)) {
        process.stdout.write(COMMAND_USAGE[command]);
        return 0;
      }
      // Before: `serve --help` started the service and `move --help` was an error.
      if (argv.length > 1) {
        process.stderr.write(
          `sightline: ${command} takes no arguments (configuration is environment variables)\n\n${COMMAND_USAGE[command]}`,
        );
        return 64; // EX_USAGE
      }
      const config = configFromEnvironment();
      if (typeof config === 'number') return config;
      return exitCodeOf(async () => {
        if (command === 'serve') await serve(config);
        else {
          // Loaded only here: serve does not pay for the copy code.
          const { moveToServers } = await import('./server/move.js');
          await moveToServers(config, { write: (line) => process.stderr.write(`sightline move: ${line}\n`) });
        }
      });
    }
    case 'backup':
    case 'restore': {
      if (argv.length === 2 && ['--help', '-h', 'help'].includes(argv[1]!)) {
        process.stdout.write(ARCHIVE_COMMAND_USAGE[command]);
        return 0;
      }
      if (argv.length !== 2 || argv[1]!.startsWith('-')) {
        process.stderr.write(
          `sightline: ${command} takes the archive's path, and nothing else\n\n${ARCHIVE_COMMAND_USAGE[command]}`,
        );
        return 64; // EX_USAGE
      }
      const config = configFromEnvironment();
      if (typeof config === 'number') return config;
      const out = { write: (line: string) => process.stderr.write(`sightline ${command}: ${line}\n`) };
      return exitCodeOf(async () => {
        // Loaded only here: serve does not pay for them.
        if (command === 'backup') await (await import('./server/backup-command.js')).runBackup(config, argv[1]!, out);
        else await (await import('./server/restore.js')).runRestore(config, argv[1]!, out);
      });
    }
    case 'demo': {
      // Loaded only here: serve does not pay for the demo generator.
      const { demoCommand } = await import('./demo/command.js');
      return demoCommand(argv.slice(1), {
        url: process.env.SIGHTLINE_URL,
        token: process.env.SIGHTLINE_TOKEN,
        email: process.env.SIGHTLINE_DEMO_EMAIL,
        password: process.env.SIGHTLINE_DEMO_PASSWORD,
      });
    }
    case 'version':
    case '--version':
    case '-v':
      process.stdout.write(`sightline ${packageVersion()}\n`);
      return 0;
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`sightline: unknown command "${command}"\n\n${USAGE}`);
      return 64; // EX_USAGE
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`sightline: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
