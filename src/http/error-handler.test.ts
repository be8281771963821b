import { describe, expect, it } from 'vitest';
import { WriteFailedError } from '../store/telemetry/writer.js';
import { toHttpError } from './error-handler.js';

describe('toHttpError: failed writes', () => {
  it('answers a store that did not take the rows with 503 and Retry-After: the client re-sends', () => {
    const error = toHttpError(new WriteFailedError('insert into spans failed', true));
    expect(error.statusCode).toBe(503);
    expect(error.headers).toEqual({ 'Retry-After': '5' });
  });

  it('answers a record its column types refuse with 500 and no Retry-After: a retry would send it again', () => {
    const error = toHttpError(
      new WriteFailedError('a spans record does not fit its columns', false, { cause: new RangeError('x') }),
    );
    expect(error.statusCode).toBe(500);
    expect(error.headers).toEqual({});
  });
});
