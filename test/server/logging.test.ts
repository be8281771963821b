/**
 * One structured logger per process (services.log, pino): both listeners log through it, every line
 * of a request carries that request's reqId, and failures of work no request owns (here a
 * coordination-store subscriber) are lines of the same logger, never process warnings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startTestService, type TestService } from '../support/service.js';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  channel?: string;
  err?: { message: string };
  [key: string]: unknown;
}

describe('logging', () => {
  const lines: Line[] = [];
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  let service: TestService;

  beforeAll(async () => {
    process.on('warning', onWarning);
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
    service = await startTestService({}, { log });
  });

  afterAll(async () => {
    process.off('warning', onWarning);
    await service?.close();
  });

  it('hands the process logger to the listeners: a request line carries its own reqId', async () => {
    for (let i = 0; i < 2; i++)
      expect((await service.app.inject({ method: 'GET', url: '/api/projects' })).statusCode).toBe(401);
    const refused = lines.filter((line) => line.msg === 'request refused');
    expect(refused).toHaveLength(2);
    for (const line of refused) expect(line.reqId).toEqual(expect.any(String));
    expect(refused[0]!.reqId).not.toBe(refused[1]!.reqId);
  });

  it('logs a failing coordination-store subscriber with its channel, not as a process warning', async () => {
    const unsubscribe = await service.services.coord.subscribe('logging-test', () => {
      throw new Error('subscriber broke');
    });
    await service.services.coord.publish('logging-test', 'x');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await unsubscribe();
    const line = lines.find((candidate) => candidate.msg === 'a coordination-store subscriber failed');
    expect(line).toMatchObject({ level: 50, channel: 'logging-test', err: { message: 'subscriber broke' } });
    expect(warnings).toEqual([]);
  });
});
