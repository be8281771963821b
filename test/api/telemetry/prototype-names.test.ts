/**
 * Caller-supplied names (filter fields, map prefixes, orderBy, aggregation) are looked up as own
 * properties of the allow-lists: a name inherited from Object.prototype is unknown (400 naming
 * it), never a 500. As map keys and group-by dimensions the same names are ordinary keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../../support/service.js';

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

/** Every read route that takes filters, with the smallest body it accepts. */
const FILTERED_ROUTES: Array<{ url: string; body: Record<string, unknown> }> = [
  { url: '/api/endpoints', body: {} },
  { url: '/api/endpoints/grouped', body: {} },
  { url: '/api/tasks', body: {} },
  { url: '/api/ai-traces', body: {} },
  { url: '/api/exception-stack-traces', body: {} },
  { url: '/api/exception-stack-traces/0123456789abcdef', body: {} },
  { url: '/api/logs', body: { pagination: { page: 1, pageSize: 10 } } },
  { url: '/api/sessions', body: {} },
  { url: '/api/metrics/query', body: { name: 'mem.used' } },
];

describe('names inherited from Object.prototype', () => {
  let service: TestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    service = await startTestService();
    owner = await registerUser(service.app);
  });
  afterAll(async () => {
    await service?.close();
  });

  const post = (url: string, payload: Record<string, unknown>) =>
    service.app.inject({
      method: 'POST',
      url: `${url}${url.includes('?') ? '&' : '?'}projectId=${owner.project.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload,
    });

  for (const route of FILTERED_ROUTES) {
    it(`${route.url}: a filter field or map prefix named after a prototype member is a 400 naming it`, async () => {
      for (const name of PROTOTYPE_NAMES) {
        for (const field of [name, `${name}.key`]) {
          for (const op of ['eq', 'contains', 'gt']) {
            const response = await post(route.url, { ...route.body, filters: [{ field, op, value: '1' }] });
            expect(response.statusCode, `${field} ${op}: ${response.body}`).toBe(400);
            expect(response.json().error).toContain(`"${field}" is not filterable here`);
          }
        }
      }
    });

    it(`${route.url}: prototype names are ordinary keys of a map column`, async () => {
      const prefix = route.url === '/api/metrics/query' ? 'dimensions' : 'attributes';
      for (const name of PROTOTYPE_NAMES) {
        const response = await post(route.url, {
          ...route.body,
          filters: [{ field: `${prefix}.${name}`, op: 'eq', value: 'x' }],
        });
        expect(response.statusCode, `${prefix}.${name}: ${response.body}`).toBe(200);
      }
    });
  }

  it('orderBy and aggregation named after a prototype member are a 400 naming the field', async () => {
    for (const name of PROTOTYPE_NAMES) {
      for (const route of FILTERED_ROUTES.filter((r) => r.url !== '/api/metrics/query')) {
        const response = await post(route.url, { ...route.body, orderBy: name });
        expect(response.statusCode, `${route.url} orderBy ${name}: ${response.body}`).toBe(400);
        expect(response.json().error).toMatch(/orderBy/);
      }
      const aggregated = await post('/api/metrics/query', { name: 'mem.used', aggregation: name });
      expect(aggregated.statusCode, aggregated.body).toBe(400);
      expect(aggregated.json().error).toMatch(/aggregation/);
    }
  });

  it('a metric grouped by a dimension named after a prototype member answers 200', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const response = await post('/api/metrics/query', { name: 'mem.used', groupBy: [name] });
      expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
      expect(response.json().series).toEqual([]);
    }
  });
});
