/**
 * Typed OTLP values to what the stores keep: attribute maps are flat string maps (records.ts), and
 * structured values become JSON.
 */
import type { Attributes } from '../records.js';
import type { AnyValue, KeyValue, OtlpResource } from './otlp-model.js';

/** Attribute maps as strings: arrays and key-value lists as JSON, bytes as base64. */
export function flattenAttributes(attributes: readonly KeyValue[]): Attributes {
  const flat: Attributes = {};
  for (const { key, value } of attributes) setOwn(flat, key, anyValueToString(value));
  return flat;
}

/** Writes `target[key]` as an own property even for `__proto__`, which plain assignment drops. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function anyValueToString(value: AnyValue): string {
  switch (value.type) {
    case 'string':
      return value.value;
    case 'bool':
    case 'int':
    case 'double':
      return String(value.value);
    case 'bytes':
      return Buffer.from(value.value).toString('base64');
    case 'empty':
      return '';
    case 'array':
    case 'kvlist':
      return JSON.stringify(anyValueToJson(value));
  }
}

/**
 * A value as JSON data: key-value lists become objects, bytes base64 strings, and numbers JSON
 * cannot hold exactly (int64 beyond 2^53, NaN, infinities) strings.
 */
export function anyValueToJson(value: AnyValue): unknown {
  switch (value.type) {
    case 'string':
    case 'bool':
      return value.value;
    case 'int':
      return typeof value.value === 'bigint' ? value.value.toString() : value.value;
    case 'double':
      return Number.isFinite(value.value) ? value.value : String(value.value);
    case 'bytes':
      return Buffer.from(value.value).toString('base64');
    case 'empty':
      return null;
    case 'array':
      return value.value.map(anyValueToJson);
    case 'kvlist': {
      const object: Record<string, unknown> = {};
      for (const pair of value.value) setOwn(object, pair.key, anyValueToJson(pair.value));
      return object;
    }
  }
}

/** The first of `keys` with a non-empty value: for attributes known under several names. */
export function firstAttribute(attributes: Attributes, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = attributes[key];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** The value of `key` in a typed attribute list, if present. */
export function findAttribute(attributes: readonly KeyValue[], key: string): AnyValue | undefined {
  for (const pair of attributes) if (pair.key === key) return pair.value;
  return undefined;
}

/** `service.name` and `service.version` of a resource: the server name and app version of records. */
export interface Service {
  name: string;
  version: string;
}

export function serviceOf(resource: OtlpResource): Service {
  let name = '';
  let version = '';
  for (const { key, value } of resource.attributes) {
    if (value.type !== 'string') continue;
    if (key === 'service.name') name = value.value;
    else if (key === 'service.version') version = value.value;
  }
  return { name, version };
}
