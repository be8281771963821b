/**
 * Alerting routes. Channels belong to a project (`?projectId=`: members read them, the write
 * role changes them) or to an organization (`?organizationId=` without projectId: members read
 * them, admins change them) — an organization channel serves every project of it. Rules and
 * delivery events belong to a project: members read them, the write role changes rules. Channel
 * secrets are never answered again after creation.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import {
  CHANNEL_KINDS,
  DEFAULT_REPEAT_INTERVAL_SECONDS,
  MAX_REPEAT_INTERVAL_SECONDS,
  MIN_REPEAT_INTERVAL_SECONDS,
  RULE_KINDS,
  RULE_STATES,
  RuleActionRefused,
  RuleInputError,
  isEventRule,
  parseRuleParams,
  type Notification,
  type RuleAction,
} from '../../core/alerts.js';
import { parseIsoInstant } from '../../core/instants.js';
import { timeZoneOrUtc } from '../../core/time-zones.js';
import type { Role } from '../../core/roles.js';
import { HttpError, notFound, unprocessable } from '../../http/errors.js';
import type { TypedScope } from '../../http/schema-types.js';
import type { Services } from '../../application/services.js';
import { actOnRule } from '../../application/alerting/actions.js';
import { OutboundRefused, checkOutboundUrl } from '../../application/alerting/outbound.js';
import {
  MAX_CHANNELS_PER_SCOPE,
  MAX_RULES_PER_PROJECT,
  deleteChannel,
  deleteRule,
  findChannel,
  findRule,
  insertChannel,
  insertEvent,
  insertRule,
  listChannels,
  listEvents,
  listRules,
  updateRule,
  type AlertChannel,
  type AlertRule,
  type ChannelScope,
  type RuleInput,
} from '../../store/meta/repositories/alerts.js';
import { findOrganizationSettings } from '../../store/meta/repositories/organizations.js';
import { latestActivityId } from '../../store/meta/repositories/issues.js';
import { principalOf, requireUser } from '../authenticate.js';
import { organizationScopeOf, requireOrganizationRole } from '../organization-scope.js';
import { projectScopeOf, requireProjectRole } from '../project-scope.js';
import { bool, int, nnum, nstr, obj, projectQuery, str } from '../telemetry/conventions.js';

const ID_PARAM = { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } } as const;
const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
const errorSchema = { type: 'object', properties: { error: { type: 'string' } } } as const;
const errors = {
  400: { description: 'malformed body or parameter', ...errorSchema },
  401: { description: 'missing or unknown credential (empty body)', type: 'null' },
  403: { description: "no access, or a role below the route's", ...errorSchema },
  404: { description: 'no such item in this scope', ...errorSchema },
  422: { description: 'validation failure naming the field, or a limit reached', ...errorSchema },
} as const;
const conflict = {
  description: 'the rule is not firing, or this firing is already acknowledged',
  ...errorSchema,
} as const;

/** A route's schema: its parts (`response` holds the success answer by status), the error answers added. */
function schemaOf<const Parts extends { querystring: object; body?: object; params?: object; response: object }>(
  summary: string,
  parts: Parts,
) {
  return {
    tags: ['Alerting'],
    summary,
    security: [{ bearer: [] }],
    ...parts,
    response: { ...parts.response, ...errors },
  } as const;
}

const channelQuery = {
  type: 'object',
  properties: {
    projectId: {
      type: 'string',
      format: 'uuid',
      description: 'a project channel (and, when listing, the organization channels the project may use)',
    },
    organizationId: { type: 'string', format: 'uuid', description: 'without projectId: an organization channel' },
  },
} as const;

/** Project scope when `projectId` is given, else organization scope; project write / organization admin to change. */
function requireChannelScope(services: Services, change: boolean) {
  const project = requireProjectRole(services, change ? 'write' : 'read-only');
  const organization = requireOrganizationRole(services, {
    minimum: (change ? 'admin' : 'read-only') as Role,
    from: 'query',
  });
  return async (request: FastifyRequest): Promise<void> => {
    const query = request.query as Record<string, unknown>;
    await (query.projectId !== undefined || query.organizationId === undefined
      ? project(request)
      : organization(request));
  };
}

