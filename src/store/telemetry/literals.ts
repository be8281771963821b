/**
 * Renders `{name:Type}` query parameters as typed ClickHouse literals, for chDB: its binding runs
 * every server-side-bound query of the process one at a time (docs/ARCHITECTURE.md, "chDB
 * reads"), while a statement without parameters runs in parallel. The result is what ClickHouse
 * itself substitutes when it binds a parameter: a String becomes a string literal, any other type
 * `_CAST(literal, 'Type')`.
 *
 * Values only ever appear inside string literals written by quoteString. A placeholder of a type
 * not listed here, a missing value, or a value of the wrong kind throws ParameterError; nothing
 * falls back to interpolation. Pure: no engine import.
 */

export class ParameterError extends Error {
  override name = 'ParameterError';
}

type ParameterType =
  | { kind: 'string' }
  | { kind: 'integer'; min: bigint; max: bigint }
  | { kind: 'float' }
  /** Parsed by ClickHouse from its text form only (a number would be read as a timestamp). */
  | { kind: 'text' }
  | { kind: 'array'; element: ParameterType };

const INTEGER_BITS: Record<string, number> = {
  Int8: 8,
  Int16: 16,
  Int32: 32,
  Int64: 64,
  UInt8: 8,
  UInt16: 16,
  UInt32: 32,
  UInt64: 64,
};
const TEXT_TYPE = /^(?:UUID|Date|DateTime|DateTime64\([0-9]\))$/;

function parseType(type: string): ParameterType | null {
  if (type === 'String') return { kind: 'string' };
  if (type === 'Float64') return { kind: 'float' };
  if (TEXT_TYPE.test(type)) return { kind: 'text' };
  const bits = INTEGER_BITS[type];
  if (bits !== undefined) {
    const signed = !type.startsWith('U');
    const span = 1n << BigInt(signed ? bits - 1 : bits);
    return { kind: 'integer', min: signed ? -span : 0n, max: span - 1n };
  }
  const array = /^Array\((.+)\)$/.exec(type);
  const element = array ? parseType(array[1]!) : null;
  return element ? { kind: 'array', element } : null;
}

/**
 * A single-quoted ClickHouse string literal of `value`: backslash and quote escaped, every
 * control character (NUL included, which would end the statement in chDB's C interface) as
 * `\xHH`, and a lone surrogate, which has no UTF-8 form, as U+FFFD as Node's own encoder does.
 */
export function quoteString(value: string): string {
  const escaped = value
    .replace(/\p{Surrogate}/gu, '\uFFFD')
    .replace(/[\\'\x00-\x1f\x7f]/g, (c) =>
      c === '\\' || c === "'" ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
    );
  return `'${escaped}'`;
}

/** The text ClickHouse parses into `type`, from the JavaScript values that mean one exactly. */
function textOf(value: unknown, type: Exclude<ParameterType, { kind: 'array' }>, name: string): string {
  if (type.kind === 'string' || type.kind === 'text') {
    if (typeof value === 'string') return value;
  } else if (type.kind === 'float') {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  } else {
    const text =
      typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value)) ? String(value) : value;
    if (typeof text === 'string' && /^-?[0-9]+$/.test(text) && BigInt(text) >= type.min && BigInt(text) <= type.max)
      return text;
  }
  const expected =
    type.kind === 'integer'
      ? `an integer from ${type.min} to ${type.max}`
      : type.kind === 'float'
        ? 'a finite number'
        : 'a string';
  throw new ParameterError(`parameter ${name}: ${describe(value)} is not ${expected}`);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'number' || typeof value === 'bigint'
    ? `the number ${value}`
    : `a value of type ${value === null ? 'null' : typeof value}`;
}

/** A literal whose value, cast to `type`, is `value`: strings for scalars, `[...]` for arrays. */
function literalOf(value: unknown, type: ParameterType, name: string): string {
  if (type.kind !== 'array') return quoteString(textOf(value, type, name));
  if (!Array.isArray(value)) throw new ParameterError(`parameter ${name}: ${describe(value)} is not an array`);
  return `[${value.map((element) => literalOf(element, type.element, name)).join(', ')}]`;
}

const PLACEHOLDER = /\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^{}]*?)\s*\}/y;

/**
 * `sql` with every `{name:Type}` outside string literals, quoted identifiers and comments replaced
 * by the literal of `params[name]`. Placeholders inside those are left as ClickHouse leaves them.
 */
export function renderParameters(sql: string, params: Readonly<Record<string, unknown>>): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const skipped = skipInert(sql, i);
    if (skipped > i) {
      out += sql.slice(i, skipped);
      i = skipped;
      continue;
    }
    const c = sql[i]!;
    // A heredoc ($tag$...$tag$) would hide placeholders from this scanner but not from ClickHouse.
    if (c === '$') throw new ParameterError('heredoc strings ($...$) are not supported in parameterized statements');
    if (c === '{') {
      PLACEHOLDER.lastIndex = i;
      const match = PLACEHOLDER.exec(sql);
      if (match) {
        const [text, name, typeText] = match as unknown as [string, string, string];
        out += render(name, typeText, params);
        i += text.length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

function render(name: string, typeText: string, params: Readonly<Record<string, unknown>>): string {
  const type = parseType(typeText);
  if (!type) throw new ParameterError(`parameter ${name}: type ${typeText} is not supported`);
  if (!Object.hasOwn(params, name)) throw new ParameterError(`parameter ${name} has no value`);
  const literal = literalOf(params[name], type, name);
  return type.kind === 'string' ? literal : `_CAST(${literal}, ${quoteString(typeText)})`;
}

/** The index after the string literal, quoted identifier or comment starting at `i` (`i` if none). */
function skipInert(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"' || c === '`') {
    // Inside quotes a backslash escapes the next character and a doubled quote is a quote.
    for (let j = i + 1; j < sql.length; j++) {
      if (sql[j] === '\\') j++;
      else if (sql[j] === c) {
        if (sql[j + 1] === c) j++;
        else return j + 1;
      }
    }
    throw new ParameterError('unterminated quoted text in statement');
  }
  // `#` starts a line comment where ClickHouse accepts it, and is an error anywhere else.
  if (sql.startsWith('--', i) || c === '#') {
    const end = sql.indexOf('\n', i);
    return end === -1 ? sql.length : end + 1;
  }
  if (sql.startsWith('/*', i)) {
    // ClickHouse's block comments nest.
    let depth = 0;
    for (let j = i; j < sql.length - 1; j++) {
      if (sql.startsWith('/*', j)) {
        depth++;
        j++;
      } else if (sql.startsWith('*/', j)) {
        depth--;
        j++;
        if (depth === 0) return j + 1;
      }
    }
    throw new ParameterError('unterminated comment in statement');
  }
  return i;
}
