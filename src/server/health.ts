/**
 * Liveness (`/health`: the process answers) and readiness (`/ready`: every engine answers).
 */
import type { FastifyInstance } from 'fastify';

export interface Pingable {
  readonly engine: string;
  ping(): Promise<void>;
}

export function healthRoutes(app: FastifyInstance, stores: Record<string, Pingable>): void {
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const checks = await Promise.all(
      Object.entries(stores).map(async ([name, store]) => {
        try {
          await store.ping();
          return [name, { engine: store.engine, ok: true }] as const;
        } catch (error) {
          return [name, { engine: store.engine, ok: false, error: (error as Error).message }] as const;
        }
      }),
    );
    const ready = checks.every(([, check]) => check.ok);
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'unavailable', stores: Object.fromEntries(checks) });
  });
}
