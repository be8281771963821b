/**
 * Copying every row of the metadata store to another one (`sightline move`: PGlite onto a
 * PostgreSQL server), both migrated to the same version. Rows travel as PostgreSQL's own JSON
 * (`json_agg` on the source, `json_populate_recordset` on the target), so each value goes through
 * its type's output and input functions on both sides: timestamps, bytea, arrays and jsonb
 * arrive as they were. Tables go parents first (foreign keys); a column referring to its own
 * table (refresh_tokens.replaced_by) is filled in by a second pass once every row exists.
 * Sequences are set past the copied ids. One transaction on the target: all or nothing.
 */
import { MOVE_MARK_TABLE } from '../move-mark.js';
import type { MetaDb, MetaTx } from './types.js';

const ROWS_PER_BATCH = 1000;

export interface MetaTableCopied {
  table: string;
  rows: number;
}

/** The tables of the current schema, but the migration and move bookkeeping, parents before children. */
export async function metaTables(db: MetaTx): Promise<string[]> {
  const tables = (
    await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname NOT IN ('schema_migrations', $1)
        ORDER BY c.relname`,
      [MOVE_MARK_TABLE],
    )
  ).map((row) => row.name);
  const edges = await db.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = k.connamespace
      WHERE n.nspname = current_schema() AND k.contype = 'f' AND k.conrelid != k.confrelid`,
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: string) => {
    if (placed.has(table)) return;
    if (visiting.has(table)) throw new Error(`foreign keys form a cycle through ${table}`);
    visiting.add(table);
    for (const edge of edges) if (edge.child === table) place(edge.parent);
    visiting.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) place(table);
  return ordered;
}

/** Tables holding rows (a move goes into an empty database only). */
export async function nonEmptyMetaTables(db: MetaTx, tables: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of tables)
    if ((await db.query(`SELECT 1 FROM ${quoteIdent(table)} LIMIT 1`)).length > 0) found.push(table);
  return found;
}

/** Deletes every row of `tables` (a move cut short is copied again from empty), in one statement. */
export async function emptyMetaTables(db: MetaTx, tables: readonly string[]): Promise<void> {
  if (tables.length > 0) await db.query(`TRUNCATE ${tables.map(quoteIdent).join(', ')}`);
}

async function selfReferencingColumns(db: MetaTx, table: string): Promise<string[]> {
  const rows = await db.query<{ column: string }>(
    `SELECT a.attname AS column FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = k.connamespace
       JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY(k.conkey)
      WHERE n.nspname = current_schema() AND k.contype = 'f' AND k.conrelid = k.confrelid AND c.relname = $1`,
    [table],
  );
  return rows.map((row) => row.column);
}

async function primaryKey(db: MetaTx, table: string): Promise<string[]> {
  const rows = await db.query<{ column: string }>(
    `SELECT a.attname AS column FROM pg_index i
       JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE n.nspname = current_schema() AND c.relname = $1 AND i.indisprimary
      ORDER BY array_position(i.indkey, a.attnum)`,
    [table],
  );
  return rows.map((row) => row.column);
}

/**
 * Copies every table of `from` into the empty, migrated `to`, then sets its sequences. Returns
 * the rows per table; throws (and the target keeps nothing) on any failure.
 */
export async function copyMetadata(
  from: MetaDb,
  to: MetaDb,
  onProgress: (event: { table: string; copied: number }) => void = () => undefined,
): Promise<MetaTableCopied[]> {
  const tables = await metaTables(from);
  const copied: MetaTableCopied[] = [];
  await to.transaction(async (tx) => {
    for (const table of tables) {
      const name = quoteIdent(table);
      const selfColumns = await selfReferencingColumns(from, table);
      const key = (await primaryKey(from, table)).map(quoteIdent);
      // A stable order for paging a stopped source: the primary key, else the physical order.
      const order = key.length > 0 ? key.join(', ') : 'ctid';
      let rows = 0;
      for (;;) {
        const [batch] = await from.query<{ rows: string | null }>(
          `SELECT json_agg(t)::text AS rows FROM (SELECT * FROM ${name} ORDER BY ${order} LIMIT ${ROWS_PER_BATCH} OFFSET ${rows}) t`,
        );
        if (batch?.rows == null) break;
        const count = (JSON.parse(batch.rows) as unknown[]).length;
        // Self references wait for the second pass: the row they name may come later.
        const select =
          selfColumns.length === 0
            ? '*'
            : `${(await columnsOf(tx, table)).map((c) => (selfColumns.includes(c) ? `NULL AS ${quoteIdent(c)}` : quoteIdent(c))).join(', ')}`;
        await tx.query(`INSERT INTO ${name} SELECT ${select} FROM json_populate_recordset(NULL::${name}, $1::json)`, [
          batch.rows,
        ]);
        rows += count;
        onProgress({ table, copied: rows });
        if (count < ROWS_PER_BATCH) break;
      }
      if (selfColumns.length > 0 && rows > 0) {
        if (key.length === 0) throw new Error(`table ${table} refers to itself and has no primary key`);
        for (let offset = 0; offset < rows; offset += ROWS_PER_BATCH) {
          const [batch] = await from.query<{ rows: string }>(
            `SELECT json_agg(t)::text AS rows FROM (SELECT * FROM ${name} ORDER BY ${order} LIMIT ${ROWS_PER_BATCH} OFFSET ${offset}) t`,
          );
          const set = selfColumns.map((c) => `${quoteIdent(c)} = s.${quoteIdent(c)}`).join(', ');
          const match = key.map((k) => `${name}.${k} = s.${k}`).join(' AND ');
          await tx.query(
            `UPDATE ${name} SET ${set} FROM json_populate_recordset(NULL::${name}, $1::json) s WHERE ${match}`,
            [batch!.rows],
          );
        }
      }
      copied.push({ table, rows });
    }
    // bigserial ids: the next one must come after the copied ones.
    const sequences = await tx.query<{ table: string; column: string; sequence: string }>(
      `SELECT c.relname AS table, a.attname AS column, pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS sequence
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL`,
    );
    for (const { table, column, sequence } of sequences)
      await tx.query(
        `SELECT setval($1::regclass, COALESCE((SELECT max(${quoteIdent(column)}) FROM ${quoteIdent(table)}), 0) + 1, false)`,
        [sequence],
      );
  });
  return copied;
}

async function columnsOf(db: MetaTx, table: string): Promise<string[]> {
  const rows = await db.query<{ column: string }>(
    `SELECT a.attname AS column FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relname = $1 AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [table],
  );
  return rows.map((row) => row.column);
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier: ${name}`);
  return `"${name}"`;
}
