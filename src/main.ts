/**
 * `sightline` command line: `serve` runs the service, `demo` fills a running one with demo data
 * (src/demo/, over HTTP), `move` copies an embedded installation onto server engines. The client commands (login, queries, uploads) are the separate
 * `sightline-cli` (cli/).
 */
import fs from 'node:fs';
import { ConfigError, loadConfig } from './config.js';
import { serve } from './server/serve.js';
import { StartError } from './server/start-error.js';

const USAGE = `usage: sightline <command>

commands:
  serve     run the service (configuration from environment variables: see README.md)
  demo      send a demo shop's telemetry to a running service (sightline demo --help)
  move      copy this data folder's data onto the servers that DATABASE_URL, CLICKHOUSE_URL
            and S3_BUCKET name (service stopped, targets empty; docs/OPERATIONS.md §7)
  version   print the version (for bug reports and upgrades)
  help      show this text
`;

/** The package's version; src/ and dist/ both sit one level below package.json. */
function version(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

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
every target empty, or holding a move that did not finish (it is emptied and copied again); the
data folder is left as it was (docs/OPERATIONS.md §7).
`,
};

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
      let config: ReturnType<typeof loadConfig>;
      try {
        config = loadConfig(process.env);
      } catch (error) {
        if (error instanceof ConfigError) {
          process.stderr.write(`sightline: ${error.message}\n`);
          return 78; // EX_CONFIG
        }
        throw error;
      }
      try {
        if (command === 'serve') await serve(config);
        else {
          // Loaded only here: serve does not pay for the copy code.
          const { moveToServers } = await import('./server/move.js');
          await moveToServers(config, { write: (line) => process.stderr.write(`sightline move: ${line}\n`) });
        }
      } catch (error) {
        if (error instanceof StartError) {
          process.stderr.write(`sightline: ${error.message}\n`);
          return error.exitCode;
        }
        throw error;
      }
      return 0;
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
      process.stdout.write(`sightline ${version()}\n`);
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
