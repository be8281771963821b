/**
 * The read API's filters (`[{field, op, value}]`), validated once: Filters.parse resolves each
 * field through a route's allow-list and checks the operator and value against the field's type,
 * throwing FilterError (400 in the error handler) before any query runs. The validated value
 * carries its conditions as a SQL fragment, every value and map key a parameter, for the queries.
 */
import { empty, join, param, raw, sql, type Sql } from '../sql.js';
import { ownValue, type TimeRange } from './run.js';

/** A read of one page of a filtered list, in the range, newest or oldest first. */
export interface PageInput {
  range: TimeRange;
  filters?: Filters | undefined;
  direction: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** A PageInput with free-text search, sorted by a column the route allows. */
export interface SearchPageInput extends PageInput {
  search?: string | undefined;
  orderBy: string;
}

/** Filter operators of the read API. */
export type FilterOp = 'eq' | 'neq' | 'contains' | 'gt' | 'gte' | 'lt' | 'lte';
export const FILTER_OPS: readonly FilterOp[] = ['eq', 'neq', 'contains', 'gt', 'gte', 'lt', 'lte'];

export interface Filter {
  field: string;
  op: FilterOp;
  value: string | number | boolean;
}

/** A filterable field: a column expression and its type. */
export interface FieldSpec {
  sql: string;
  type: 'string' | 'number' | 'bool';
}

/** Map columns whose keys are filterable as `<prefix>.<key>`. */
export type MapFields = Record<string, string>;

/** What a resource lets callers filter on: named fields and map columns by prefix. */
export interface FilterAllowList {
  fields: Record<string, FieldSpec>;
  maps: MapFields;
}

export class FilterError extends Error {
  override name = 'FilterError';
}

const OPERATOR: Record<Exclude<FilterOp, 'contains'>, string> = {
  eq: '=',
  neq: '!=',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

/** Validated filters: only Filters.parse makes one, so a query never sees an unchecked field. */
export class Filters {
  static readonly none = new Filters(empty, []);

  private constructor(
    /** ` AND ...` for each condition (no text when there is none). */
    readonly sql: Sql,
    /** The filtered field names, as given. */
    readonly fields: readonly string[],
  ) {}

  /**
   * Unknown fields, operators that do not fit the field's type, and values of the wrong type
   * throw FilterError naming the filter's index.
   */
  static parse(filters: readonly Filter[] | undefined, allowed: FilterAllowList): Filters {
    if (!filters || filters.length === 0) return Filters.none;
    const conditions = filters.map((filter, index) => sql` AND ${condition(filter, index, allowed)}`);
    return new Filters(
      join(conditions, ''),
      filters.map((filter) => filter.field),
    );
  }
}

function condition(filter: Filter, index: number, allowed: FilterAllowList): Sql {
  const { column, type } = columnOf(filter.field, index, allowed);
  if (filter.op === 'contains') {
    if (type !== 'string') throw new FilterError(`filters[${index}]: contains applies to text fields only`);
    return sql`positionCaseInsensitiveUTF8(${column}, ${param(String(filter.value).toLowerCase(), 'String')}) > 0`;
  }
  const operator = raw(OPERATOR[filter.op]);
  if (type === 'number') {
    const value = typeof filter.value === 'number' ? filter.value : Number(filter.value);
    if (!Number.isFinite(value)) throw new FilterError(`filters[${index}].value must be a number`);
    return sql`${column} ${operator} ${param(value, 'Float64')}`;
  }
  if (type === 'bool') {
    if (filter.op !== 'eq' && filter.op !== 'neq')
      throw new FilterError(`filters[${index}]: only eq and neq apply to ${filter.field}`);
    return sql`${column} ${operator} ${param(filter.value === true || filter.value === 'true' ? 1 : 0, 'UInt8')}`;
  }
  return sql`${column} ${operator} ${param(String(filter.value), 'String')}`;
}

/** The field's column expression (from the allow-list, or a map column indexed by a bound key). */
function columnOf(field: string, index: number, allowed: FilterAllowList): { column: Sql; type: FieldSpec['type'] } {
  const spec = ownValue(allowed.fields, field);
  if (spec) return { column: raw(spec.sql), type: spec.type };
  const dot = field.indexOf('.');
  const map = dot > 0 ? ownValue(allowed.maps, field.slice(0, dot)) : undefined;
  const key = dot > 0 ? field.slice(dot + 1) : '';
  if (!map || key === '')
    throw new FilterError(
      `filters[${index}].field ${JSON.stringify(field)} is not filterable here; use one of ${fieldNames(allowed)}`,
    );
  return { column: sql`${raw(map)}[${param(key, 'String')}]`, type: 'string' };
}

function fieldNames(allowed: FilterAllowList): string {
  return [...Object.keys(allowed.fields), ...Object.keys(allowed.maps).map((prefix) => `${prefix}.<key>`)].join(', ');
}
