/**
 * The renderer's refusals and its reading of the statement text. That a rendered literal means
 * exactly what ClickHouse's own binding means is checked on chDB in test/store/chdb-literals.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ParameterError, quoteString, renderParameters } from './literals.js';

describe('renderParameters', () => {
  it('renders a String as a string literal and every other type as a cast of one', () => {
    expect(renderParameters('SELECT {s:String}, {n:UInt32}, {ids:Array(UUID)}', { s: "it's", n: 7, ids: [] })).toBe(
      "SELECT 'it\\'s', _CAST('7', 'UInt32'), _CAST([], 'Array(UUID)')",
    );
  });

  it('reads the statement as ClickHouse does: no placeholders inside quotes or comments', () => {
    const sql =
      'SELECT \'{a:String}\', `{a:String}`, "x{a:String}" -- {a:String}\n /* {a:String} /* nested */ {a:String} */ # {a:String}\n, { a : String }';
    expect(renderParameters(sql, { a: 'v' })).toBe(
      "SELECT '{a:String}', `{a:String}`, \"x{a:String}\" -- {a:String}\n /* {a:String} /* nested */ {a:String} */ # {a:String}\n, 'v'",
    );
  });

  it('escaped and doubled quotes do not end a quoted string early', () => {
    expect(renderParameters("SELECT 'a\\'{x:String}', 'b''{x:String}', {x:String}", { x: 'v' })).toBe(
      "SELECT 'a\\'{x:String}', 'b''{x:String}', 'v'",
    );
  });

  it.each([
    ['an unsupported type', 'SELECT {t:Identifier}', { t: 'endpoints' }, /type Identifier is not supported/],
    ['a Nullable type', 'SELECT {t:Nullable(String)}', { t: null }, /not supported/],
    ['a missing value', 'SELECT {a:String}', {}, /a has no value/],
    ['an inherited property as value', 'SELECT {toString:String}', {}, /has no value/],
    ['null', 'SELECT {a:String}', { a: null }, /type null/],
    ['a number for a String', 'SELECT {a:String}', { a: 1 }, /number 1/],
    ['a boolean', 'SELECT {a:UInt8}', { a: true }, /type boolean/],
    ['an object', 'SELECT {a:String}', { a: { toString: () => 'x' } }, /type object/],
    ['a scalar for an array', 'SELECT {a:Array(String)}', { a: 'x' }, /not an array/],
    ['a wrong element', 'SELECT {a:Array(UInt32)}', { a: [1, -1] }, /number -1/],
    ['NaN', 'SELECT {a:Float64}', { a: Number.NaN }, /NaN/],
    ['Infinity', 'SELECT {a:Float64}', { a: Number.POSITIVE_INFINITY }, /Infinity/],
    [
      'an integer beyond 2^53 as a number',
      'SELECT {a:Int64}',
      { a: 2 ** 60 },
      /not an integer from -9223372036854775808/,
    ],
    ['a fraction for an integer', 'SELECT {a:Int64}', { a: 1.5 }, /1\.5/],
    ['a non-integer string for an integer', 'SELECT {a:Int64}', { a: '1 OR 1=1' }, /string/],
    ['a UInt32 below its range', 'SELECT {a:UInt32}', { a: -1 }, /-1/],
    ['a UInt32 above its range', 'SELECT {a:UInt32}', { a: 2 ** 32 }, /4294967296/],
    ['an Int64 above its range', 'SELECT {a:Int64}', { a: 2n ** 63n }, /9223372036854775808/],
    ['a number for a DateTime64', 'SELECT {a:DateTime64(3)}', { a: 1_700_000_000_000 }, /number/],
    ['an unterminated string', "SELECT {a:String}, 'open", { a: 'x' }, /unterminated quoted/],
    ['an unterminated comment', 'SELECT {a:String} /* open', { a: 'x' }, /unterminated comment/],
    ['a heredoc', 'SELECT $$ {a:String} $$', { a: 'x' }, /heredoc/],
  ])('refuses %s', (_name, sql, params, message) => {
    expect(() => renderParameters(sql, params)).toThrow(ParameterError);
    expect(() => renderParameters(sql, params)).toThrow(message);
  });

  it('takes 64-bit integers exactly, as bigint or decimal text', () => {
    expect(renderParameters('SELECT {a:UInt64}, {b:Int64}', { a: 2n ** 64n - 1n, b: '-9223372036854775808' })).toBe(
      "SELECT _CAST('18446744073709551615', 'UInt64'), _CAST('-9223372036854775808', 'Int64')",
    );
  });
});

describe('quoteString', () => {
  it('escapes backslash, quote and every control character; a lone surrogate becomes U+FFFD', () => {
    expect(quoteString("a\\b'c\0d\n\t\x1f\x7fe")).toBe("'a\\\\b\\'c\\x00d\\x0a\\x09\\x1f\\x7fe'");
    expect(quoteString('x\uD800y\uDC00z😀')).toBe("'x\uFFFDy\uFFFDz😀'");
  });
});
