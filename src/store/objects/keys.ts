import { InvalidObjectKeyError } from './types.js';

/**
 * The first segment of every key Sightline writes: `<family>/<projectId>/...`, symbol tables
 * `symboltables/v<N>/<projectId>/...`. A bucket may hold other keys beside them, never touched.
 */
export const OBJECT_KEY_FAMILIES = [
  'recordings',
  'profiles',
  'ai',
  'dartsymbols',
  'iossymbols',
  'proguard',
  'sourcemaps',
  'symboltables',
] as const;

const KEY_CHARS = /^[A-Za-z0-9._/-]*$/;
/** S3's limit; also keeps fs paths well inside PATH_MAX. */
const MAX_KEY_LENGTH = 1024;
/** Leaves room for the temp-file affixes of the fs engine within NAME_MAX (255). */
const MAX_SEGMENT_LENGTH = 200;

/**
 * Object keys: `[A-Za-z0-9._/-]`, 1-1024 characters, `/`-separated non-empty segments of at most
 * 200 characters, none starting with `.` (which rules out `.`, `..` and hidden/temp files),
 * no leading or trailing `/`. Example: `dartsymbols/42/0a1b2c-arm64.symbols`.
 */
export function validateKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidObjectKeyError(String(key), 'empty');
  checkShape(key, key);
  if (key.endsWith('/')) throw new InvalidObjectKeyError(key, 'ends with "/"');
}

/** A list prefix or cursor: same characters and segment rules as a key, may be empty or end with `/`. */
export function validatePrefix(prefix: string): void {
  if (typeof prefix !== 'string') throw new InvalidObjectKeyError(String(prefix), 'not a string');
  if (prefix === '') return;
  checkShape(prefix, prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

function checkShape(original: string, body: string): void {
  if (original.length > MAX_KEY_LENGTH)
    throw new InvalidObjectKeyError(original, `longer than ${MAX_KEY_LENGTH} characters`);
  if (!KEY_CHARS.test(original)) throw new InvalidObjectKeyError(original, 'only A-Z a-z 0-9 . _ / - are allowed');
  if (original.startsWith('/')) throw new InvalidObjectKeyError(original, 'absolute path');
  for (const segment of body.split('/')) {
    if (segment === '') throw new InvalidObjectKeyError(original, 'empty path segment');
    if (segment.startsWith('.')) throw new InvalidObjectKeyError(original, 'a path segment starts with "."');
    if (segment.length > MAX_SEGMENT_LENGTH)
      throw new InvalidObjectKeyError(original, `a path segment is longer than ${MAX_SEGMENT_LENGTH}`);
  }
}
