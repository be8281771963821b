import { describe, expect, it, vi } from 'vitest';
import type { LookupTable } from '../table/lookup-table.js';
import { fixtureById, fixtureTables, fixtureText } from '../../../test/support/symbols/fixtures.js';
import { parseIosTrace, symbolicateIos } from './trace.js';

const tables = fixtureTables(fixtureById('ios-arm64'));
const resolveFixture = (uuid: string, arch: string): LookupTable | undefined => tables.get(`${uuid}/${arch}`);
const sigsegv = fixtureText('traces/ios-arm64/sigsegv.txt');
const sigsegvExpected = fixtureText('traces/ios-arm64/sigsegv.expected.txt');

describe('parseIosTrace', () => {
  it('lists the distinct image UUIDs without the zero UUID', () => {
    const trace = parseIosTrace(sigsegv);
    expect(trace.arch).toBe('arm64');
    expect(trace.uuids).toEqual(['fb1f31bf712f3200b388cd91c37e2d71', '9a1f0d6e3b7c4e21a0f5c8d2b4e6a719']);
    expect(trace.frames).toHaveLength(9);
    expect(trace.frames[0]).toEqual({
      raw: '#00 fb1f31bf712f3200b388cd91c37e2d71 0x41a3 ShopApp',
      uuid: 'fb1f31bf712f3200b388cd91c37e2d71',
      offset: 0x41a3,
      image: 'ShopApp',
    });
  });

  it('takes the slice from the arch token, arm64 when there is none', () => {
    expect(parseIosTrace('x\n*** *** ***\nos: ios arch: x86_64\n').arch).toBe('x64');
    expect(parseIosTrace('x\n*** *** ***\nos: ios\n').arch).toBe('arm64');
  });
});

describe('symbolicateIos', () => {
  it('asks the resolver once per image and never for the zero UUID', () => {
    const resolve = vi.fn(resolveFixture);
    expect(symbolicateIos(sigsegv, resolve)).toBe(sigsegvExpected);
    expect(resolve.mock.calls).toEqual([
      ['fb1f31bf712f3200b388cd91c37e2d71', 'arm64'],
      ['9a1f0d6e3b7c4e21a0f5c8d2b4e6a719', 'arm64'],
    ]);
  });

  it('treats the whole raw trace as preamble when there is no separator, so frames appear twice', () => {
    const legacy = 'Fatal Signal SIGSEGV (11)\n#00 fb1f31bf712f3200b388cd91c37e2d71 0x41a3 ShopApp\n';
    expect(symbolicateIos(legacy, resolveFixture)).toBe(
      'Fatal Signal SIGSEGV (11)\n#00 fb1f31bf712f3200b388cd91c37e2d71 0x41a3 ShopApp\n' +
        '#0 clamp_rate (/Users/ci/ShopApp/lib/pricing.c:9:12)\n' +
        '#1 effective_rate (/Users/ci/ShopApp/lib/pricing.c:16:14)\n' +
        '#2 Pricing_withTax (/Users/ci/ShopApp/lib/pricing.c:21:14)\n',
    );
  });

  it('resolves only against a table of the same UUID and arch', () => {
    const table = [...tables.values()][0]!;
    const wrongArch = sigsegv.replace('arch: arm64', 'arch: x64');
    expect(symbolicateIos(wrongArch, () => table)).not.toContain('clamp_rate');
    const otherImage = sigsegv.replaceAll('fb1f31bf712f3200b388cd91c37e2d71', 'fb1f31bf712f3200b388cd91c37e2d72');
    expect(symbolicateIos(otherImage, () => table)).not.toContain('clamp_rate');
  });

  it('returns a trace without frames unchanged', () => {
    const text = 'Fatal Signal SIGSEGV (11)\n*** *** ***\nos: ios arch: arm64\n';
    expect(symbolicateIos(text, resolveFixture)).toBe(text);
  });
});
