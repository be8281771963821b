type TypedArray = Float64Array | Int32Array | Uint32Array;

/**
 * Append-only typed column that doubles its capacity as it grows: millions of
 * line rows cost 4 or 8 bytes each instead of a JS array's boxed slack.
 */
export class Column<T extends TypedArray> {
  private data: T;
  private size = 0;

  constructor(private readonly allocate: (capacity: number) => T) {
    this.data = allocate(256);
  }

  get length(): number {
    return this.size;
  }

  /** Shrinks the column (drops the rows of an unfinished line sequence). */
  truncate(length: number): void {
    this.size = Math.min(this.size, length);
  }

  push(value: number): void {
    if (this.size === this.data.length) {
      const grown = this.allocate(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.size++] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }

  /** The values as an exactly sized copy. */
  toArray(): T {
    return this.data.slice(0, this.size) as T;
  }
}

export const float64Column = (): Column<Float64Array> => new Column((n) => new Float64Array(n));
export const int32Column = (): Column<Int32Array> => new Column((n) => new Int32Array(n));
export const uint32Column = (): Column<Uint32Array> => new Column((n) => new Uint32Array(n));
