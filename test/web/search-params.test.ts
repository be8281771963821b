/**
 * The dashboard's query-string reading and writing (web/src/lib/search-params.ts, the router's
 * parseSearch/stringifySearch): text stays exactly as typed — TanStack's default read `?q=12.50`
 * as 12.5 and `?q=1e3` as 1000 — while lists and objects still travel as JSON, and every value
 * the pages write comes back as the validators expect.
 */
import { defaultParseSearch } from '@tanstack/router-core';
import { describe, expect, it } from 'vitest';
import { parseLogsSearch } from '../../web/src/pages/logs/search.js';
import { validateIssuesSearch, validateIssueSearch } from '../../web/src/pages/issues/search.js';
import { validateDistributedTraceSearch } from '../../web/src/pages/traces/search.js';
import { parseSearch, stringifySearch } from '../../web/src/lib/search-params.js';

const TYPED = ['0012', '12', '12.50', '1e3', '-0', 'null', 'true', ' 12', '007', '0x10', '[abc', '{"a":', 'a"b'];

describe('search parameters as typed', () => {
  it('reads every text value as the text typed', () => {
    for (const q of TYPED) expect(parseSearch(`?${new URLSearchParams({ q })}`), q).toEqual({ q });
    // The default this replaces lost some of them (the reason for the change).
    expect(defaultParseSearch('?q=12.50')).toEqual({ q: 12.5 });
    expect(defaultParseSearch('?q=1e3')).toEqual({ q: 1000 });
  });

  it('a list page’s search keeps it: issues, logs', () => {
    for (const q of TYPED.filter((text) => text.trim() !== '')) {
      const search = parseSearch(`?${new URLSearchParams({ q })}`);
      expect(validateIssuesSearch(search).q, q).toBe(q);
      expect(parseLogsSearch(search).q, q).toBe(q);
    }
    // A trace id of digits only stays its 32 characters (the default made it a lossy number).
    const traceId = '12345678901234567890123456789012';
    expect(parseLogsSearch(parseSearch(`?traceId=${traceId}`)).traceId).toBe(traceId);
  });

  it('writes what it reads back: text, numbers, flags, lists and objects', () => {
    const state = {
      q: '12.50',
      quoted: '"[1]"',
      list: '[abc',
      page: 2,
      live: true,
      open: ['a', 'b'],
      filters: [{ field: 'attributes.region', op: 'eq', value: '12' }],
      gone: undefined,
    };
    const text = stringifySearch(state);
    expect(text.startsWith('?q=12.50&')).toBe(true);
    const read = parseSearch(text);
    expect(read).toEqual({
      q: '12.50',
      quoted: '"[1]"',
      list: '[abc',
      page: '2',
      live: 'true',
      open: ['a', 'b'],
      filters: [{ field: 'attributes.region', op: 'eq', value: '12' }],
    });
    // The validators read numbers and flags from text.
    expect(validateIssueSearch(parseSearch('?page=3&occurrence=0&raw=true'))).toEqual({
      page: 3,
      occurrence: 0,
      raw: true,
    });
    expect(parseLogsSearch(read).filters).toEqual(state.filters);
    expect(validateDistributedTraceSearch(read).open).toEqual(['a', 'b']);
    expect(stringifySearch({})).toBe('');
  });

  it('reads links written by the default serializer (strings that looked like JSON were quoted)', () => {
    expect(parseSearch('?q=%2212%22')).toEqual({ q: '12' });
    expect(parseSearch('?open=%5B%22a%22%5D')).toEqual({ open: ['a'] });
  });
});