function channelScopeOf(request: FastifyRequest): ChannelScope {
  if (request.projectScope)
    return { organizationId: request.projectScope.organizationId, projectId: request.projectScope.projectId };
  return { organizationId: organizationScopeOf(request).organizationId, projectId: null };
}

const channelSchema = obj(
  {
    id: str,
    name: str,
    kind: { type: 'string', enum: CHANNEL_KINDS },
    scope: { type: 'string', enum: ['project', 'organization'] },
    organizationId: str,
    projectId: nstr,
    addresses: { type: 'array', items: str },
    url: str,
    urlHint: str,
    createdAt: str,
    secret: { type: 'string', description: 'webhook signing secret: answered once, by the create route only' },
  },
  ['id', 'name', 'kind', 'scope', 'organizationId', 'projectId', 'createdAt'],
);

const toChannelAnswer = (channel: AlertChannel) => ({
  id: channel.id,
  name: channel.name,
  kind: channel.kind,
  scope: channel.projectId === null ? 'organization' : 'project',
  organizationId: channel.organizationId,
  projectId: channel.projectId,
  ...(channel.kind === 'email' ? { addresses: channel.config.addresses as string[] } : {}),
  ...(channel.kind === 'webhook' ? { url: channel.config.url as string } : {}),
  ...(channel.kind === 'slack' ? { urlHint: channel.config.urlHint as string } : {}),
  createdAt: channel.createdAt.toISOString(),
});

const ruleProperties = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  kind: { type: 'string', enum: RULE_KINDS },
  params: {
    type: 'object',
    additionalProperties: true,
    description:
      'per kind: issue_frequency {windowMinutes, threshold, hash?}; endpoint_latency {windowMinutes, percentile: p95|p99, thresholdMs, endpoint?}; error_rate {windowMinutes, thresholdPercent, minRequests?, endpoint?}; metric_threshold {windowMinutes, metric, aggregation, filters?, comparator: gt|gte|lt|lte, threshold}; log_match {windowMinutes, search?, minSeverity?, serviceName?, threshold (1-500)}; new_issue and regression take none. windowMinutes 1-1440, default 5.',
  },
  channelIds: { type: 'array', maxItems: 20, uniqueItems: true, items: { type: 'string', format: 'uuid' } },
  enabled: { type: 'boolean' },
  cooldownSeconds: {
    type: 'integer',
    minimum: 0,
    maximum: 604800,
    description: 'least time between two firing notifications',
  },
  snoozedUntil: { type: ['string', 'null'], description: 'no notifications until this ISO 8601 time' },
  repeatIntervalSeconds: {
    type: ['integer', 'null'],
    minimum: MIN_REPEAT_INTERVAL_SECONDS,
    maximum: MAX_REPEAT_INTERVAL_SECONDS,
    description: `threshold rules: while the rule stays firing, unacknowledged and not snoozed, its channels are reminded (the firing's title headed REMINDER, the first line saying since when it fires) this long after its last firing notification; any whole number of seconds from ${MIN_REPEAT_INTERVAL_SECONDS} to ${MAX_REPEAT_INTERVAL_SECONDS} (the dashboard offers 3600, 14400, 86400), or null: never. Omitted: ${DEFAULT_REPEAT_INTERVAL_SECONDS} (4 hours) when creating, unchanged when replacing. Event rules (new_issue, regression) take only null: their news is notified as it comes`,
  },
} as const;

const ruleSchema = obj({
  id: str,
  name: str,
  kind: { type: 'string', enum: RULE_KINDS },
  params: { type: 'object', additionalProperties: true },
  channelIds: { type: 'array', items: str },
  enabled: bool,
  cooldownSeconds: int,
  repeatIntervalSeconds: {
    type: ['integer', 'null'],
    description: 'seconds between reminders of a firing nobody acknowledged; null: never',
  },
  snoozedUntil: nstr,
  state: { type: 'string', enum: RULE_STATES },
  stateChangedAt: nstr,
  lastValue: nnum,
  lastEvaluatedAt: nstr,
  lastNotifiedAt: nstr,
  acknowledgedAt: { type: ['string', 'null'], description: 'when a person acknowledged the current firing' },
  acknowledgedBy: {
    type: ['object', 'null'],
    description: 'who acknowledged the current firing (id null once the account is deleted)',
    required: ['id', 'name'],
    properties: { id: nstr, name: str },
  },
  createdAt: str,
  updatedAt: str,
});

