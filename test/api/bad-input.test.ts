/**
 * Bad input on every route of the application surface. Like the route inventory, the routes are
 * collected with an onRoute hook, so a route added later is probed without anyone listing it. Each
 * route is called as the owner of a project that exists (the probe reaches validation and the
 * handler, not the 401) with bad input derived from the route's own schema: a body that is not
 * JSON, not an object, empty or null; each required property missing; each property of the wrong
 * type, too long, out of range, off its enum, pattern or format, or not a date where the schema
 * says ISO 8601; path and query values of the wrong format; oversized arrays and deep nesting.
 * Every answer must be a 4xx (400–422) JSON `{error}` that names the offending field or says what
 * was wrong, and the service must still answer a good request after each route's probes.
 *
 * Not probed: unknown body properties, which are dropped, not refused, by design (docs/ARCHITECTURE.md,
 * "Validation": an older or newer client's extra field does no harm). The ingest routes' bodies
 * are fuzzed in test/ingest (report-fuzz, otlp/fuzz), their credentials in otlp/routes and cors;
 * here only what those leave out: a Content-Encoding that is unknown or lies, on every ingest route.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationSurface } from '../../src/api/surface.js';
import { ingestSurface } from '../../src/ingest/surface.js';
import { bearer, call } from '../support/access.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';

/** The JSON Schema keywords the route schemas use. */
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  description?: string;
}
interface RouteSchemas {
  body?: Schema;
  querystring?: Schema;
  params?: Schema;
}
interface Route {
  method: string;
  url: string;
  schema: RouteSchemas;
}

/**
 * Routes whose body is not a JSON document the probe can derive: the uploads are multipart files
 * (hostile-uploads.test.ts sends them hostile forms), and the payment webhook is a signed raw body
 * (billing.test.ts sends it bad, missing and stale signatures, and signed bodies of the wrong shape).
 */
const NOT_JSON_BODIES = new Set([
  'POST /api/symbols/upload',
  'POST /api/sourcemaps/upload',
  'POST /api/billing/stripe/webhook',
]);

/**
 * Routes that take a body without a schema and read their fields by hand (the OAuth endpoints
 * answer RFC 6749 `invalid_request`), with the fields each reads: the probe sends those of the wrong type.
 */
const HAND_READ_BODIES = new Map<string, Record<string, string>>([
  ['POST /api/auth/device/authorize', { client_id: 'sightline-cli' }],
  ['POST /api/auth/device/token', { grant_type: 'device_code', device_code: 'tpd_unknown' }],
  ['POST /api/auth/device/token (refresh)', { grant_type: 'refresh_token', refresh_token: 'tpr_unknown' }],
  ['POST /api/auth/logout', { refresh_token: 'tpr_unknown' }],
]);

/** A string the schema's text constraints accept. */
function validString(schema: Schema, name: string): string {
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'date-time' || isDate(schema)) return new Date().toISOString();
  const candidates = ['0123456789abcdef', '0'.repeat(32), 'probe@example.com', `probe ${name}`, 'x'];
  const fits = (text: string) =>
    (schema.pattern === undefined || new RegExp(schema.pattern).test(text)) &&
    text.length >= (schema.minLength ?? 0) &&
    text.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY);
  const found = candidates.find(fits);
  if (found === undefined) throw new Error(`no valid string for ${name}: ${JSON.stringify(schema)}`);
  return found;
}

/** A date by its description: the route schemas keep ISO 8601 instants as strings the handlers parse. */
const isDate = (schema: Schema) => /ISO 8601/.test(schema.description ?? '');

const typesOf = (schema: Schema): string[] =>
  schema.type === undefined ? [] : [schema.type].flat().filter((type) => type !== 'null');

function validValue(schema: Schema, name: string): unknown {
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return validValue(schema.anyOf[0]!, name);
  switch (typesOf(schema)[0]) {
    case 'string':
      return validString(schema, name);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, (_, i) =>
        schema.uniqueItems && schema.items?.format === 'uuid'
          ? randomUUID()
          : validValue(schema.items ?? {}, `${name}[${i}]`),
      );
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, validValue(schema.properties?.[key] ?? {}, key)]),
      );
    default:
      return 'x';
  }
}

