import { describe, expect, it } from 'vitest';
import { parsePatRequest } from './personal-access-tokens.js';
import { backendUrlProblem, frameworkProblem, projectNameProblem } from './projects.js';

describe('project rules', () => {
  it('names are 1 to 100 letters, numbers, spaces, hyphens and underscores', () => {
    for (const name of ['api', 'Web shop_2-eu', 'Ünïcode Käse', 'x'.repeat(100), '  padded  '])
      expect(projectNameProblem(name), name).toBeNull();
    for (const name of ['', '   ', 'x'.repeat(101), 'semi;colon', 'slash/name', 'dot.name']) {
      expect(projectNameProblem(name), name).toBe(
        'name must be 1 to 100 characters of letters, numbers, spaces, hyphens and underscores',
      );
    }
  });

  it('frameworks come from the picker list', () => {
    for (const framework of ['opentelemetry', 'flutter', 'ios', 'react-native'])
      expect(frameworkProblem(framework)).toBeNull();
    expect(frameworkProblem('cobol')).toMatch(/^framework must be one of opentelemetry, go, /);
  });

  it('a backend URL is empty or http(s)', () => {
    expect(backendUrlProblem('')).toBeNull();
    expect(backendUrlProblem('https://api.example.com')).toBeNull();
    expect(backendUrlProblem('ftp://x')).toMatch(/backendUrl/);
    expect(backendUrlProblem('not a url')).toMatch(/backendUrl/);
  });
});

describe('personal access token requests', () => {
  it('accepts a name and an optional whole number of days from 1 to 3650', () => {
    expect(parsePatRequest({ name: ' ci ' })).toEqual({ ok: true, name: 'ci', expiresInDays: null });
    expect(parsePatRequest({ name: 'ci', expiresInDays: 1 })).toEqual({ ok: true, name: 'ci', expiresInDays: 1 });
    expect(parsePatRequest({ name: 'ci', expiresInDays: 3650 })).toEqual({ ok: true, name: 'ci', expiresInDays: 3650 });
  });

  it('refuses every violation with its message', () => {
    expect(parsePatRequest({})).toEqual({ ok: false, message: 'name is required' });
    expect(parsePatRequest({ name: '  ' })).toEqual({ ok: false, message: 'name is required' });
    expect(parsePatRequest({ name: 'x'.repeat(101) })).toEqual({
      ok: false,
      message: 'name must be a string of at most 100 characters',
    });
    expect(parsePatRequest({ name: 7 })).toEqual({
      ok: false,
      message: 'name must be a string of at most 100 characters',
    });
    for (const expiresInDays of [0, 3651, 1.5, '30']) {
      expect(parsePatRequest({ name: 'ci', expiresInDays })).toEqual({
        ok: false,
        message: 'expiresInDays must be an integer from 1 to 3650',
      });
    }
  });
});
