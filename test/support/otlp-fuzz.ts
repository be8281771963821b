/**
 * What the two OTLP fuzz suites share. They test two levels: src/ingest/otlp/fuzz.test.ts feeds
 * bodies to the decoders and converters in-process by the thousands (fast, no service), and
 * test/ingest/otlp/fuzz.test.ts sends adversarial bodies to the four routes of a running service
 * with its storage (status codes, group commit, heap). Both mutate valid bodies the same way.
 */
import fc from 'fast-check';

export type ByteEditKind = 'flip' | 'insert' | 'cut' | 'duplicate';

export interface ByteEdit {
  at: number;
  byte: number;
  kind: ByteEditKind;
}

/** One to `maxLength` edits of the given kinds, anywhere in a body. */
export const byteEdits = (kinds: readonly ByteEditKind[], maxLength: number): fc.Arbitrary<ByteEdit[]> =>
  fc.array(
    fc.record({
      at: fc.nat(),
      byte: fc.integer({ min: 0, max: 255 }),
      kind: fc.constantFrom(...kinds),
    }),
    { minLength: 1, maxLength },
  );

/** A copy of `base` with a byte set, inserted, the rest cut off, or 16 bytes repeated, at each edit's place in turn. */
export function mutateBytes(base: Uint8Array, edits: readonly ByteEdit[]): Buffer {
  let bytes = [...base];
  for (const { at, byte, kind } of edits) {
    const index = at % (bytes.length + 1);
    if (kind === 'flip') bytes[index] = byte;
    else if (kind === 'insert') bytes.splice(index, 0, byte);
    else if (kind === 'cut') bytes.length = index;
    else bytes = [...bytes.slice(0, index), ...bytes.slice(index, index + 16), ...bytes.slice(index)];
  }
  return Buffer.from(bytes);
}

/** Every path to a value in a JSON document. */
export function jsonPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((element, index) => [index, element])
    : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, child]) => jsonPaths(child, [...prefix, key]))];
}

/** A copy of a JSON document with the value at `path` replaced. */
export function replaceAt(document: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(document) ? [...document] : { ...(document as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head!] = replaceAt(copy[head!], rest, replacement);
  return copy;
}
