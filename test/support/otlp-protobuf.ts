/**
 * A minimal protobuf writer for the decoders' tests: enough to spell out OTLP messages field by
 * field, including malformed ones no real exporter would produce.
 */
export type Bytes = readonly number[];

export function varint(value: number | bigint): number[] {
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  while (rest >= 0x80n) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return bytes;
}

const tag = (field: number, wireType: number): number[] => varint((field << 3) | wireType);

export const varintField = (field: number, value: number | bigint): number[] => [...tag(field, 0), ...varint(value)];

export const messageField = (field: number, ...content: Bytes[]): number[] => {
  const body = content.flat();
  return [...tag(field, 2), ...varint(body.length), ...body];
};

export const bytesField = (field: number, bytes: Bytes): number[] => messageField(field, bytes);

export const stringField = (field: number, text: string): number[] => bytesField(field, [...Buffer.from(text)]);

export const hexField = (field: number, hex: string): number[] => bytesField(field, [...Buffer.from(hex, 'hex')]);

export function fixed64Field(field: number, value: bigint): number[] {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt.asUintN(64, value));
  return [...tag(field, 1), ...bytes];
}

export function doubleField(field: number, value: number): number[] {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleLE(value);
  return [...tag(field, 1), ...bytes];
}

export function fixed32Field(field: number, value: number): number[] {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return [...tag(field, 5), ...bytes];
}

/** KeyValue { key = 1, value = 2 (AnyValue) } with a string value. */
export const stringAttribute = (field: number, key: string, value: string): number[] =>
  messageField(field, stringField(1, key), messageField(2, stringField(1, value)));

export const bytesOf = (...parts: Bytes[]): Uint8Array => Uint8Array.from(parts.flat());
