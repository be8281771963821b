/** The read API's filters, validated once into a fragment (moved from test/api/telemetry/conventions.test.ts). */
import { describe, expect, it } from 'vitest';
import { FilterError, Filters, type FilterAllowList } from './filters.js';

describe('Filters.parse', () => {
  const allowed: FilterAllowList = {
    fields: {
      name: { sql: 'name', type: 'string' },
      statusCode: { sql: 'status_code', type: 'number' },
      streaming: { sql: 'streaming', type: 'bool' },
    },
    maps: { attributes: 'attributes' },
  };
  it('binds every value and map key as a parameter', () => {
    const filters = Filters.parse(
      [
        { field: 'name', op: 'contains', value: "x'; DROP TABLE logs --" },
        { field: 'statusCode', op: 'gte', value: 500 },
        { field: 'attributes.user.id', op: 'eq', value: 'u1' },
        { field: 'streaming', op: 'eq', value: true },
      ],
      allowed,
    );
    expect(filters.sql.sql).toBe(
      ' AND positionCaseInsensitiveUTF8(name, {p0:String}) > 0 AND status_code >= {p1:Float64} AND attributes[{p2:String}] = {p3:String} AND streaming = {p4:UInt8}',
    );
    expect(filters.sql.params).toEqual({ p0: "x'; drop table logs --", p1: 500, p2: 'user.id', p3: 'u1', p4: 1 });
    expect(filters.fields).toEqual(['name', 'statusCode', 'attributes.user.id', 'streaming']);
  });
  it('is empty without filters', () => {
    expect(Filters.parse(undefined, allowed).sql.sql).toBe('');
    expect(Filters.parse([], allowed).fields).toEqual([]);
  });
  it('refuses fields off the allow-list and values of the wrong type', () => {
    const only = { fields: allowed.fields, maps: {} };
    expect(() => Filters.parse([{ field: 'project_id', op: 'eq', value: 'x' }], only)).toThrow(FilterError);
    expect(() => Filters.parse([{ field: 'statusCode', op: 'eq', value: 'abc' }], only)).toThrow(FilterError);
    expect(() => Filters.parse([{ field: 'statusCode', op: 'contains', value: '5' }], only)).toThrow(FilterError);
    expect(() => Filters.parse([{ field: 'streaming', op: 'gt', value: true }], only)).toThrow(FilterError);
    // A map prefix with no key, and a name that only resolves through Object.prototype.
    expect(() => Filters.parse([{ field: 'attributes.', op: 'eq', value: 'x' }], allowed)).toThrow(FilterError);
    expect(() => Filters.parse([{ field: 'constructor', op: 'eq', value: 'x' }], allowed)).toThrow(FilterError);
  });
});
