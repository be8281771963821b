import { describe, expect, it } from 'vitest';
import { crossedPercents, quotaWarningMail } from './quota-warnings.js';

describe('quota warnings', () => {
  it('crosses a threshold when the usage reaches it exactly, and none for a plan without ingest', () => {
    expect(crossedPercents(799, 1000)).toEqual([]);
    expect(crossedPercents(800, 1000)).toEqual([80]);
    expect(crossedPercents(999, 1000)).toEqual([80]);
    expect(crossedPercents(1000, 1000)).toEqual([80, 100]);
    expect(crossedPercents(5000, 0)).toEqual([]);
  });

  it('writes whole gigabytes above ten, two decimals below', () => {
    const mail = quotaWarningMail({
      organizationName: 'Acme',
      percent: 100,
      usedBytes: 50_400_000_000,
      limitBytes: 50_000_000_000,
      month: '2026-11',
      settingsUrl: 'https://s.example/settings/organization',
    });
    expect(mail.subject).toBe('Ingest paused for Acme: monthly quota used');
    expect(mail.text).toContain('has sent 50 GB of 50 GB of ingest in 2026-11 (UTC), all of');
  });
});
