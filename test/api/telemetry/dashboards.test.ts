/**
 * Saved dashboards' bounds: a definition nested deeper than the limit is a 422 naming it (and
 * never reaches JSON serialization or the store), and a project holds at most 500 dashboards,
 * also when creations race.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DASHBOARDS_PER_PROJECT } from '../../../src/store/meta/repositories/dashboards.js';
import { MAX_DEFINITION_DEPTH } from '../../../src/api/telemetry/dashboards.js';
import { registerUser, startTestService, type TestService } from '../../support/service.js';

/** `{"a":{"a":...{}}}` with `levels` objects in all (the outermost included). */
function nestedObject(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
}

describe('saved dashboard bounds', () => {
  let service: TestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    service = await startTestService();
    owner = await registerUser(service.app);
  });
  afterAll(async () => {
    await service?.close();
  });

  const send = (method: 'POST' | 'PUT', url: string, payload: string) =>
    service.app.inject({
      method,
      url: `${url}?projectId=${owner.project.id}`,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      payload,
    });
  const countDashboards = async () =>
    (
      await service.services.meta.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM dashboards WHERE project_id = $1',
        [owner.project.id],
      )
    )[0]!.n;

  it(`refuses a definition nested deeper than ${MAX_DEFINITION_DEPTH} levels with 422, on create and update`, async () => {
    const created = await send(
      'POST',
      '/api/dashboards',
      JSON.stringify({ name: 'deep', definition: JSON.parse(nestedObject(MAX_DEFINITION_DEPTH)) }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect(created.json().definition).toEqual(JSON.parse(nestedObject(MAX_DEFINITION_DEPTH)));

    const tooDeep = [
      nestedObject(10_000),
      nestedObject(MAX_DEFINITION_DEPTH + 1),
      nestedObject(200_000),
      `{"panels":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    ];
    for (const definition of tooDeep) {
      for (const [method, url] of [
        ['POST', '/api/dashboards'],
        ['PUT', `/api/dashboards/${id}`],
      ] as const) {
        const response = await send(method, url, `{"name":"too deep","definition":${definition}}`);
        expect(response.statusCode, `${method} ${definition.length}: ${response.body.slice(0, 200)}`).toBe(422);
        expect(response.json()).toEqual({ error: `definition is nested deeper than ${MAX_DEFINITION_DEPTH} levels` });
      }
    }
    expect(await countDashboards()).toBe(1);
    const kept = await service.app.inject({
      method: 'GET',
      url: `/api/dashboards/${id}?projectId=${owner.project.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(kept.json().name).toBe('deep');
  });

  it(`holds at most ${MAX_DASHBOARDS_PER_PROJECT} dashboards per project, also under concurrent creations`, async () => {
    // Rows up to two below the cap straight into the store, rather than hundreds of HTTP calls.
    await service.services.meta.query(
      `INSERT INTO dashboards (project_id, name) SELECT $1, 'seeded ' || g FROM generate_series(1, $2::int - (SELECT count(*)::int FROM dashboards WHERE project_id = $1)) AS g`,
      [owner.project.id, MAX_DASHBOARDS_PER_PROJECT - 2],
    );
    expect(await countDashboards()).toBe(MAX_DASHBOARDS_PER_PROJECT - 2);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => send('POST', '/api/dashboards', JSON.stringify({ name: `racing ${i}` }))),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 422, 422, 422]);
    for (const refused of answers.filter((answer) => answer.statusCode === 422)) {
      expect(refused.json()).toEqual({
        error: `a project holds at most ${MAX_DASHBOARDS_PER_PROJECT} dashboards: delete one first`,
      });
    }
    expect(await countDashboards()).toBe(MAX_DASHBOARDS_PER_PROJECT);
    const listed = await service.app.inject({
      method: 'GET',
      url: `/api/dashboards?projectId=${owner.project.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(listed.json().dashboards).toHaveLength(MAX_DASHBOARDS_PER_PROJECT);
  });
});
