import { describe, expect, it } from 'vitest';
import { compareVersions, newestVersion, parseStatusChange, transitionOf, type IssueState } from './issues.js';

const at = new Date('2026-01-01T00:00:00Z');
const state = (over: Partial<IssueState>): IssueState => ({
  hash: 'h',
  status: 'open',
  resolvedInVersion: null,
  ignoredUntil: null,
  ignoreLimit: null,
  ignoredCount: 0,
  regressedAt: null,
  ...over,
});
const seen = (versions: string[], count = 1) => ({ hash: 'h', count, lastSeenAt: at, versions });

describe('issue workflow core', () => {
  it('orders versions numerically, pre-releases before their release', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBeGreaterThan(0);
    expect(compareVersions('v2.0', '2.0.0')).toBe(0);
    expect(compareVersions('1.2.0-beta', '1.2.0')).toBeLessThan(0);
    expect(compareVersions('1.2.0-beta.10', '1.2.0-beta.9')).toBeGreaterThan(0);
    expect(newestVersion(['', '1.0.0', '1.0.10', '1.0.9'])).toBe('1.0.10');
  });

  it('decides each transition', () => {
    expect(transitionOf(null, seen(['1.0']))).toMatchObject({ kind: 'new' });
    expect(transitionOf(state({}), seen(['1.0']))).toBeNull();
    expect(transitionOf(state({ status: 'resolved' }), seen(['']))).toMatchObject({ kind: 'regressed', version: null });
    expect(transitionOf(state({ status: 'resolved', resolvedInVersion: '1.0' }), seen(['1.0', '0.9', '']))).toBeNull();
    expect(transitionOf(state({ status: 'resolved', resolvedInVersion: '1.0' }), seen(['1.0', '1.1']))).toMatchObject({
      kind: 'regressed',
      version: '1.1',
    });
    expect(transitionOf(state({ status: 'ignored' }), seen(['1.0'], 100))).toBeNull();
    expect(transitionOf(state({ status: 'ignored', ignoreLimit: 5, ignoredCount: 3 }), seen([''], 1))).toEqual({
      kind: 'counted',
      hash: 'h',
      add: 1,
    });
    expect(transitionOf(state({ status: 'ignored', ignoreLimit: 5, ignoredCount: 3 }), seen([''], 2))).toMatchObject({
      kind: 'reopened',
      reason: 'ignore-count',
    });
    expect(
      transitionOf(state({ status: 'ignored', ignoredUntil: new Date(at.getTime() - 1) }), seen([''])),
    ).toMatchObject({ kind: 'reopened', reason: 'ignore-expired' });
  });

  it('parses status changes, naming the field at fault', () => {
    const now = at.getTime();
    expect(parseStatusChange({ status: 'ignored', occurrences: 10 }, now)).toEqual({
      status: 'ignored',
      until: undefined,
      occurrences: 10,
    });
    expect(parseStatusChange({ status: 'nope' }, now)).toEqual({ error: expect.stringMatching(/^status/) });
    expect(parseStatusChange({ status: 'resolved', inNextVersion: 'yes' }, now)).toEqual({
      error: expect.stringMatching(/^inNextVersion/),
    });
    expect(parseStatusChange({ status: 'ignored', until: '2025-01-01T00:00:00Z' }, now)).toEqual({
      error: expect.stringMatching(/^until/),
    });
  });

  it('refuses a condition of another status instead of ignoring it (before: {status: open, until: "not-a-date"} was 200)', () => {
    const now = at.getTime();
    expect(parseStatusChange({ status: 'open', until: 'not-a-date' }, now)).toEqual({
      error: 'until is only meaningful with status ignored',
    });
    expect(parseStatusChange({ status: 'resolved', occurrences: 5 }, now)).toEqual({
      error: 'occurrences is only meaningful with status ignored',
    });
    expect(parseStatusChange({ status: 'ignored', inNextVersion: true }, now)).toEqual({
      error: 'inNextVersion is only meaningful with status resolved',
    });
  });

  it('refuses an until that is no calendar date (before: 2027-02-30 was read as March 1)', () => {
    expect(parseStatusChange({ status: 'ignored', until: '2027-02-30T10:00:00Z' }, at.getTime())).toEqual({
      error: 'until must be an ISO 8601 timestamp',
    });
  });
});
