import { describe, expect, it } from 'vitest';
import {
  USER_CODE_ALPHABET,
  newUserCode,
  normalizeUserCode,
  pollOutcome,
  refreshOutcome,
  type DeviceCodeState,
} from './device-flow.js';

const t0 = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const code = (overrides: Partial<DeviceCodeState> = {}): DeviceCodeState => ({
  status: 'pending',
  expiresAt: at(600),
  lastPolledAt: null,
  intervalSeconds: 5,
  ...overrides,
});

describe('device codes (RFC 8628)', () => {
  it('user codes are XXXX-XXXX of consonants without look-alikes', () => {
    expect(USER_CODE_ALPHABET).toMatch(/^[B-DF-HJ-NP-TV-Z]{20}$/);
    for (let i = 0; i < 200; i++) expect(newUserCode()).toMatch(/^[B-DF-HJ-NP-TV-Z]{4}-[B-DF-HJ-NP-TV-Z]{4}$/);
  });

  it('normalizes what a person types and refuses what no code can be', () => {
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDF-GHJK');
    expect(normalizeUserCode(' BCDF GHJK ')).toBe('BCDF-GHJK');
    expect(normalizeUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
    expect(normalizeUserCode('BCDF-GHJ')).toBeNull();
    expect(normalizeUserCode('BCDF-GHJ0')).toBeNull();
    expect(normalizeUserCode('ABCD-EFGH')).toBeNull();
  });

  it('a pending code answers authorization_pending at the interval and slow_down faster, raising the interval by 5 s', () => {
    expect(pollOutcome(code(), at(1))).toEqual({ kind: 'wait', error: 'authorization_pending', intervalSeconds: 5 });
    expect(pollOutcome(code({ lastPolledAt: at(1) }), at(6))).toEqual({
      kind: 'wait',
      error: 'authorization_pending',
      intervalSeconds: 5,
    });
    expect(pollOutcome(code({ lastPolledAt: at(1) }), at(5.9))).toEqual({
      kind: 'wait',
      error: 'slow_down',
      intervalSeconds: 10,
    });
    expect(pollOutcome(code({ lastPolledAt: at(10), intervalSeconds: 10 }), at(19))).toEqual({
      kind: 'wait',
      error: 'slow_down',
      intervalSeconds: 15,
    });
  });

  it('approved issues, denied refuses, consumed is single-use, and 600 s end every undecided code', () => {
    expect(pollOutcome(code({ status: 'approved' }), at(10))).toEqual({ kind: 'issue' });
    expect(pollOutcome(code({ status: 'denied' }), at(10))).toEqual({ kind: 'refuse', error: 'access_denied' });
    expect(pollOutcome(code({ status: 'consumed' }), at(10))).toEqual({ kind: 'refuse', error: 'invalid_grant' });
    expect(pollOutcome(code(), at(600))).toEqual({ kind: 'refuse', error: 'expired_token' });
    expect(pollOutcome(code({ status: 'approved' }), at(600))).toEqual({ kind: 'refuse', error: 'expired_token' });
  });
});

describe('refresh tokens (RFC 9700)', () => {
  const token = { expiresAt: at(90 * 86400), rotatedAt: null, familyRevokedAt: null };
  it('rotates a live token, detects reuse of a rotated one, and refuses revoked families and expired tokens', () => {
    expect(refreshOutcome(token, at(1))).toBe('rotate');
    expect(refreshOutcome({ ...token, rotatedAt: at(1) }, at(2))).toBe('reuse');
    expect(refreshOutcome({ ...token, familyRevokedAt: at(1) }, at(2))).toBe('revoked');
    expect(refreshOutcome({ ...token, rotatedAt: at(1), familyRevokedAt: at(1) }, at(2))).toBe('revoked');
    expect(refreshOutcome(token, at(90 * 86400))).toBe('expired');
  });
});