/** A value of every other JSON type than the schema's. */
function wrongTypes(schema: Schema): unknown[] {
  if (schema.anyOf || typesOf(schema).length === 0) return [];
  const types = typesOf(schema);
  const samples: Array<[string, unknown]> = [
    ['string', 'not-a-number'],
    ['number', 12345],
    ['boolean', true],
    ['array', ['x']],
    ['object', { nested: 'x' }],
  ];
  const nullable = [schema.type].flat().includes('null');
  return [
    ...samples
      .filter(([type]) => !types.includes(type) && !(type === 'number' && types.includes('integer')))
      .map(([, value]) => value),
    ...(nullable ? [] : [null]),
  ];
}

interface BadValue {
  label: string;
  value: unknown;
  /** In the schema, but extreme: the route may answer it (2xx), never fail on it. */
  extreme?: boolean;
}

/** Values that break one constraint of the schema each (besides its type). */
function brokenConstraints(schema: Schema): BadValue[] {
  const bad: BadValue[] = [];
  if (schema.enum) bad.push({ label: 'off the enum', value: 'not-in-the-enum' });
  if (schema.maxLength !== undefined)
    bad.push({ label: `over maxLength ${schema.maxLength}`, value: 'x'.repeat(schema.maxLength + 1) });
  if ((schema.minLength ?? 0) > 0) bad.push({ label: 'empty string', value: '' });
  if (schema.pattern) bad.push({ label: 'off the pattern', value: '!not matching!' });
  if (schema.format === 'uuid') bad.push({ label: 'not a UUID', value: 'not-a-uuid' });
  if (schema.format === 'date-time' || isDate(schema))
    bad.push(
      { label: 'not a date', value: 'not-a-date' },
      { label: 'an impossible date', value: '2024-02-30T10:00:00Z' },
    );
  if (schema.minimum !== undefined) bad.push({ label: `under minimum ${schema.minimum}`, value: schema.minimum - 1 });
  if (schema.exclusiveMinimum !== undefined)
    bad.push({ label: `at exclusiveMinimum ${schema.exclusiveMinimum}`, value: schema.exclusiveMinimum });
  if (schema.maximum !== undefined) bad.push({ label: `over maximum ${schema.maximum}`, value: schema.maximum + 1 });
  if (typesOf(schema).includes('integer')) bad.push({ label: 'a fraction', value: 1.5 });
  if (schema.maximum === undefined && typesOf(schema).some((type) => type === 'integer' || type === 'number'))
    bad.push(
      { label: 'at 2^53 - 1', value: Number.MAX_SAFE_INTEGER, extreme: true },
      { label: 'at 1e300', value: 1e300, extreme: true },
    );
  if (typesOf(schema).includes('array')) {
    const item = validValue(schema.items ?? {}, 'item');
    if (schema.maxItems !== undefined)
      bad.push({
        label: `over maxItems ${schema.maxItems}`,
        value: Array.from({ length: schema.maxItems + 1 }, () => item),
      });
    else bad.push({ label: '100k items', value: Array.from({ length: 100_000 }, () => item) });
    if ((schema.minItems ?? 0) > 0) bad.push({ label: 'empty array', value: [] });
    if (schema.uniqueItems) bad.push({ label: 'duplicate items', value: [item, item] });
  }
  return bad;
}

/**
 * 10,000 levels of nesting, far within the body limit: too deep for JSON.stringify here, so the
 * probe places a marker and the serialized body gets the nesting as text.
 */
const DEEP = '\u0000deep';
const DEEP_TEXT = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
const serialize = (body: object | null) => JSON.stringify(body).replace(JSON.stringify(DEEP), DEEP_TEXT);

interface Probe {
  label: string;
  /** The field the answer must name (a leaf of the path), or a pattern for the whole body. */
  names: string | RegExp;
  body?: string | object | null;
  /** Sent as the raw body with this content type instead of JSON (null: no Content-Type). */
  contentType?: string | null;
  query?: Record<string, string | string[]>;
  params?: Record<string, string>;
  /** The status the spec names, where it names one; otherwise any of 400–422. */
  status?: number;
  /** An extreme value the schema allows: a 2xx is right too, a 5xx never. */
  mayPass?: boolean;
}

