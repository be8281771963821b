/** Helpers of the command definitions: typed actions, common options, examples in --help. */
import { type Command, Option } from 'commander';
import { Context, type GlobalOptions } from '../context.js';
import { CliError, usageError } from '../errors.js';
import type { Page } from '../queries.js';

/** An action with its context, its own options (as declared on the command) and its positional arguments. */
export function action<Options extends object>(
  handler: (context: Context, options: Options, args: unknown[]) => Promise<void>,
) {
  return async (...received: unknown[]): Promise<void> => {
    const command = received[received.length - 1] as Command;
    await handler(
      new Context(command.optsWithGlobals<GlobalOptions>()),
      command.opts() as Options,
      command.processedArgs,
    );
  };
}

export function withExamples(command: Command, ...examples: string[]): Command {
  return command.addHelpText(
    'after',
    `\nExample${examples.length > 1 ? 's' : ''}:\n${examples.map((line) => `  $ ${line}`).join('\n')}`,
  );
}

/** A command group (`<name> <subcommand>`) with its description and help examples. */
export function commandGroup(program: Command, name: string, description: string, ...examples: string[]): Command {
  return withExamples(program.command(name).description(description), ...examples);
}

export interface TimeFlags {
  since?: string;
  from?: string;
  to?: string;
}

export function timeOptions(command: Command, defaultSince = '24h'): Command {
  return command
    .option(
      '--since <duration>',
      `how far back from --to (default now): 30m, 1h, 24h, 7d (default ${defaultSince}); not with --from`,
    )
    .option('--from <time>', 'start of the range (ISO 8601; without a zone UTC, as tables show times)')
    .option('--to <time>', 'end of the range (ISO 8601, UTC without a zone; default now), after --from or --since');
}

export interface PageFlags {
  page: string;
  limit: string;
}

export function pageOptions(command: Command, defaultLimit = 50): Command {
  return command
    .option('--limit <n>', 'rows per page (1-500)', String(defaultLimit))
    .option('--page <n>', 'page number', '1');
}

export function pageFrom(flags: PageFlags): Page {
  return { page: positiveInt(flags.page, '--page', 1_000_000), pageSize: positiveInt(flags.limit, '--limit', 500) };
}

export function positiveInt(text: string, flag: string, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw usageError(`${flag} must be a whole number from 1 to ${max}`);
  return value;
}

export function choice(flag: string, values: readonly string[]): Option {
  return new Option(flag).choices(values);
}

/** A command printing one answer (not rows) has no columns to pick: --fields there is a usage error, not ignored. */
export function refuseFields(context: Context, command: string): void {
  if (context.output.fields)
    throw usageError(
      `${command} does not take --fields (it prints one answer, not rows)`,
      '--fields picks the columns of the list commands, `logs query` and `logs tail`; -o json shows the whole answer',
    );
}

/** A refusal (403) whose message says why: the generic hint about the project and role would mislead. */
export function withoutHint(error: CliError): CliError {
  return new CliError(error.message, error.exitCode, undefined, error.status);
}
