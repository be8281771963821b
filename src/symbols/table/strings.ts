/** Interns strings to dense ids; id 0 is the empty string, which the table reads as "unknown". */
export class StringTable {
  static readonly EMPTY = 0;
  private readonly ids = new Map<string, number>([['', StringTable.EMPTY]]);
  private readonly values: string[] = [''];

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }

  get(id: number): string {
    return this.values[id] ?? '';
  }

  toArray(): string[] {
    return [...this.values];
  }
}