/** Bad values of one property, with its path; recurses into objects and array items. */
function propertyProbes(schema: Schema, path: string[], place: (value: unknown) => object): Probe[] {
  const name = path.at(-1)!;
  const probes: Probe[] = [];
  for (const value of wrongTypes(schema))
    probes.push({ label: `${path.join('.')} as ${JSON.stringify(value)}`, names: name, body: place(value) });
  for (const { label, value, extreme } of brokenConstraints(schema))
    probes.push({ label: `${path.join('.')} ${label}`, names: name, body: place(value), mayPass: extreme });
  if (typesOf(schema).includes('object') && schema.properties) {
    const valid = validValue(schema, name) as Record<string, unknown>;
    probes.push(...objectProbes(schema, path, (inner) => place(inner), valid));
  }
  if (typesOf(schema).includes('array') && schema.items && typesOf(schema.items).length > 0) {
    const itemPath = [...path.slice(0, -1), `${name}`];
    for (const probe of propertyProbes(schema.items, itemPath, (item) => place([item])))
      probes.push({ ...probe, label: `${probe.label} (as an item)` });
  }
  if (typesOf(schema).includes('object') && schema.additionalProperties !== false && !schema.properties)
    probes.push({ label: `${path.join('.')} nested 10,000 deep`, names: name, body: place(DEEP) });
  return probes;
}

/** Missing required properties and bad values of each property of an object schema. */
function objectProbes(
  schema: Schema,
  path: string[],
  place: (value: object) => object,
  valid: Record<string, unknown>,
): Probe[] {
  const probes: Probe[] = [];
  for (const key of schema.required ?? []) {
    const { [key]: _missing, ...rest } = valid;
    probes.push({ label: `${[...path, key].join('.')} missing`, names: key, body: place(rest) });
  }
  for (const [key, property] of Object.entries(schema.properties ?? {}))
    probes.push(...propertyProbes(property, [...path, key], (value) => place({ ...valid, [key]: value })));
  return probes;
}

/** What a refusal of the whole body says: what the body must be, or the first thing it lacks. */
const WHOLE_BODY = /body|JSON|object|required/i;

function bodyProbes(schema: Schema | undefined): Probe[] {
  const probes: Probe[] = [
    { label: 'a body that is not JSON', names: /JSON/, body: '{"unterminated' },
    { label: 'JSON null', names: WHOLE_BODY, body: 'null' },
    { label: 'a JSON array', names: WHOLE_BODY, body: '[1,2]' },
    { label: 'a JSON string', names: WHOLE_BODY, body: '"text"' },
    { label: 'a JSON number', names: WHOLE_BODY, body: '42' },
    { label: 'a text body', names: /Content-Type/, body: 'a=1', contentType: 'text/plain' },
    { label: 'a body without Content-Type', names: /Content-Type/, body: '{}', contentType: null },
  ];
  if (schema === undefined) return probes;
  if ((schema.required ?? []).length > 0) probes.push({ label: 'an empty body', names: WHOLE_BODY, body: '' });
  const valid = validValue(schema, 'body') as Record<string, unknown>;
  probes.push(...objectProbes(schema, [], (value) => value, valid));
  return probes;
}

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/**
 * Past the schema: a range of well-formed dates the read API does not answer, reversed or longer
 * than 31 days, is a validation failure (422), wherever a route takes fromDate and toDate.
 */
function rangeProbes(route: Route): Probe[] {
  const inBody = route.schema.body?.properties?.fromDate && route.schema.body.properties.toDate;
  const inQuery = route.schema.querystring?.properties?.fromDate && route.schema.querystring.properties.toDate;
  if (!inBody && !inQuery) return [];
  const ranges = [
    { label: 'a reversed range', names: 'toDate must be after fromDate', fromDate: ago(HOUR), toDate: ago(2 * HOUR) },
    { label: 'a range of 32 days', names: '31 days', fromDate: ago(32 * 24 * HOUR), toDate: ago(0) },
  ];
  return ranges.map(({ label, names, fromDate, toDate }) =>
    inBody
      ? { label, names, status: 422, body: { ...(validValue(route.schema.body!, 'body') as object), fromDate, toDate } }
      : { label, names, status: 422, query: { fromDate, toDate } },
  );
}

/** Rules the spec names for one route (Errors, "Specific cases"). */
const SPEC_RULES = new Map<string, Probe[]>([
  [
    'POST /api/logs',
    [
      {
        label: 'free-text search over 48 hours without another selector',
        names: '24 hours',
        status: 422,
        body: { search: 'timeout', fromDate: ago(48 * HOUR), toDate: ago(0), pagination: { page: 1, pageSize: 10 } },
      },
    ],
  ],
]);

