import { describe, expect, it } from 'vitest';
import { HttpError } from './errors.js';
import { AdmissionGate } from './admission.js';

describe('admission gate', () => {
  it('admits up to the bound, then hands a released slot to the next waiter', async () => {
    const gate = new AdmissionGate({ maxConcurrency: 2, queueWaitMs: 5_000 });
    const first = await gate.acquire();
    await gate.acquire();
    let thirdAdmitted = false;
    const third = gate.acquire().then((release) => {
      thirdAdmitted = true;
      return release;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdAdmitted).toBe(false);
    first();
    first(); // releasing twice frees one slot only
    (await third)();
    expect(gate.inFlight).toBe(1);
  });

  it('refuses with 503 and Retry-After when no slot frees in time', async () => {
    const gate = new AdmissionGate({ maxConcurrency: 1, queueWaitMs: 20 });
    await gate.acquire();
    const error = await gate.acquire().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(503);
    expect((error as HttpError).headers['Retry-After']).toBe('1');
  });

  it('refuses at once when the waiting line is full', async () => {
    const gate = new AdmissionGate({ maxConcurrency: 1, queueWaitMs: 60_000, maxWaiting: 1 });
    const release = await gate.acquire();
    const waiting = gate.acquire();
    await expect(gate.acquire()).rejects.toMatchObject({ statusCode: 503 });
    release();
    (await waiting)();
    expect(gate.inFlight).toBe(0);
  });
});