const toRuleAnswer = (rule: AlertRule) => {
  const { kind: _kind, ...params } = rule.params as unknown as Record<string, unknown>;
  return {
    id: rule.id,
    name: rule.name,
    kind: rule.kind,
    params,
    channelIds: rule.channelIds,
    enabled: rule.enabled,
    cooldownSeconds: rule.cooldownSeconds,
    repeatIntervalSeconds: rule.repeatIntervalSeconds,
    snoozedUntil: rule.snoozedUntil?.toISOString() ?? null,
    state: rule.state,
    stateChangedAt: rule.stateChangedAt?.toISOString() ?? null,
    lastValue: rule.lastValue,
    lastEvaluatedAt: rule.lastEvaluatedAt?.toISOString() ?? null,
    lastNotifiedAt: rule.lastNotifiedAt?.toISOString() ?? null,
    acknowledgedAt: rule.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: rule.acknowledgedBy,
    createdAt: rule.createdAt.toISOString(),
    updatedAt: rule.updatedAt.toISOString(),
  };
};

const eventSchema = obj({
  id: int,
  at: str,
  ruleId: nstr,
  ruleName: nstr,
  channelId: { type: ['string', 'null'], description: "null for a person's action, or once the channel is deleted" },
  channelName: { type: ['string', 'null'], description: "null for a person's action" },
  state: { type: 'string', enum: ['firing', 'resolved', 'test'] },
  notice: {
    type: ['string', 'null'],
    enum: ['reminder', 'acknowledged', null],
    description: 'a delivery that reminded of a firing, or told of its acknowledgement (null: of the state itself)',
  },
  attempt: { type: ['integer', 'null'], description: "null for a person's action" },
  outcome: { type: ['string', 'null'], enum: ['delivered', 'retrying', 'failed', null] },
  responseStatus: { type: ['integer', 'null'] },
  error: nstr,
  action: {
    type: ['string', 'null'],
    enum: ['acknowledged', 'resolved', null],
    description: 'a person acknowledged or resolved the rule (null: a delivery attempt)',
  },
  actorId: { type: ['string', 'null'], description: 'who acted (null once the account is deleted)' },
  actorName: { type: ['string', 'null'], description: 'their name, or e-mail, when they acted' },
});

const ruleBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind'],
  properties: ruleProperties,
} as const;