function queryProbes(schema: Schema | undefined): Probe[] {
  const probes: Probe[] = [];
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    const numeric = typesOf(property).some((type) => type === 'integer' || type === 'number');
    const bad: BadValue[] = [
      ...brokenConstraints(property).filter(({ value }) => typeof value !== 'object'),
      ...(numeric ? [{ label: 'not a number', value: 'abc' }] : []),
      ...(numeric && property.maximum === undefined
        ? [{ label: 'of 23 digits', value: '9'.repeat(23), extreme: true }]
        : []),
    ];
    for (const { label, value, extreme } of bad)
      probes.push({ label: `?${key} ${label}`, names: key, query: { [key]: String(value) }, mayPass: extreme });
    probes.push({ label: `?${key} given twice`, names: key, query: { [key]: ['a', 'b'] } });
    if (schema?.required?.includes(key)) probes.push({ label: `?${key} missing`, names: key, query: { [key]: [] } });
  }
  return probes;
}

function paramProbes(schema: Schema | undefined): Probe[] {
  return Object.entries(schema?.properties ?? {}).flatMap(([key, property]) =>
    [
      ...brokenConstraints(property).filter(({ value }) => typeof value === 'string'),
      { label: 'not a UUID', value: 'not-a-uuid' },
    ]
      .map((bad): Probe => ({ label: `:${key} ${bad.label}`, names: key, params: { [key]: String(bad.value) } }))
      .concat(
        // The router refuses these before the route: the answer cannot name the parameter. A 400,
        // never the 404 of a GET the dashboard's catch-all route took: the id was merely long.
        {
          label: `:${key} percent-encoded garbage`,
          names: 'not a valid URL',
          status: 400,
          params: { [key]: '%00%ff' },
        },
        {
          label: `:${key} of 200 characters`,
          names: 'longer than 100',
          status: 400,
          params: { [key]: 'x'.repeat(200) },
        },
      ),
  );
}

const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';
const keyOf = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

