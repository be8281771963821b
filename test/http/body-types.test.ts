/**
 * Request validation: a JSON body's values keep their types (a number where the schema wants a
 * string is a 400 naming the field, not stored as text), while query strings, which are text,
 * are still read as the schema's types.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';

describe('body values are not coerced; query strings are', () => {
  let service: TestService;
  let token: string;
  let projectId: string;

  beforeAll(async () => {
    service = await startTestService();
    const user = await registerUser(service.app);
    token = user.token;
    projectId = user.project.id;
  });
  afterAll(async () => service?.close());

  const rename = (payload: unknown) =>
    service.app.inject({
      method: 'PUT',
      url: `/api/projects?projectId=${projectId}`,
      headers: { authorization: `Bearer ${token}` },
      payload: payload as Record<string, unknown>,
    });

  it.each([
    ['a number', { name: 42 }],
    ['null', { name: null }],
    ['a boolean', { name: true }],
    ['an array', { name: ['Shop'] }],
  ])('refuses %s where a string is expected, naming the field, and changes nothing', async (_case, payload) => {
    const response = await rename(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/body\/name must be string/);
    const projects = await service.app.inject({ url: '/api/projects', headers: { authorization: `Bearer ${token}` } });
    expect(projects.json().projects[0].name).toBe('My first project');
  });

  it('takes the right type, and still drops a field it does not know', async () => {
    const response = await rename({ name: 'Shop', colour: 'teal' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Shop' });
    expect(response.json()).not.toHaveProperty('colour');
  });

  it('refuses a page number sent as text in a read API body', async () => {
    const list = (pagination: unknown) =>
      service.app.inject({
        method: 'POST',
        url: `/api/endpoints?projectId=${projectId}`,
        headers: { authorization: `Bearer ${token}` },
        payload: { pagination },
      });
    const text = await list({ page: '2', pageSize: 50 });
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toMatch(/pagination\/page must be integer/);
    const number = await list({ page: 2, pageSize: 50 });
    expect(number.statusCode).toBe(200);
    expect(number.json()).toMatchObject({ page: 2, pageSize: 50 });
  });

  it('reads query string values as the schema types them', async () => {
    const activity = (limit: string) =>
      service.app.inject({
        url: `/api/exception-stack-traces/0123456789abcdef/activity?projectId=${projectId}&limit=${limit}`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await activity('5')).statusCode).toBe(200);
    const wrong = await activity('five');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatch(/querystring\/limit must be integer/);
  });
});
