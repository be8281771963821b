import { describe, expect, it } from 'vitest';
import { renderParameters } from './literals.js';
import { empty, join, param, raw, sql } from './sql.js';

describe('sql fragments', () => {
  it('binds each value as a placeholder named in order of appearance', () => {
    const query = sql`SELECT x FROM t WHERE a = ${param('u1', 'String')} AND b < ${param(5, 'UInt32')}`;
    expect(query.sql).toBe('SELECT x FROM t WHERE a = {p0:String} AND b < {p1:UInt32}');
    expect(query.params).toEqual({ p0: 'u1', p1: 5 });
  });

  it('composes nested fragments without two of them colliding on a name', () => {
    // Two independently built parts each bind a "from": both survive under their own names.
    const within = (column: string, fromMs: number) => sql`${raw(column)} >= ${param(fromMs, 'Int64')}`;
    const query = sql`SELECT 1 WHERE ${within('a', 10)} AND (${sql`${within('b', 20)} OR c = ${param('z', 'String')}`})`;
    expect(query.sql).toBe('SELECT 1 WHERE a >= {p0:Int64} AND (b >= {p1:Int64} OR c = {p2:String})');
    expect(query.params).toEqual({ p0: 10, p1: 20, p2: 'z' });
  });

  it('binds one parameter used twice under one name', () => {
    const threshold = param(500, 'Int64');
    const query = sql`countIf(d <= ${threshold}) AS s, countIf(d > ${threshold}) AS t, ${param(500, 'Int64')} AS u`;
    expect(query.sql).toBe('countIf(d <= {p0:Int64}) AS s, countIf(d > {p0:Int64}) AS t, {p1:Int64} AS u');
    expect(query.params).toEqual({ p0: 500, p1: 500 });
  });

  it('joins fragments with a separator, and an empty list or fragment adds no text', () => {
    const parts = ['a', 'b', 'c'].map((key) => sql`m[${param(key, 'String')}]`);
    expect(join(parts, ', ').sql).toBe('m[{p0:String}], m[{p1:String}], m[{p2:String}]');
    expect(join(parts, ', ').params).toEqual({ p0: 'a', p1: 'b', p2: 'c' });
    expect(join([], ' AND ').sql).toBe('');
    expect(sql`SELECT 1${empty}`.sql).toBe('SELECT 1');
    expect(sql`SELECT 1${empty}`.params).toEqual({});
  });

  it('never puts a value into the text: a bare value is refused and a hostile one stays a parameter', () => {
    const hostile = "x'; DROP TABLE logs --";
    expect(() => sql`SELECT ${hostile as never}`).toThrow(TypeError);
    expect(() => sql`SELECT ${42 as never}`).toThrow(TypeError);
    const query = sql`SELECT 1 WHERE body = ${param(hostile, 'String')}`;
    expect(query.sql).not.toContain('DROP');
    expect(query.params).toEqual({ p0: hostile });
    // Rendered as chDB binds it: inside one escaped string literal.
    expect(renderParameters(query.sql, query.params)).toBe("SELECT 1 WHERE body = 'x\\'; DROP TABLE logs --'");
  });

  it('refuses a parameter type that is not a type name', () => {
    expect(() => param(1, 'UInt32} OR 1=1 --')).toThrow(TypeError);
    expect(param([1], 'Array(UInt32)').type).toBe('Array(UInt32)');
  });
});
