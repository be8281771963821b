import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from './errors.js';
import { inspectProfilesRequest } from './index.js';
import {
  bytesOf,
  messageField,
  stringAttribute,
  stringField,
  varintField,
} from '../../../test/support/otlp-protobuf.js';

/** Profile { samples = 2 } repeated `count` times, with a sample_type (1) and time (3) besides. */
const profile = (count: number) =>
  messageField(
    2,
    messageField(1, varintField(1, 1)),
    ...Array.from({ length: count }, () => messageField(2, varintField(1, 3))),
  );

const resourceProfiles = (serviceName: string, ...profiles: number[][]) =>
  messageField(
    1,
    messageField(1, stringAttribute(1, 'service.name', serviceName)),
    messageField(2, stringField(3, 'schema'), ...profiles),
  );

describe('profiles envelope', () => {
  it('reads service names and counts samples from protobuf, skipping the dictionary', () => {
    const body = bytesOf(
      resourceProfiles('api', profile(3), profile(2)),
      resourceProfiles('worker', profile(1)),
      resourceProfiles('api'),
      messageField(2, stringField(5, '')),
    );
    expect(inspectProfilesRequest(body, 'protobuf')).toEqual({ serviceNames: ['api', 'worker'], sampleCount: 6 });
  });

  it('reads OTLP/JSON, `samples` and the older `sample`', () => {
    const body = Buffer.from(
      JSON.stringify({
        resourceProfiles: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'api' } }] },
            scopeProfiles: [{ profiles: [{ samples: [{}, {}] }, { sample: [{}] }] }],
          },
        ],
        dictionary: { stringTable: [''] },
      }),
    );
    expect(inspectProfilesRequest(body, 'json')).toEqual({ serviceNames: ['api'], sampleCount: 3 });
  });

  it.each([
    ['truncated protobuf', Uint8Array.from([0x0a, 0x09, 0x0a]), 'protobuf'],
    ['malformed JSON', Buffer.from('{'), 'json'],
    [
      'samples that are not a list',
      Buffer.from(JSON.stringify({ resourceProfiles: [{ scopeProfiles: [{ profiles: [{ samples: 3 }] }] }] })),
      'json',
    ],
  ] as const)('rejects %s', (_problem, body, encoding) => {
    expect(() => inspectProfilesRequest(body, encoding)).toThrow(OtlpDecodeError);
  });
});
