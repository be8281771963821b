/**
 * A refused body past the discard bound, sent through fastify.inject(): the service closes the
 * connection after its answer (body.ts closeLingering), and an injected request has none, only a
 * stand-in socket without end() or destroy(). Calling them threw from an event handler: an
 * uncaught exception (seen in a loaded CI run, where the 5 s discard timer fired mid-test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCARD_BOUNDS } from '../../src/http/body.js';
import { startTestService, type TestService } from '../support/service.js';

describe('a refused body past the bound, injected', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service?.close());

  it('is answered 401 and throws nothing once the answer is sent', async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const response = await service.app.inject({
        method: 'POST',
        url: '/api/report',
        headers: { authorization: 'Bearer not-a-project-token', 'content-type': 'application/json' },
        payload: Buffer.alloc(DISCARD_BOUNDS.bytes + 1024 * 1024, 0x20),
      });
      expect(response.statusCode).toBe(401);
      // The close runs once the answer's 'finish' has been emitted: let those handlers run.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('uncaughtException', record);
    }
    expect(uncaught.map(String)).toEqual([]);
  });
});