export async function alertRoutes(scope: TypedScope, services: Services): Promise<void> {
  scope.addHook('onRequest', requireUser(services));
  const channelReader = requireChannelScope(services, false);
  const channelWriter = requireChannelScope(services, true);
  const reader = requireProjectRole(services, 'read-only');
  const writer = requireProjectRole(services, 'write');

  scope.get(
    '/api/alert-channels',
    {
      onRequest: channelReader,
      schema: schemaOf(
        "Alert channels of a project (its own and its organization's) or of an organization; secrets are never shown",
        { querystring: channelQuery, response: { 200: obj({ items: { type: 'array', items: channelSchema } }) } },
      ),
    },
    async (request) => ({ items: (await listChannels(services.meta, channelScopeOf(request))).map(toChannelAnswer) }),
  );

  scope.post(
    '/api/alert-channels',
    {
      onRequest: channelWriter,
      schema: schemaOf(
        'Create an alert channel: email {addresses}, webhook {url} (answers its signing secret once), slack {url} (an incoming-webhook URL, kept encrypted); write role on the project, or admin of the organization',
        {
          querystring: channelQuery,
          body: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'kind'],
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 100 },
              kind: { type: 'string', enum: CHANNEL_KINDS },
              addresses: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', maxLength: 320 } },
              url: { type: 'string', maxLength: 2048 },
            },
          },
          response: { 201: channelSchema },
        },
      ),
    },
    async (request, reply) => {
      const body = request.body;
      const name = body.name.trim();
      if (name.length === 0) throw unprocessable('name must be 1 to 100 characters');
      let config: Record<string, unknown> = {};
      let secret: string | null = null;
      if (body.kind === 'email') {
        if (!services.mailer) throw unprocessable('kind email needs mail: SMTP_URL is not configured on this service');
        if (!body.addresses) throw unprocessable('addresses is required for an email channel');
        const bad = body.addresses.findIndex((address) => !EMAIL.test(address));
        if (bad >= 0) throw unprocessable(`addresses[${bad}] is not an e-mail address`);
        if (body.url !== undefined) throw unprocessable('url is not a field of an email channel');
        config = { addresses: body.addresses };
      } else {
        if (body.url === undefined) throw unprocessable(`url is required for a ${body.kind} channel`);
        if (body.addresses !== undefined) throw unprocessable(`addresses is not a field of a ${body.kind} channel`);
        let url: URL;
        try {
          // A target every delivery would refuse is refused now, as an e-mail channel without SMTP_URL is.
          url = checkOutboundUrl(body.url, { allowPrivate: services.config.alerts.allowPrivateTargets });
        } catch (error) {
          if (error instanceof OutboundRefused) throw unprocessable(`url: ${error.message}`);
          throw error;
        }
        if (body.kind === 'webhook') {
          config = { url: url.toString() };
          secret = `whsec_${randomBytes(32).toString('hex')}`;
        } else {
          // The Slack URL carries its own credential: kept sealed, shown only as a hint.
          config = { urlHint: `${url.host}/…${url.pathname.slice(-4)}` };
          secret = url.toString();
        }
      }
      const channelScope = channelScopeOf(request);
      const created = await services.meta.transaction((tx) =>
        insertChannel(tx, {
          ...channelScope,
          name,
          kind: body.kind,
          config,
          secretCiphertext: secret === null ? null : services.secrets.seal(secret),
          createdBy: principalOf(request).user.id,
        }),
      );
      if (!created)
        throw unprocessable(`an organization holds at most ${MAX_CHANNELS_PER_SCOPE} alert channels: delete one first`);
      return reply.code(201).send({ ...toChannelAnswer(created), ...(body.kind === 'webhook' ? { secret } : {}) });
    },
  );

  scope.delete(
    '/api/alert-channels/:id',
    {
      onRequest: channelWriter,
      schema: schemaOf(
        'Delete an alert channel of the project (write role) or the organization (admin); rules stop using it',
        { querystring: channelQuery, params: ID_PARAM, response: { 200: obj({ deleted: bool }) } },
      ),
    },
    async (request) => {
      if (!(await deleteChannel(services.meta, channelScopeOf(request), request.params.id.toLowerCase())))
        throw notFound('no such alert channel here');
      return { deleted: true };
    },
  );

  scope.post(
    '/api/alert-channels/:id/test',
    {
      onRequest: channelWriter,
      schema: schemaOf(
        'Send a test notification through the channel now (one attempt, recorded as an alert event); write role on the project, or admin of the organization',
        {
          querystring: channelQuery,
          params: ID_PARAM,
          response: {
            200: obj({
              outcome: { type: 'string', enum: ['delivered', 'failed'] },
              responseStatus: { type: ['integer', 'null'] },
              error: nstr,
            }),
          },
        },
      ),
    },
    async (request) => {
      const channelScope = channelScopeOf(request);
      const channel = await findChannel(services.meta, channelScope, request.params.id.toLowerCase());
      if (!channel) throw notFound('no such alert channel here');
      const now = new Date(services.now());
      const organization = await findOrganizationSettings(services.meta, channel.organizationId);
      const notification: Notification = {
        ruleId: '00000000-0000-0000-0000-000000000000',
        ruleName: 'Test notification',
        kind: 'new_issue',
        state: 'test',
        projectId: channelScope.projectId ?? '',
        projectName: '',
        title: `Test notification for channel "${channel.name}"`,
        lines: ['This is a test sent from Sightline. No rule fired.'],
        value: null,
        at: now.toISOString(),
        timeZone: timeZoneOrUtc(organization?.settings.timezone),
        url: services.config.publicUrl,
      };
      const result = await services.alerts.send(channel, notification);
      await insertEvent(services.meta, {
        organizationId: channel.organizationId,
        projectId: channelScope.projectId,
        ruleId: null,
        ruleName: null,
        channelId: channel.id,
        channelName: channel.name,
        state: 'test',
        notice: null,
        at: now,
        attempt: 1,
        outcome: result.outcome,
        responseStatus: result.responseStatus,
        error: result.error,
      });
      return result;
    },
  );

  /** `existing`: the rule a PUT replaces, whose reminder setting an omitted field keeps. */
  async function ruleInput(
    request: FastifyRequest,
    body: FromSchema<typeof ruleBody>,
    existing?: AlertRule,
  ): Promise<RuleInput> {
    const name = body.name.trim();
    if (name.length === 0) throw unprocessable('name must be 1 to 100 characters');
    let params: ReturnType<typeof parseRuleParams>;
    try {
      params = parseRuleParams(body.kind, body.params);
    } catch (error) {
      if (error instanceof RuleInputError) throw unprocessable(error.message);
      throw error;
    }
    const channelIds = (body.channelIds ?? []).map((id) => id.toLowerCase());
    const project = projectScopeOf(request);
    const usable = new Set(
      (await listChannels(services.meta, { organizationId: project.organizationId, projectId: project.projectId })).map(
        (channel) => channel.id,
      ),
    );
    const foreign = channelIds.findIndex((id) => !usable.has(id));
    if (foreign >= 0)
      throw unprocessable(`channelIds[${foreign}] is not an alert channel of this project or its organization`);
    let snoozedUntil: Date | null = null;
    if (body.snoozedUntil !== undefined && body.snoozedUntil !== null) {
      const ms = parseIsoInstant(body.snoozedUntil);
      if (ms === null) throw unprocessable('snoozedUntil must be an ISO 8601 timestamp or null');
      snoozedUntil = new Date(ms);
    }
    if (isEventRule(body.kind) && body.repeatIntervalSeconds != null)
      throw unprocessable(
        `repeatIntervalSeconds must be null for a ${body.kind} rule: each of its news is notified as it comes, never reminded`,
      );
    const repeatIntervalSeconds = isEventRule(body.kind)
      ? null
      : body.repeatIntervalSeconds !== undefined
        ? body.repeatIntervalSeconds
        : existing && !isEventRule(existing.kind)
          ? existing.repeatIntervalSeconds
          : DEFAULT_REPEAT_INTERVAL_SECONDS;
    return {
      name,
      kind: body.kind,
      params,
      channelIds,
      enabled: body.enabled ?? true,
      cooldownSeconds: body.cooldownSeconds ?? 0,
      snoozedUntil,
      repeatIntervalSeconds,
    };
  }

  scope.get(
    '/api/alert-rules',
    {
      onRequest: reader,
      schema: schemaOf('Alert rules of the project with their state', {
        querystring: projectQuery,
        response: { 200: obj({ items: { type: 'array', items: ruleSchema } }) },
      }),
    },
    async (request) => ({
      items: (await listRules(services.meta, projectScopeOf(request).projectId)).map(toRuleAnswer),
    }),
  );

  scope.get(
    '/api/alert-rules/:id',
    {
      onRequest: reader,
      schema: schemaOf('One alert rule', {
        querystring: projectQuery,
        params: ID_PARAM,
        response: { 200: ruleSchema },
      }),
    },
    async (request) => {
      const rule = await findRule(services.meta, projectScopeOf(request).projectId, request.params.id.toLowerCase());
      if (!rule) throw notFound('no such alert rule in this project');
      return toRuleAnswer(rule);
    },
  );

  scope.post(
    '/api/alert-rules',
    {
      onRequest: writer,
      schema: schemaOf(
        `Create an alert rule (write role; at most ${MAX_RULES_PER_PROJECT} a project); evaluated once a minute`,
        { querystring: projectQuery, body: ruleBody, response: { 201: ruleSchema } },
      ),
    },
    async (request, reply) => {
      const input = await ruleInput(request, request.body);
      const projectId = projectScopeOf(request).projectId;
      const created = await services.meta.transaction(async (tx) =>
        // Event rules start after the latest activity: they alert on what happens next.
        insertRule(tx, projectId, {
          ...input,
          activityCursor: await latestActivityId(tx, projectId),
          now: new Date(services.now()),
          createdBy: principalOf(request).user.id,
        }),
      );
      if (!created)
        throw unprocessable(`a project holds at most ${MAX_RULES_PER_PROJECT} alert rules: delete one first`);
      return reply.code(201).send(toRuleAnswer(created));
    },
  );

  scope.put(
    '/api/alert-rules/:id',
    {
      onRequest: writer,
      schema: schemaOf('Replace an alert rule (write role); a changed kind or params start it over at ok', {
        querystring: projectQuery,
        params: ID_PARAM,
        body: ruleBody,
        response: { 200: ruleSchema },
      }),
    },
    async (request) => {
      const projectId = projectScopeOf(request).projectId;
      const id = request.params.id.toLowerCase();
      const existing = await findRule(services.meta, projectId, id);
      if (!existing) throw notFound('no such alert rule in this project');
      const input = await ruleInput(request, request.body, existing);
      const restart = existing.kind !== input.kind || JSON.stringify(existing.params) !== JSON.stringify(input.params);
      const updated = await updateRule(services.meta, projectId, id, {
        ...input,
        now: new Date(services.now()),
        restart,
      });
      if (!updated) throw notFound('no such alert rule in this project');
      return toRuleAnswer(updated);
    },
  );

  scope.delete(
    '/api/alert-rules/:id',
    {
      onRequest: writer,
      schema: schemaOf('Delete an alert rule (write role)', {
        querystring: projectQuery,
        params: ID_PARAM,
        response: { 200: obj({ deleted: bool }) },
      }),
    },
    async (request) => {
      if (!(await deleteRule(services.meta, projectScopeOf(request).projectId, request.params.id.toLowerCase())))
        throw notFound('no such alert rule in this project');
      return { deleted: true };
    },
  );

  scope.get(
    '/api/alert-events',
    {
      onRequest: reader,
      schema: schemaOf(
        "Delivery attempts of the project's alerts, newest first: rule, state, time, channel, outcome, response status",
        {
          querystring: {
            type: 'object',
            required: ['projectId'],
            properties: {
              projectId: projectQuery.properties.projectId,
              ruleId: { type: 'string', format: 'uuid' },
              // Event ids are bigint; past 2^53 - 1 a JavaScript number is not exact, and past 2^63 - 1 the store failed (500).
              beforeId: {
                type: 'integer',
                minimum: 1,
                maximum: Number.MAX_SAFE_INTEGER,
                description: 'the next page: events older than this id',
              },
              limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
            },
          },
          response: { 200: obj({ items: { type: 'array', items: eventSchema } }) },
        },
      ),
    },
    async (request) => {
      const events = await listEvents(services.meta, projectScopeOf(request).projectId, {
        ruleId: request.query.ruleId?.toLowerCase(),
        beforeId: request.query.beforeId,
        limit: request.query.limit ?? 100,
      });
      return {
        items: events.map((event) => ({
          id: event.id,
          at: event.at.toISOString(),
          ruleId: event.ruleId,
          ruleName: event.ruleName,
          channelId: event.channelId,
          channelName: event.channelName,
          state: event.state,
          notice: event.notice,
          attempt: event.attempt,
          outcome: event.outcome,
          responseStatus: event.responseStatus,
          error: event.error,
          action: event.action,
          actorId: event.actorId,
          actorName: event.actorName,
        })),
      };
    },
  );

  const actions: ReadonlyArray<{ action: RuleAction; summary: string }> = [
    {
      action: 'acknowledge',
      summary:
        'Acknowledge a firing rule (write role): "I\'m on it", shown with the rule; its channels are told ("Acknowledged by …") when its firing was notified and it is not snoozed, and its reminders stop; cleared when the rule resolves or fires anew, or when an event rule has news (notified as always). Recorded in the history',
    },
    {
      action: 'resolve',
      summary:
        'Resolve a firing rule by hand (write role), e.g. an event rule, which stays firing until then; its channels are told when its firing was. A threshold rule whose condition still holds fires anew at its next evaluation. Recorded in the history',
    },
  ];
  for (const { action, summary } of actions) {
    scope.post(
      `/api/alert-rules/:id/${action}`,
      {
        onRequest: writer,
        schema: schemaOf(summary, {
          querystring: projectQuery,
          params: ID_PARAM,
          response: { 200: ruleSchema, 409: conflict },
        }),
      },
      async (request) => {
        const { user } = principalOf(request);
        let rule: AlertRule | null;
        try {
          rule = await actOnRule(
            { meta: services.meta, now: services.now, publicUrl: services.config.publicUrl },
            projectScopeOf(request),
            request.params.id.toLowerCase(),
            action,
            { id: user.id, name: user.name.trim() || user.email },
          );
        } catch (error) {
          if (error instanceof RuleActionRefused) throw new HttpError(409, error.message);
          throw error;
        }
        if (!rule) throw notFound('no such alert rule in this project');
        return toRuleAnswer(rule);
      },
    );
  }
}
