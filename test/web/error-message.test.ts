/**
 * What the dashboard says when a call fails (web/src/lib/error-message.ts): the server's message
 * wins; a gateway status without one (the service down behind a proxy or the dev server) says so.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage } from '../../web/src/lib/error-message.js';

describe('errorMessage', () => {
  it("shows the server's own message whatever the status", () => {
    expect(errorMessage(422, { error: 'Narrow the time range to 31 days or less' })).toBe(
      'Narrow the time range to 31 days or less',
    );
    expect(errorMessage(503, { error: 'The telemetry store is not ready' })).toBe('The telemetry store is not ready');
  });

  it('says the service cannot be reached for a gateway status without a message', () => {
    for (const status of [502, 503, 504]) expect(errorMessage(status, undefined)).toMatch(/cannot be reached/);
    expect(errorMessage(500, undefined)).toBe('The service had a problem; try again shortly.');
    expect(errorMessage(418, undefined)).toBe('The request failed (418).');
  });

  describe('behind a proxy whose upstream is down', () => {
    // The shape of what nginx or Vite's proxy answers then: a 502 whose body is not Sightline's JSON.
    let proxy: http.Server;
    let url: string;
    beforeAll(async () => {
      proxy = http.createServer((_request, response) => {
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/me`;
    });
    afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

    it('names the cause, not a problem of the service', async () => {
      const response = await fetch(url);
      const body = await response.text();
      expect(errorMessage(response.status, body)).toBe(
        'The Sightline service cannot be reached (502); check that it is running, then try again.',
      );
    });
  });
});