describe('bad input on every route of the application surface', () => {
  let service: TestService;
  const routes: Route[] = [];
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let connection: Record<string, string>;
  let addressCounter = 0;

  beforeAll(async () => {
    service = await startTestService();
    const inventory = Fastify();
    inventory.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        if (method !== 'HEAD') routes.push({ method, url: route.url, schema: (route.schema ?? {}) as RouteSchemas });
    });
    await inventory.register(async (scope) => applicationSurface(scope, service.services));
    await inventory.ready();
    await inventory.close();
    owner = await registerUser(service.app);
    connection = (
      await call(service.app, {
        method: 'GET',
        url: `/api/projects/connection?projectId=${owner.project.id}`,
        headers: bearer(owner.token),
      })
    ).body as Record<string, string>;
  });
  afterAll(async () => service?.close());

  /** The route's good request with one bad part, as the owner (upload routes: their own token). */
  function send(route: Route, probe: Probe) {
    const goodParams: Record<string, string> = {
      organizationId: owner.organization.id,
      userId: owner.user.id,
      hash: '0123456789abcdef',
    };
    const paramSchemas = route.schema.params?.properties ?? {};
    // A parameter the schema bounds gets a value it accepts (an OAuth provider); any other an unknown id.
    const goodParam = (name: string) =>
      goodParams[name] ??
      (paramSchemas[name]?.maxLength !== undefined ? String(validValue(paramSchemas[name], name)) : randomUUID());
    const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) =>
      encodeURIComponentUnlessRaw(probe.params?.[name] ?? goodParam(name)),
    );
    const query = new URLSearchParams();
    const goodQuery: Record<string, string> = { projectId: owner.project.id, organizationId: owner.organization.id };
    for (const key of Object.keys(route.schema.querystring?.properties ?? {})) {
      const value = probe.query?.[key] ?? goodQuery[key];
      for (const item of [value ?? []].flat()) query.append(key, item);
    }
    const queryText = query.toString();
    const authorization = route.url.startsWith('/api/symbols/')
      ? connection.uploadToken
      : route.url.startsWith('/api/sourcemaps/')
        ? connection.sourceMapToken
        : owner.token;
    const body =
      probe.body === undefined
        ? hasBody(route.method) && route.schema.body
          ? validValue(route.schema.body, 'body')
          : undefined
        : probe.body;
    return call(service.app, {
      method: route.method as 'GET',
      url: `${path}${queryText ? `?${queryText}` : ''}`,
      remoteAddress: `10.200.${(++addressCounter >> 8) & 255}.${addressCounter & 255}`,
      headers: {
        ...bearer(authorization!),
        ...(body === undefined || probe.contentType === null
          ? {}
          : { 'content-type': probe.contentType ?? 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : serialize(body as object) }),
    });
  }

  function probesOf(route: Route): Probe[] {
    const key = keyOf(route);
    const probes = [
      ...paramProbes(route.schema.params),
      ...queryProbes(route.schema.querystring),
      ...rangeProbes(route),
      ...(SPEC_RULES.get(key) ?? []),
    ];
    if (NOT_JSON_BODIES.has(key)) return probes;
    const handRead = [...HAND_READ_BODIES].filter(([name]) => name.split(' (')[0] === key).map(([, body]) => body);
    if (handRead.length > 0)
      return [
        ...probes,
        ...bodyProbes(undefined),
        ...handRead.flatMap((valid) =>
          Object.keys(valid).flatMap((field) =>
            wrongTypes({ type: 'string' }).map((value) => ({
              label: `${field} as ${JSON.stringify(value)}`,
              names: field,
              body: { ...valid, [field]: value },
            })),
          ),
        ),
      ];
    if (route.schema.body) probes.push(...bodyProbes(route.schema.body));
    return probes;
  }

  it('collects the routes, with a schema-derived probe for most', () => {
    expect(routes.length).toBeGreaterThan(80);
    const keys = new Set(routes.map(keyOf));
    for (const key of [...NOT_JSON_BODIES, ...HAND_READ_BODIES.keys(), ...SPEC_RULES.keys()])
      expect(keys.has(key.split(' (')[0]!), key).toBe(true);
    expect(routes.filter((route) => probesOf(route).length > 0).length).toBeGreaterThan(60);
  });

  it('answers every bad input with a 4xx JSON error naming what was wrong, and keeps answering', async () => {
    const failures: string[] = [];
    let probed = 0;
    for (const route of routes) {
      for (const probe of probesOf(route)) {
        probed++;
        const response = await send(route, probe);
        const where = `${keyOf(route)} with ${probe.label}: ${response.status} ${response.raw.slice(0, 300)}`;
        if (probe.mayPass && response.status >= 200 && response.status < 300) continue;
        if (
          probe.status === undefined ? response.status < 400 || response.status > 422 : response.status !== probe.status
        ) {
          failures.push(where);
          continue;
        }
        if (!String(response.headers['content-type']).startsWith('application/json')) {
          failures.push(`${where} (not JSON)`);
          continue;
        }
        const message = `${response.body?.error ?? ''} ${response.body?.error_description ?? ''}`;
        const named = typeof probe.names === 'string' ? message.includes(probe.names) : probe.names.test(message);
        // A refusal before validation (403, 404) says why in its own words.
        if (!named && response.status !== 403 && response.status !== 404) failures.push(`${where} (does not say what)`);
      }
      const good = await call(service.app, { method: 'GET', url: '/api/me', headers: bearer(owner.token) });
      if (good.status !== 200) failures.push(`after ${keyOf(route)}: GET /api/me ${good.status}`);
    }
    expect(probed).toBeGreaterThan(500);
    expect(failures).toEqual([]);
    // About 2,000 requests one after another: ~20 s alone, past the suite's 60 s on a loaded machine.
  }, 240_000);

  it('answers an ingest route an unknown encoding, or a body not what its encoding says, with a JSON 400 saying so', async () => {
    const ingestRoutes: string[] = [];
    const inventory = Fastify();
    inventory.addHook('onRoute', (route) => {
      if ([route.method].flat().includes('POST')) ingestRoutes.push(route.url);
    });
    await inventory.register(async (scope) => ingestSurface(scope, service.services));
    await inventory.ready();
    await inventory.close();
    expect(ingestRoutes).toContain('/api/report');
    expect(ingestRoutes.length).toBeGreaterThan(3);
    const failures: string[] = [];
    for (const url of ingestRoutes)
      for (const [encoding, says] of [
        ['zstd', 'unsupported Content-Encoding "zstd"'],
        ['gzip, br', 'unsupported Content-Encoding'],
        ['gzip', 'not valid gzip'],
        ['deflate', 'not valid deflate'],
        ['br', 'not valid br'],
      ] as const) {
        const response = await call(service.app, {
          method: 'POST',
          url,
          headers: { ...bearer(owner.project.token), 'content-type': 'application/json', 'content-encoding': encoding },
          payload: '{}',
        });
        if (response.status !== 400 || !String(response.body?.error).includes(says))
          failures.push(`${url} with Content-Encoding ${encoding}: ${response.status} ${response.raw}`);
      }
    expect(failures).toEqual([]);
  });
});

/** A param value as it goes in the path: percent escapes in the probe stay as they are. */
function encodeURIComponentUnlessRaw(value: string): string {
  return value.includes('%') ? value : encodeURIComponent(value);
}
