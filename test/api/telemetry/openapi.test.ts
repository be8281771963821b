/**
 * GET /api/openapi.json is an OpenAPI 3.1 document listing every route the service registers
 * (both surfaces, on one listener and with INGEST_PORT splitting ingest off), and /api/docs
 * serves the browsable reference from the npm package's assets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/service.js';

type Document = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, { responses?: unknown }>>;
};

/** (method, path) of every route, read from Fastify's route tree. */
function registeredRoutes(service: TestService): Array<{ method: string; path: string }> {
  const tree = service.app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: Array<{ method: string; path: string }> = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (stack[depth - 1] ?? '') + match[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[3] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean))
      routes.push({ method, path });
  }
  // OPTIONS routes stay in: the ingest paths' CORS preflights are part of the interface (the
  // cors plugin's own catch-all, a wildcard, is not).
  return routes.filter(
    (route) =>
      route.method !== 'HEAD' &&
      !route.path.includes('*') &&
      !route.path.startsWith('/api/docs') &&
      route.path !== '/api/openapi.json',
  );
}

async function documentOf(service: TestService): Promise<Document> {
  const response = await service.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  return response.json() as Document;
}

describe('OpenAPI document', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('is OpenAPI 3.1 and lists every registered route with its method', async () => {
    const document = await documentOf(service);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Sightline API');
    const routes = registeredRoutes(service);
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter(
      (route) => !document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()],
    );
    expect(missing).toEqual([]);
    for (const path of [
      '/api/logs',
      '/api/endpoints',
      '/api/report',
      '/api/otel/v1/traces',
      '/api/auth/login',
      '/api/distributed-traces/{id}',
    ])
      expect(document.paths[path]).toBeDefined();
    for (const path of ['/api/report', '/api/otel/v1/traces', '/api/otel/v1/metrics', '/api/otel/v1/logs'])
      expect(Object.keys(document.paths[path]!).sort()).toEqual(['options', 'post']);
  });

  it('describes the read routes from their schemas (body, pagination bounds, responses)', async () => {
    const document = await documentOf(service);
    const logs = document.paths['/api/logs']!.post as unknown as {
      requestBody: {
        content: {
          'application/json': {
            schema: {
              required: string[];
              properties: { pagination: { properties: { pageSize: { maximum: number } } } };
            };
          };
        };
      };
      responses: Record<string, unknown>;
      parameters: Array<{ name: string; in: string }>;
    };
    const schema = logs.requestBody.content['application/json'].schema;
    expect(schema.required).toContain('pagination');
    expect(schema.properties.pagination.properties.pageSize.maximum).toBe(500);
    expect(Object.keys(logs.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '422']));
    expect(logs.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'projectId', in: 'query' })]),
    );
  });

  it('files every operation under a tag, so the reference is browsable by resource', async () => {
    const document = (await service.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const untagged = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => !operation.tags?.length)
        .map(([method]) => `${method} ${path}`),
    );
    expect(untagged).toEqual([]);
    expect(document.paths['/api/report']?.post?.tags).toEqual(['Ingest']);
    expect(document.paths['/api/projects']?.get?.tags).toEqual(['Projects']);
  });

  it('serves the browsable reference at /api/docs from local assets', async () => {
    const page = await service.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Swagger UI');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
    const bundle = await service.app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
  });
});

describe('OpenAPI document with ingest on its own listener', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ PORT: '18080', INGEST_PORT: '18081' });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('still lists the ingest routes', async () => {
    const document = await documentOf(service);
    expect((await service.app.inject({ method: 'POST', url: '/api/report' })).statusCode).toBe(404);
    for (const path of ['/api/report', '/api/otel/v1/traces', '/api/otel/v1/logs', '/api/logs'])
      expect(document.paths[path], path).toBeDefined();
  });
});
