import { describe, expect, it } from 'vitest';
import { SecretBox } from './secrets.js';
import { checkOutboundUrl, isPrivateAddress } from './outbound.js';

describe('outbound targets and sealed secrets', () => {
  it('classifies loopback, private, link-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('accepts only http(s) URLs without credentials', () => {
    const closed = { allowPrivate: false };
    expect(checkOutboundUrl('https://hooks.example.com/x', closed).hostname).toBe('hooks.example.com');
    expect(() => checkOutboundUrl('gopher://x', closed)).toThrow(/only http and https/);
    expect(() => checkOutboundUrl('https://user:pw@x.example', closed)).toThrow(/credentials/);
  });

  it('refuses a host written as a private address or localhost, unless private targets are allowed', () => {
    for (const url of ['http://127.0.0.1:3942/hook', 'http://[::1]/x', 'http://10.1.2.3/x', 'http://localhost:8080/x'])
      expect(() => checkOutboundUrl(url, { allowPrivate: false }), url).toThrow(
        /is a loopback, private or link-local address; set ALERTS_ALLOW_PRIVATE_TARGETS=true/,
      );
    expect(checkOutboundUrl('http://127.0.0.1:3942/hook', { allowPrivate: true }).port).toBe('3942');
    expect(checkOutboundUrl('http://localhost.example.com/x', { allowPrivate: false }).hostname).toBe(
      'localhost.example.com',
    );
  });

  it('seals and opens secrets; another key or an altered value opens to null', () => {
    const box = new SecretBox('a'.repeat(40));
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(new SecretBox('b'.repeat(40)).open(sealed)).toBeNull();
    expect(box.open(`${sealed.slice(0, -2)}AA`)).toBeNull();
  });
});
