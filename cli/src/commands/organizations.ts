/** organizations list, organizations create. */
import type { Command } from 'commander';
import { listOrganizations } from '../context.js';
import { CliError, quoted, usageError } from '../errors.js';
import { printDetail, printRows } from '../output.js';
import { action, commandGroup, refuseFields, withExamples, withoutHint } from './shared.js';

export function organizationCommands(program: Command): void {
  const organizations = commandGroup(
    program,
    'organizations',
    'the organizations you belong to, and starting another',
    'sightline-cli organizations list',
  );
  withExamples(
    organizations
      .command('list')
      .description('your organizations: id, name, your role and the plan')
      .action(
        action(async (context) => {
          const session = context.session();
          const mine = await listOrganizations(session);
          // Every member may read the plan (the subscription, or the default plan without one).
          const rows = await Promise.all(
            mine.map(async (organization) => {
              const { subscription } = await session.call((api) =>
                api.GET('/api/billing/subscription', { params: { query: { organizationId: organization.id } } }),
              );
              return {
                id: organization.id,
                name: organization.name,
                role: organization.role,
                plan: subscription.planCode,
                suspended: organization.suspended,
              };
            }),
          );
          printRows({ rows, columns: ['id', 'name', 'role', 'plan'] }, context.output);
        }),
      ),
    'sightline-cli organizations list',
    'sightline-cli organizations list -o json',
  );
  withExamples(
    organizations
      .command('create')
      .argument('<name>', 'organization name (1 to 100 characters)')
      .description(
        'start an organization on the default plan, with you as its only admin (while registration is closed, only an admin of an organization may)',
      )
      .action(
        action(async (context, _options, args) => {
          refuseFields(context, 'organizations create');
          const name = String(args[0]);
          const created = await context
            .session()
            .call((api) => api.POST('/api/organizations', { body: { name } }))
            .catch((error: unknown) => {
              // A name outside the rules is the caller's input: a usage error naming it.
              if (error instanceof CliError && error.status === 422)
                throw usageError(`organization name ${quoted(name)} refused: ${error.message}`);
              // The service's 403 says why (closed registration).
              if (error instanceof CliError && error.status === 403) throw withoutHint(error);
              throw error;
            });
          printDetail(
            {
              json: { id: created.id, name: created.name, role: created.role },
              text: [
                `Created organization ${created.name} (${created.id}); you are its admin.`,
                'Create its first project (`projects create --help` lists the frameworks):',
                // By id: the caller writes to several organizations now. --use when the profile has no
                // default project yet, so the read commands that follow have one.
                `  sightline-cli projects create <name> --framework <framework> --organization ${created.id}${context.profile()?.projectId === undefined ? ' --use' : ''}`,
              ].join('\n'),
            },
            context.output,
          );
        }),
      ),
    'sightline-cli organizations create "Acme Labs"',
  );
}
