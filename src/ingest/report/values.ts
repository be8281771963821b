/**
 * Validators of single JSON values of the report payload. Each answers the normalized value, or
 * undefined when the value breaks the schema, so callers turn that into a skip reason without
 * exceptions or allocation on the happy path.
 *
 * Optional fields: `undefined` (omitted) and `null` both mean absent, as the spec allows null
 * wherever a field may be omitted.
 */
import { NIL_UUID, type Attributes, type Nanos, type UnixNanos, type Uuid } from '../../core/records.js';
import { parseRfc3339Nanos } from './timestamps.js';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Per UTF-16 code unit below 128: 1 a lower-case hex digit, 2 an upper-case one, 0 anything else. */
const HEX_DIGIT = new Uint8Array(128);
for (const c of '0123456789abcdef') HEX_DIGIT[c.charCodeAt(0)] = 1;
for (const c of 'ABCDEF') HEX_DIGIT[c.charCodeAt(0)] = 2;
const DASH = 45;

/**
 * A UUID of any version, in any letter case, answered in lower case. A table lookup per
 * character: each trace and span carries several ids, and the two regular expressions this
 * replaced were 6% of the report route's main thread (docs/PERFORMANCE.md).
 */
export function toUuid(value: unknown): Uuid | undefined {
  if (typeof value !== 'string' || value.length !== 36) return undefined;
  let kinds = 0;
  for (let i = 0; i < 36; i++) {
    const code = value.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (code !== DASH) return undefined;
    } else {
      const kind = code < 128 ? HEX_DIGIT[code]! : 0;
      if (kind === 0) return undefined;
      kinds |= kind;
    }
  }
  // Clients send lower case almost always; only the others pay for a copy.
  return kinds & 2 ? value.toLowerCase() : value;
}

/**
 * An optional UUID: NIL_UUID when absent. The empty string counts as absent too, since clients
 * written in languages with zero-value strings send it for "no id".
 */
export function toOptionalUuid(value: unknown): Uuid | undefined {
  return value === undefined || value === null || value === '' ? NIL_UUID : toUuid(value);
}

export function toOptionalBoolean(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return false;
  return typeof value === 'boolean' ? value : undefined;
}

export function toUnixNanos(value: unknown): UnixNanos | undefined {
  return typeof value === 'string' ? parseRfc3339Nanos(value) : undefined;
}

/** An optional timestamp: `absent` when omitted or null. */
export function toOptionalUnixNanos<Absent>(value: unknown, absent: Absent): UnixNanos | Absent | undefined {
  return value === undefined || value === null ? absent : toUnixNanos(value);
}

/** An int64 nanosecond duration: JSON numbers beyond 2^53 have lost precision, so they are refused. */
export function toDurationNs(value: unknown): Nanos | undefined {
  return isIntegerInRange(value, Number.MAX_SAFE_INTEGER) ? BigInt(value) : undefined;
}

export function isIntegerInRange(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/**
 * An attribute map: `{}` when absent, undefined when not an object or when a value nests too
 * deeply to encode. A map of strings only (the common case) is answered as is, shared with the
 * payload rather than copied; any other value is JSON-encoded in a copy, following the records'
 * convention for structured values.
 */
export function toAttributes(value: unknown): Attributes | undefined {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value)) return undefined;
  for (const key in value) {
    if (typeof value[key] !== 'string') return copyAttributes(value, {});
  }
  return value as Attributes;
}

/**
 * Copies `source` into `target`, JSON-encoding values that are not strings; undefined when a
 * value nests too deeply to encode.
 */
export function copyAttributes(source: JsonObject, target: Attributes): Attributes | undefined {
  for (const key in source) {
    const value = source[key];
    const text = typeof value === 'string' ? value : toJsonText(value);
    if (text === undefined) return undefined;
    target[key] = text;
  }
  return target;
}

/**
 * The JSON text of a parsed JSON value, or undefined when it nests too deeply for
 * JSON.stringify, which recurses: JSON.parse does not, so a body may hold 100k-deep arrays.
 */
export function toJsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
