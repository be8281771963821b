/**
 * SQL fragments as values: `sql\`... ${param(value, 'UInt32')} ... ${fragment}\`` builds a Sql
 * whose `sql` text and `params` are derived together, so a query part carries its own values
 * instead of writing them into a caller's object. Fragments nest; parameter names (`p0`, `p1`,
 * ...) are given when the outermost fragment is rendered, in order of appearance, so two parts
 * never collide on a name and one statement always renders to the same text. A value reaches the
 * text only as a `{name:Type}` placeholder; `raw` is for identifiers taken from allow-lists.
 */

/** A value bound as a typed ClickHouse parameter. The same Param used twice binds one name. */
export class Param {
  constructor(
    readonly value: unknown,
    readonly type: string,
  ) {}
}

type Part = Sql | Param;

export class Sql {
  #rendered: { sql: string; params: Record<string, unknown> } | undefined;

  constructor(
    private readonly strings: readonly string[],
    private readonly parts: readonly Part[],
  ) {}

  /** The statement text, every value a `{name:Type}` placeholder. */
  get sql(): string {
    return this.render().sql;
  }

  /** The values of the placeholders of `sql`, by name. */
  get params(): Record<string, unknown> {
    return this.render().params;
  }

  private render(): { sql: string; params: Record<string, unknown> } {
    if (!this.#rendered) {
      const names = new Map<Param, string>();
      const params: Record<string, unknown> = {};
      this.#rendered = { sql: this.write(names, params), params };
    }
    return this.#rendered;
  }

  private write(names: Map<Param, string>, params: Record<string, unknown>): string {
    let out = this.strings[0] ?? '';
    this.parts.forEach((part, index) => {
      if (part instanceof Sql) out += part.write(names, params);
      else {
        let name = names.get(part);
        if (name === undefined) {
          name = `p${names.size}`;
          names.set(part, name);
          params[name] = part.value;
        }
        out += `{${name}:${part.type}}`;
      }
      out += this.strings[index + 1] ?? '';
    });
    return out;
  }
}

/** A ClickHouse parameter type: the names literals.ts and the server both bind. */
const PARAM_TYPE = /^[A-Za-z][A-Za-z0-9]*(?:\([A-Za-z0-9(), ]*\))?$/;

/** `value` as a `{name:Type}` parameter of `type` (UUID, String, UInt32, Int64, Array(UUID), ...). */
export function param(value: unknown, type: string): Param {
  if (!PARAM_TYPE.test(type)) throw new TypeError(`not a parameter type: ${type}`);
  return new Param(value, type);
}

/** The tagged template: every interpolation must be a Sql fragment or a Param. */
export function sql(strings: TemplateStringsArray, ...parts: Part[]): Sql {
  for (const part of parts)
    if (!(part instanceof Sql) && !(part instanceof Param))
      throw new TypeError(`sql: interpolate a param() or a fragment, not a ${typeof part}`);
  return new Sql(strings, parts);
}

/** Trusted text as a fragment: a column, table or keyword from an allow-list, never a caller's value. */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

/** The fragment of no text. */
export const empty: Sql = raw('');

/** The fragments with `separator` (trusted text) between them. */
export function join(fragments: readonly Sql[], separator: string): Sql {
  if (fragments.length === 0) return empty;
  return new Sql(['', ...fragments.slice(1).map(() => separator), ''], fragments);
}
