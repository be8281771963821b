/** Endpoint records in bulk, for tests of the insert path. */
import { randomUUID } from 'node:crypto';
import { NIL_UUID, type EndpointRecord } from '../../src/core/records.js';

export function endpoints(count: number, name: string): EndpointRecord[] {
  const now = BigInt(Date.now()) * 1_000_000n;
  return Array.from({ length: count }, (_, i) => ({
    projectId: '6f1c5b0e-1111-4000-8000-000000000001',
    id: randomUUID(),
    distributedTraceId: randomUUID(),
    parentSpanId: NIL_UUID,
    isRoot: true,
    recordedAt: now - BigInt(i) * 1_000_000n,
    durationNs: 1_000_000n,
    serverName: 'crash',
    appVersion: '1.0.0',
    attributes: { 'user.id': String(i), region: 'eu-west-1', 'http.user_agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
    source: 'report',
    name,
    method: 'GET',
    route: '/crash',
    statusCode: 200,
    bodySize: 512,
    clientIp: '203.0.113.7',
    streaming: false,
  }));
}
